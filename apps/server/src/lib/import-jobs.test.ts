import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { queryRows } from '../db/client';
import { JOB_STALE_AFTER_SECONDS, runJob, updateJob } from './import-jobs';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

/** A job row as a server leaves it when it stops mid-way: running, last heard of `silentFor` seconds ago. */
async function runningJob(kind: 'users' | 'groups' | 'userBulk', silentFor: number, tenantId = f.acme.id) {
  const input = kind === 'userBulk' ? { action: 'enableXdr', groupId: null, match: { q: 'x' } } : null;
  const [row] = await queryRows<{ id: string }>(
    f.database.db,
    sql`insert into import_jobs (tenant_id, kind, mode, total, processed, input, heartbeat_at)
        values (${tenantId}::uuid, ${kind}, 'valid', 10000, 5000, ${input ? JSON.stringify(input) : null}::jsonb,
                now() - make_interval(secs => ${silentFor}))
        returning id`,
  );
  return row.id;
}

describe('jobs interrupted by a server restart', () => {
  it('settles a silent import as failed with the reason, and leaves a live one running', async () => {
    const admin = await f.signIn('admin@acme.test');
    const silent = await runningJob('users', JOB_STALE_AFTER_SECONDS + 60);
    const live = await runningJob('users', 5);

    const settled = await f.app.inject({
      url: `/api/subscriber/user/acme/import/${silent}`,
      headers: auth(admin),
    });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toMatchObject({
      status: 'failed',
      processed: 5000,
      errorCount: 1,
      errors: [{ row: 0, field: 'job', message: 'jobs.interrupted' }],
    });
    expect(settled.json().finishedAt).not.toBeNull();
    // Asking again answers the same, without a second error.
    const again = await f.app.inject({
      url: `/api/subscriber/user/acme/import/${silent}`,
      headers: auth(admin),
    });
    expect(again.json()).toMatchObject({ status: 'failed', errorCount: 1 });

    const running = await f.app.inject({
      url: `/api/subscriber/user/acme/import/${live}`,
      headers: auth(admin),
    });
    expect(running.json()).toMatchObject({ status: 'running', errorCount: 0, finishedAt: null });
  });

  it('settles group imports and bulk changes the same way, and only for their own tenant', async () => {
    const admin = await f.signIn('admin@acme.test');
    const groupsJob = await runningJob('groups', JOB_STALE_AFTER_SECONDS + 1);
    const bulkJob = await runningJob('userBulk', JOB_STALE_AFTER_SECONDS + 1);

    const globex = await f.signIn('admin@globex.test');
    const foreign = await f.app.inject({
      url: `/api/groups/globex/import/${groupsJob}`,
      headers: auth(globex),
    });
    expect(foreign.statusCode).toBe(404);
    const [untouched] = await queryRows<{ status: string }>(
      f.database.db,
      sql`select status from import_jobs where id = ${groupsJob}::uuid`,
    );
    expect(untouched.status).toBe('running');

    const groups = await f.app.inject({ url: `/api/groups/acme/import/${groupsJob}`, headers: auth(admin) });
    expect(groups.json()).toMatchObject({ status: 'failed', errors: [{ message: 'jobs.interrupted' }] });
    const bulk = await f.app.inject({
      url: `/api/subscriber/user/acme/bulk/${bulkJob}`,
      headers: auth(admin),
    });
    expect(bulk.json()).toMatchObject({ status: 'failed', processed: 5000, error: 'jobs.interrupted' });
  });

  it('does not let the stopped job write over the settled row if it comes back to life', async () => {
    const admin = await f.signIn('admin@acme.test');
    const id = await runningJob('users', JOB_STALE_AFTER_SECONDS + 1);
    await f.app.inject({ url: `/api/subscriber/user/acme/import/${id}`, headers: auth(admin) });
    const written = await f.database.tenantTx(f.acme.id, (tx) =>
      updateJob(tx, f.acme.id, id, { status: 'completed', processed: 10000 }),
    );
    expect(written).toBeUndefined();
    const res = await f.app.inject({ url: `/api/subscriber/user/acme/import/${id}`, headers: auth(admin) });
    expect(res.json()).toMatchObject({ status: 'failed', processed: 5000 });
  });

  it('never settles a job this server is still running, even one that cannot stamp its row', async () => {
    // An "all or nothing" import holds one long transaction: on the embedded database no stamp gets through.
    const admin = await f.signIn('admin@acme.test');
    const id = await runningJob('users', JOB_STALE_AFTER_SECONDS + 600);
    let finish = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const done = runJob(f.database, f.acme.id, id, () => gate);

    const poll = () => f.app.inject({ url: `/api/subscriber/user/acme/import/${id}`, headers: auth(admin) });
    expect((await poll()).json()).toMatchObject({ status: 'running', errorCount: 0 });

    // Once the work has ended without a word, the silent row is what it is: interrupted.
    finish();
    await done;
    expect((await poll()).json()).toMatchObject({
      status: 'failed',
      errors: [{ message: 'jobs.interrupted' }],
    });
  });

  it('stamps a running job alive while its work goes on, and stops when it ends', async () => {
    const id = await runningJob('groups', JOB_STALE_AFTER_SECONDS + 600);
    const secondsSilent = async () => {
      const [row] = await queryRows<{ silent: number }>(
        f.database.db,
        sql`select extract(epoch from now() - heartbeat_at)::float8 as silent from import_jobs where id = ${id}::uuid`,
      );
      return Number(row.silent);
    };
    let finish = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const done = runJob(f.database, f.acme.id, id, () => gate, 10);
    await expect.poll(secondsSilent, { timeout: 5000 }).toBeLessThan(5);
    finish();
    await done;
    await f.database.db.execute(
      sql`update import_jobs set heartbeat_at = now() - interval '1 hour' where id = ${id}::uuid`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await secondsSilent()).toBeGreaterThan(3000);
  });
});
