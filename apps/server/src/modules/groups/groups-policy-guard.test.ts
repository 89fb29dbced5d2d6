import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { adminEvents } from '../../db/schema';
import { pinMembershipScenario, policyApi } from '../policies/policies.test-kit';

/**
 * Members get the policies of their groups, so every way the groups area changes memberships runs the
 * policy-test guard: a change that would break a pinned test is refused (409 `policy_tests_failed` naming the
 * test; a CSV import fails naming it) and changes nothing.
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

/** Member ids of a group, sorted; null when the group is gone (read directly, not through the code under test). */
async function membersOf(groupId: string): Promise<string[] | null> {
  const [group] = await queryRows<{ id: string }>(
    f.database.db,
    sql`select id from groups where id = ${groupId}`,
  );
  if (!group) return null;
  const rows = await queryRows<{ user_id: string }>(
    f.database.db,
    sql`select user_id from user_groups where group_id = ${groupId}`,
  );
  return rows.map((row) => String(row.user_id)).sort();
}

/** Names of acme's groups starting with `prefix`, sorted. */
async function groupNames(prefix: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    f.database.db,
    sql`select name from groups where tenant_id = ${f.acme.id} and name like ${`${prefix}%`}`,
  );
  return rows.map((row) => row.name).sort();
}

/** How many group events acme has: a refused change adds none. */
async function groupEvents() {
  const rows = await f.database.db
    .select({ id: adminEvents.id })
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), like(adminEvents.action, 'group.%')));
  return rows.length;
}

/** Asserts a 409 refusal that names exactly these tests. */
function expectRefused(res: { statusCode: number; body: string; json: () => unknown }, tests: string[]) {
  expect(res.statusCode, res.body).toBe(409);
  const body = res.json() as { code: string; failures: { testId: string }[] };
  expect(body.code).toBe('policy_tests_failed');
  expect(body.failures.map((failure) => failure.testId).sort()).toEqual([...tests].sort());
}

/** Imports a groups CSV as the owner and answers the finished job. */
async function runImport(csv: string, mode: 'all' | 'valid') {
  const started = await f.app.inject({
    method: 'POST',
    url: `/api/groups/acme/import?mode=${mode}`,
    headers: { 'x-auth-token': owner, 'content-type': 'text/csv' },
    payload: csv,
  });
  expect(started.statusCode, started.body).toBe(202);
  for (let i = 0; i < 400; i++) {
    const res = await api.call('GET', `/api/groups/acme/import/${started.json().id}`, owner);
    expect(res.statusCode).toBe(200);
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('import did not finish');
}

/** The row errors of an import refused by the guard for the test "Outside is allowed". */
const REFUSED = [
  { row: 0, field: 'job', message: 'jobs.policyTestsFailed' },
  { row: 0, field: 'Outside is allowed', message: 'jobs.policyTestBroken' },
];

describe('membership changes of the groups area run the policy-test guard', () => {
  it('DELETE groups: refuses deleting a group pinned members depend on, deleting none of the list', async () => {
    const spare = (await api.call('POST', '/api/groups/acme', owner, { name: 'Spare' })).json().id;
    const events = await groupEvents();
    const res = await api.call('DELETE', '/api/groups/acme', owner, { ids: [spare, guarded] });
    expectRefused(res, [blockedTest]);
    expect(res.json().failures[0]).toMatchObject({
      name: 'Inside is blocked',
      expect: 'block',
      actual: 'allow',
    });
    expect(await membersOf(guarded)).toEqual([inside]);
    expect(await membersOf(spare)).toEqual([]);
    expect(await groupEvents()).toBe(events);
    // A group no test depends on goes.
    expect((await api.call('DELETE', '/api/groups/acme', owner, { ids: [spare] })).json()).toEqual({
      deleted: 1,
    });
    expect(await groupEvents()).toBe(events + 1);
  });

  it('DELETE and POST groups/{id}/members: refuse what breaks a test, allow what does not', async () => {
    const url = `/api/groups/acme/${guarded}/members`;
    const events = await groupEvents();
    expectRefused(await api.call('DELETE', url, owner, { userIds: [inside] }), [blockedTest]);
    expectRefused(await api.call('POST', url, owner, { userIds: [free, outside] }), [allowedTest]);
    expect(await membersOf(guarded)).toEqual([inside]);
    expect(await groupEvents()).toBe(events);

    const add = await api.call('POST', url, owner, { userIds: [free] });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json()).toEqual({ added: 1 });
    const remove = await api.call('DELETE', url, owner, { userIds: [free] });
    expect(remove.json()).toEqual({ removed: 1 });
    expect(await membersOf(guarded)).toEqual([inside]);
    expect(await groupEvents()).toBe(events + 2);
  });

  it('CSV import, all or nothing: a file that would break a test fails naming it and saves nothing', async () => {
    const events = await groupEvents();
    const job = await runImport(
      ['name,members', 'Csv fresh,unpinned@acme.test', 'guarded,pinned-outside@acme.test'].join('\n'),
      'all',
    );
    expect(job).toMatchObject({ status: 'failed', total: 2, created: 0, updated: 0, errors: REFUSED });
    expect(await groupNames('Csv ')).toEqual([]);
    expect(await membersOf(guarded)).toEqual([inside]);
    expect(await groupEvents()).toBe(events);
  });

  it('CSV import, valid rows: the batches before the refused one stay, that batch saves nothing', async () => {
    const events = await groupEvents();
    // 500 rows fill the first batch; the second holds the row that would break the test.
    const fresh = Array.from({ length: 500 }, (_, i) => `Wave ${String(i).padStart(3, '0')},`);
    const job = await runImport(
      [
        'name,members',
        ...fresh,
        'Wave bad,nobody@acme.test',
        'Wave late,unpinned@acme.test',
        'Guarded,pinned-outside@acme.test',
      ].join('\n'),
      'valid',
    );
    expect(job).toMatchObject({ status: 'failed', total: 503, created: 500, errorCount: 3 });
    // Why it stopped, then the skipped row's error as before.
    expect(job.errors).toEqual([
      ...REFUSED,
      { row: 502, field: 'members', message: 'validation.unknownMember' },
    ]);
    const names = await groupNames('Wave ');
    expect(names).toHaveLength(500);
    expect(names).not.toContain('Wave late');
    expect(await membersOf(guarded)).toEqual([inside]);
    expect(await groupEvents()).toBe(events + 1);
  });

  it('CSV import: adding members that break no test goes through', async () => {
    const job = await runImport('name,members\nguarded,unpinned@acme.test\n', 'all');
    expect(job).toMatchObject({ status: 'completed', updated: 1, errors: [] });
    expect(await membersOf(guarded)).toEqual([inside, free].sort());
  });

  it('copying a group with its members passes the guard: the copy is in no policy group', async () => {
    const res = await api.call('POST', `/api/groups/acme/${guarded}/copy`, owner, {
      name: 'Guarded copy',
      withMembers: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await membersOf(res.json().id)).toEqual([inside, free].sort());
    const tests = (await api.call('GET', '/api/policy/tests/acme', owner)).json() as { passing: boolean }[];
    expect(tests.map((test) => test.passing)).toEqual([true, true]);
  });
});
