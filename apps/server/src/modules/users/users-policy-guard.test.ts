import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { adminEvents } from '../../db/schema';
import { pinMembershipScenario, policyApi } from '../policies/policies.test-kit';

/**
 * A user's groups decide which policies apply to them, so every way the users area changes memberships (or
 * deletes users) runs the policy-test guard: a change that would break a pinned test is refused with 409
 * `policy_tests_failed`, naming the test, and changes nothing.
 */
const f = useFixture();
const api = policyApi(f);

let owner: string;
let guarded: string;
let inside: string;
let outside: string;
let free: string;
let blockedTest: string;
let allowedTest: string;

beforeAll(async () => {
  ({ owner, guarded, inside, outside, free, blockedTest, allowedTest } = await pinMembershipScenario(f));
});

/** Groups of a user by id, null when the user is gone (read directly, not through the code under test). */
async function groupsOf(userId: string): Promise<string[] | null> {
  const [row] = await queryRows<{ groups: string[] }>(
    f.database.db,
    sql`select coalesce(array(select ug.group_id::text from user_groups ug
          where ug.tenant_id = users.tenant_id and ug.user_id = users.id), '{}') as groups
        from users where users.id = ${userId}`,
  );
  return row ? [...row.groups].sort() : null;
}

/** How many user events acme has: a refused change adds none. */
async function userEvents() {
  const rows = await f.database.db
    .select({ id: adminEvents.id })
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), like(adminEvents.action, 'user.%')));
  return rows.length;
}

/** Asserts a 409 refusal that names exactly these tests. */
function expectRefused(res: { statusCode: number; body: string; json: () => unknown }, tests: string[]) {
  expect(res.statusCode, res.body).toBe(409);
  const body = res.json() as { code: string; failures: { testId: string; name: string }[] };
  expect(body.code).toBe('policy_tests_failed');
  expect(body.failures.map((failure) => failure.testId).sort()).toEqual([...tests].sort());
}

/** Polls a bulk job until it is no longer running. */
async function waitForJob(id: string) {
  for (let i = 0; i < 400; i++) {
    const res = await api.call('GET', `/api/subscriber/user/acme/bulk/${id}`, owner);
    expect(res.statusCode).toBe(200);
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('bulk job did not finish');
}

describe('membership changes of the users area run the policy-test guard', () => {
  it('PUT subscriber/user: refuses taking a pinned user out of the group, saving nothing', async () => {
    const events = await userEvents();
    const res = await api.call('PUT', `/api/subscriber/user/acme/${inside}`, owner, {
      firstname: 'Renamed',
      groups: [],
    });
    expectRefused(res, [blockedTest]);
    expect(res.json().failures[0]).toMatchObject({
      name: 'Inside is blocked',
      expect: 'block',
      actual: 'allow',
    });
    expect(await groupsOf(inside)).toEqual([guarded]);
    const user = (await api.call('GET', `/api/subscriber/user/acme/${inside}`, owner)).json();
    expect(user.firstname).toBe('pinned-inside');
    expect(await userEvents()).toBe(events);
  });

  it('PUT subscriber/user: refuses putting a user pinned as allowed into the group', async () => {
    const res = await api.call('PUT', `/api/subscriber/user/acme/${outside}`, owner, { groups: [guarded] });
    expectRefused(res, [allowedTest]);
    expect(await groupsOf(outside)).toEqual([]);
  });

  it('DELETE subscriber/user: refuses deleting a pinned user, deleting none of the list', async () => {
    const events = await userEvents();
    const res = await api.call('DELETE', '/api/subscriber/user/acme', owner, { ids: [free, inside] });
    expectRefused(res, [blockedTest]);
    expect(await groupsOf(inside)).toEqual([guarded]);
    expect(await groupsOf(free)).toEqual([]);
    expect(await userEvents()).toBe(events);
  });

  it('bulk changes of a list of ids: refused with 409, no job and nothing changed', async () => {
    const events = await userEvents();
    const remove = await api.call('POST', '/api/subscriber/user/acme/bulk', owner, {
      ids: [inside],
      action: 'removeFromGroup',
      groupId: guarded,
    });
    expectRefused(remove, [blockedTest]);
    const add = await api.call('POST', '/api/subscriber/user/acme/bulk', owner, {
      ids: [outside, free],
      action: 'addToGroup',
      groupId: guarded,
    });
    expectRefused(add, [allowedTest]);
    const del = await api.call('POST', '/api/subscriber/user/acme/bulk-delete', owner, { ids: [inside] });
    expectRefused(del, [blockedTest]);
    expect([await groupsOf(inside), await groupsOf(outside), await groupsOf(free)]).toEqual([
      [guarded],
      [],
      [],
    ]);
    expect(await userEvents()).toBe(events);
    const [jobs] = await queryRows<{ n: number | string }>(
      f.database.db,
      sql`select count(*) as n from import_jobs where tenant_id = ${f.acme.id} and kind = 'userBulk'`,
    );
    expect(Number(jobs.n)).toBe(0);
  });

  it('bulk changes of a search: the job fails naming the broken tests, and its batch saved nothing', async () => {
    for (const [path, body, test] of [
      [
        'bulk',
        { match: { q: 'pinned-inside' }, action: 'removeFromGroup', groupId: guarded },
        'Inside is blocked',
      ],
      [
        'bulk',
        { match: { q: 'pinned-outside' }, action: 'addToGroup', groupId: guarded },
        'Outside is allowed',
      ],
      ['bulk-delete', { match: { q: 'pinned-inside' } }, 'Inside is blocked'],
    ] as const) {
      const res = await api.call('POST', `/api/subscriber/user/acme/${path}`, owner, body);
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitForJob(res.json().id);
      expect(job).toMatchObject({
        status: 'failed',
        matched: 1,
        processed: 0,
        changed: 0,
        error: 'jobs.policyTestsFailed',
        brokenTests: [test],
      });
    }
    expect([await groupsOf(inside), await groupsOf(outside)]).toEqual([[guarded], []]);
    // The failed job keeps its one admin event, as any failed bulk job does.
    const failed = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.tenantId, f.acme.id), like(adminEvents.action, 'user.bulk.%')));
    expect(failed.map((event) => (event.after as { status: string }).status)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('changes that break no test go through, for pinned users too', async () => {
    const [engineering] = f.acme.groupIds;
    // The pinned user joins a group no policy is assigned to; the unpinned one joins and leaves the guarded one.
    const put = await api.call('PUT', `/api/subscriber/user/acme/${inside}`, owner, {
      groups: [guarded, engineering],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await groupsOf(inside)).toEqual([guarded, engineering].sort());
    const add = await api.call('POST', '/api/subscriber/user/acme/bulk', owner, {
      ids: [free],
      action: 'addToGroup',
      groupId: guarded,
    });
    expect(add.statusCode, add.body).toBe(202);
    expect(add.json()).toMatchObject({ status: 'completed', changed: 1, brokenTests: [] });
    const job = await waitForJob(
      (
        await api.call('POST', '/api/subscriber/user/acme/bulk', owner, {
          match: { q: 'unpinned' },
          action: 'removeFromGroup',
          groupId: guarded,
        })
      ).json().id,
    );
    expect(job).toMatchObject({ status: 'completed', changed: 1, error: null, brokenTests: [] });
    const del = await api.call('DELETE', '/api/subscriber/user/acme', owner, { ids: [free] });
    expect(del.json()).toEqual({ deleted: 1 });
    expect(await groupsOf(free)).toBeNull();
    const events = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, 'user.delete')));
    expect(events.map((event) => event.objectId)).toEqual([free]);
    // Once the test is gone, the refused change is accepted.
    await api.call('DELETE', '/api/policy/tests/acme', owner, { ids: [blockedTest] });
    const out = await api.call('PUT', `/api/subscriber/user/acme/${inside}`, owner, { groups: [] });
    expect(out.statusCode, out.body).toBe(200);
  });
});
