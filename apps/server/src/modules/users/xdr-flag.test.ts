import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';

/**
 * The users' XDR flag without XDR in the tenant (contracts `FEATURE_PARTS.xdr`): the XDR add-on is not sold yet,
 * so no tenant has the `xdr` feature, and the server refuses what would turn users' XDR on or off.
 */
const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let admin: string;

beforeAll(async () => {
  admin = await f.signIn('admin@acme.test');
});

/** A user of acme as the database has it (read as the owner, not through the code under test). */
async function userRow(username: string) {
  const [row] = await queryRows<{ id: string; firstname: string; isxdrenabled: boolean }>(
    f.database.db,
    sql`select id::text, firstname, isxdrenabled from users where username = ${username}`,
  );
  return row;
}

/** How many bulk or import jobs and user events acme has: a refused call adds none. */
async function traces() {
  const [row] = await queryRows<{ jobs: number; events: number }>(
    f.database.db,
    sql`select
          (select count(*)::int from import_jobs where tenant_id = ${f.acme.id}::uuid) as jobs,
          (select count(*)::int from admin_events where tenant_id = ${f.acme.id}::uuid
             and (action like 'user.%')) as events`,
  );
  return row;
}

const createUser = (payload: object) =>
  f.app.inject({ method: 'POST', url: '/api/subscriber/user/acme', headers: auth(admin), payload });

const updateUser = (id: string, payload: object) =>
  f.app.inject({ method: 'PUT', url: `/api/subscriber/user/acme/${id}`, headers: auth(admin), payload });

const bulk = (payload: object) =>
  f.app.inject({ method: 'POST', url: '/api/subscriber/user/acme/bulk', headers: auth(admin), payload });

const importCsv = (csv: string, query = 'mode=valid') =>
  f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/acme/import?${query}`,
    headers: { ...auth(admin), 'content-type': 'text/csv' },
    payload: csv,
  });

function expectFeatureDisabled(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({ errcode: 26, code: 'feature_disabled' });
}

describe('users: XDR while the tenant has no XDR', () => {
  it('the tenant has no xdr feature (the add-on is not offered)', async () => {
    const flags = await f.app.inject({ url: '/api/tenant/acme/flags', headers: auth(admin) });
    expect(flags.statusCode).toBe(200);
    expect(flags.json().features).not.toContain('xdr');
  });

  it('refuses to create a user with XDR on and adds nobody; XDR off is created as before', async () => {
    const before = await traces();
    const refused = await createUser({
      username: 'xdr.new@acme.test',
      firstname: 'Xdr',
      lastname: 'New',
      isxdrenabled: true,
    });
    expectFeatureDisabled(refused);
    expect(await userRow('xdr.new@acme.test')).toBeUndefined();
    expect(await traces()).toEqual(before);

    const created = await createUser({
      username: 'xdr.new@acme.test',
      firstname: 'Xdr',
      lastname: 'New',
      isxdrenabled: false,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ isxdrenabled: false });
    expect(await userRow('xdr.new@acme.test')).toMatchObject({ isxdrenabled: false });
  });

  it('refuses an update that turns XDR on and saves none of it; XDR off still saves', async () => {
    const id = (
      await createUser({ username: 'xdr.edit@acme.test', firstname: 'Before', lastname: 'Edit' })
    ).json().id as string;
    const before = await traces();
    const refused = await updateUser(id, { firstname: 'After', isxdrenabled: true });
    expectFeatureDisabled(refused);
    expect(await userRow('xdr.edit@acme.test')).toMatchObject({ firstname: 'Before', isxdrenabled: false });
    expect(await traces()).toEqual(before);

    const saved = await updateUser(id, { firstname: 'After', isxdrenabled: false });
    expect(saved.statusCode).toBe(200);
    expect(await userRow('xdr.edit@acme.test')).toMatchObject({ firstname: 'After', isxdrenabled: false });
  });

  it('lets a user who has XDR from before be edited with it unchanged', async () => {
    const id = (
      await createUser({ username: 'xdr.legacy@acme.test', firstname: 'Legacy', lastname: 'User' })
    ).json().id as string;
    // XDR set before the tenant lost it (or by the seed): written directly.
    await queryRows(f.database.db, sql`update users set isxdrenabled = true where id = ${id}::uuid`);
    const saved = await updateUser(id, { firstname: 'Still', lastname: 'User', isxdrenabled: true });
    expect(saved.statusCode).toBe(200);
    expect(await userRow('xdr.legacy@acme.test')).toMatchObject({ firstname: 'Still', isxdrenabled: true });
  });

  it('refuses the XDR bulk actions, for ids and for a search, and changes nothing', async () => {
    const id = (
      await createUser({ username: 'xdr.bulk@acme.test', firstname: 'Xdr', lastname: 'Bulk' })
    ).json().id as string;
    const before = await traces();
    for (const action of ['enableXdr', 'disableXdr']) {
      expectFeatureDisabled(await bulk({ ids: [id], action }));
      expectFeatureDisabled(await bulk({ match: { q: 'xdr.bulk' }, action }));
    }
    expect(await userRow('xdr.bulk@acme.test')).toMatchObject({ isxdrenabled: false });
    expect(await traces()).toEqual(before);

    // The other flags' actions are not behind XDR.
    const other = await bulk({ ids: [id], action: 'enablePrivateAccess' });
    expect(other.statusCode).toBe(202);
    expect(other.json()).toMatchObject({ status: 'completed', changed: 1 });
  });

  it('refuses to undo an XDR bulk change made before, and leaves it undoable', async () => {
    const id = (
      await createUser({ username: 'xdr.undo@acme.test', firstname: 'Xdr', lastname: 'Undo' })
    ).json().id as string;
    await queryRows(f.database.db, sql`update users set isxdrenabled = true where id = ${id}::uuid`);
    // A completed "enable XDR" of this user, as the server wrote it while the tenant still had XDR.
    const [job] = await queryRows<{ id: string }>(
      f.database.db,
      sql`insert into import_jobs (tenant_id, kind, mode, status, total, processed, updated, input, changed_ids,
            finished_at)
          values (${f.acme.id}::uuid, 'userBulk', 'all', 'completed', 1, 1, 1,
            ${JSON.stringify({ action: 'enableXdr', groupId: null, match: null })}::jsonb,
            array[${id}::uuid], now())
          returning id::text`,
    );
    const before = await traces();
    const refused = await f.app.inject({
      method: 'POST',
      url: `/api/subscriber/user/acme/bulk/${job.id}/undo`,
      headers: auth(admin),
    });
    expectFeatureDisabled(refused);
    expect(await userRow('xdr.undo@acme.test')).toMatchObject({ isxdrenabled: true });
    expect(await traces()).toEqual(before);
    const kept = await f.app.inject({
      url: `/api/subscriber/user/acme/bulk/${job.id}`,
      headers: auth(admin),
    });
    expect(kept.json()).toMatchObject({ undoable: true, undoneBy: null });
  });

  it('refuses a CSV import (and its preview) with a row that turns XDR on, and starts no job', async () => {
    const header = 'username,firstname,lastname,isxdrenabled';
    const csv = [header, 'xdr.imp1@acme.test,Imp,One,false', 'xdr.imp2@acme.test,Imp,Two,yes'].join('\n');
    const before = await traces();
    expectFeatureDisabled(await importCsv(csv));
    expectFeatureDisabled(await importCsv(csv, 'mode=all'));
    expectFeatureDisabled(await importCsv(csv, 'mode=valid&dryRun=true'));
    // Under another name people give the column, too.
    expectFeatureDisabled(await importCsv('Username,First name,Last name,XDR\nxdr.imp3@acme.test,I,T,1'));
    expect(await traces()).toEqual(before);
    for (const username of ['xdr.imp1@acme.test', 'xdr.imp2@acme.test', 'xdr.imp3@acme.test']) {
      expect(await userRow(username)).toBeUndefined();
    }

    // XDR off in every row (or no XDR column) imports as before.
    const allowed = await importCsv([header, 'xdr.imp1@acme.test,Imp,One,false'].join('\n'), 'mode=all');
    expect(allowed.statusCode).toBe(202);
    for (let i = 0; i < 400; i++) {
      const job = await f.app.inject({
        url: `/api/subscriber/user/acme/import/${allowed.json().id}`,
        headers: auth(admin),
      });
      if (job.json().status !== 'running') {
        expect(job.json()).toMatchObject({ status: 'completed', created: 1, errorCount: 0 });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await userRow('xdr.imp1@acme.test')).toMatchObject({ isxdrenabled: false });
  });

  it('still counts XDR users on the dashboard (the web hides the tile)', async () => {
    const summary = await f.app.inject({ url: '/api/dashboard/acme/summary', headers: auth(admin) });
    expect(summary.statusCode).toBe(200);
    expect(typeof summary.json().xdrUsers).toBe('number');
  });
});
