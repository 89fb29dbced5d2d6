import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let owner: string;
let auditor: string;
let helpdesk: string;
let billing: string;
let globexOwner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  helpdesk = await f.signIn('helpdesk@acme.test');
  billing = await f.signIn('billing@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
});

async function createUser(tenant: string, name: string, token = owner): Promise<string> {
  const res = await f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}`,
    headers: auth(token),
    payload: { username: `${name}@${tenant}.test`, firstname: name, lastname: 'Csv' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function createGroup(body: Record<string, unknown>) {
  const res = await f.app.inject({
    method: 'POST',
    url: '/api/groups/acme',
    headers: auth(owner),
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string };
}

async function addMembers(groupId: string, userIds: string[]) {
  const res = await f.app.inject({
    method: 'POST',
    url: `/api/groups/acme/${groupId}/members`,
    headers: auth(owner),
    payload: { userIds },
  });
  expect(res.statusCode).toBe(200);
}

const importCsv = (token: string, csv: string, mode = 'all', tenant = 'acme') =>
  f.app.inject({
    method: 'POST',
    url: `/api/groups/${tenant}/import?mode=${mode}`,
    headers: { ...auth(token), 'content-type': 'text/csv' },
    payload: csv,
  });

async function waitForJob(id: string, token = owner) {
  for (let i = 0; i < 400; i++) {
    const res = await f.app.inject({ url: `/api/groups/acme/import/${id}`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('import did not finish');
}

/** Imports a file as the owner and answers the finished job. */
async function runImport(csv: string, mode: 'all' | 'valid') {
  const res = await importCsv(owner, csv, mode);
  expect(res.statusCode).toBe(202);
  return waitForJob(res.json().id);
}

/** All acme groups whose name or description contains `q`, with members, by name. */
async function findGroups(q: string) {
  const res = await f.app.inject({
    url: `/api/groups/acme?q=${encodeURIComponent(q)}&limit=200`,
    headers: auth(owner),
  });
  return res.json() as {
    items: { id: string; name: string; description: string; memberCount: number }[];
    total: number;
  };
}

async function memberNames(groupId: string) {
  const res = await f.app.inject({
    url: `/api/groups/acme/${groupId}/members?limit=200`,
    headers: auth(owner),
  });
  return (res.json().items as { username: string }[]).map((m) => m.username);
}

async function importEvents(jobId: string) {
  return f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.objectId, jobId)));
}

describe('GET groups/{tenant}/export', () => {
  const url = '/api/groups/acme/export';

  it('requires a session (401)', async () => {
    const res = await f.app.inject({ url });
    expect(res.statusCode).toBe(401);
    expect(res.json().errcode).toBe(1);
  });

  it('answers 403 to a role without groups:view (billing admin)', async () => {
    const res = await f.app.inject({ url, headers: auth(billing) });
    expect(res.statusCode).toBe(403);
  });

  it("answers 404 for another tenant's groups", async () => {
    expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
  });

  it('rejects a bad sort with details (400)', async () => {
    const res = await f.app.inject({ url: `${url}?sort=secret`, headers: auth(owner) });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['query.sort']);
  });

  it('streams the search as CSV with members by username, quoting and neutralising formulas', async () => {
    const zed = await createUser('acme', 'exp.zed');
    const amy = await createUser('acme', 'exp.amy');
    const formula = await createGroup({ name: 'Exp =formula', description: '=cmd|" /C calc"!A0' });
    await addMembers(formula.id, [zed, amy]);
    await createGroup({ name: 'Exp plain', description: 'Comma, "quoted"\nand a line break' });
    await createGroup({ name: '+Exp plus' });
    await createGroup({ name: 'Not in the search' });

    // Created one after the other, so the creation order is the same on every collation.
    const res = await f.app.inject({ url: `${url}?q=exp&sort=createdAt`, headers: auth(auditor) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="groups-acme.csv"');
    expect(res.body).toBe(
      [
        'name,description,members',
        `Exp =formula,"'=cmd|"" /C calc""!A0",exp.amy@acme.test;exp.zed@acme.test`,
        'Exp plain,"Comma, ""quoted""\nand a line break",',
        `'+Exp plus,,`,
        '',
      ].join('\n'),
    );

    const desc = await f.app.inject({ url: `${url}?q=exp&sort=createdAt&order=desc`, headers: auth(owner) });
    expect(desc.body.split('\n').slice(1, 3)).toEqual([`'+Exp plus,,`, 'Exp plain,"Comma, ""quoted""']);
  });

  it('exports every group of a large tenant, across export batches', async () => {
    await runImport(
      ['name', ...Array.from({ length: 1100 }, (_, i) => `Bulk export ${String(i).padStart(4, '0')}`)].join(
        '\n',
      ),
      'all',
    );
    const res = await f.app.inject({ url: `${url}?q=bulk%20export`, headers: auth(owner) });
    const lines = res.body.trim().split('\n');
    expect(lines).toHaveLength(1101);
    expect(lines[1]).toBe('Bulk export 0000,,');
    expect(lines[1100]).toBe('Bulk export 1099,,');
  });
});

describe('POST groups/{tenant}/import', () => {
  it('requires a session (401)', async () => {
    const res = await importCsv('x'.repeat(43), 'name\nA');
    expect(res.statusCode).toBe(401);
  });

  it('answers 403 to roles without groups:create (auditor, helpdesk)', async () => {
    expect((await importCsv(auditor, 'name\nForbidden one')).statusCode).toBe(403);
    expect((await importCsv(helpdesk, 'name\nForbidden one')).statusCode).toBe(403);
    expect((await findGroups('Forbidden one')).total).toBe(0);
  });

  it("answers 404 for another tenant's groups", async () => {
    expect((await importCsv(globexOwner, 'name\nForeign one')).statusCode).toBe(404);
    expect((await findGroups('Foreign one')).total).toBe(0);
  });

  it('rejects an empty file and an unknown mode (400)', async () => {
    const empty = await importCsv(owner, '  \n ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([{ path: 'body', message: 'validation.csvEmpty' }]);
    const mode = await importCsv(owner, 'name\nA', 'some');
    expect(mode.statusCode).toBe(400);
    expect(mode.json().details.map((d: { path: string }) => d.path)).toEqual(['query.mode']);
  });

  it('creates groups with members and records one import event (happy path)', async () => {
    await createUser('acme', 'imp.ann');
    await createUser('acme', 'imp.bob');
    const csv = [
      'Name,Description,Members',
      'Imp Red,The red team,imp.ann@acme.test; IMP.BOB@acme.test',
      'Imp Blue,,',
      '"Imp Green","Multi, with comma",imp.ann@acme.test;imp.ann@acme.test',
    ].join('\r\n');
    const started = await importCsv(owner, csv, 'all');
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'running', mode: 'all' });
    const job = await waitForJob(started.json().id);
    expect(job).toMatchObject({
      status: 'completed',
      total: 3,
      processed: 3,
      created: 3,
      updated: 0,
      errorCount: 0,
      errors: [],
    });
    const found = await findGroups('Imp ');
    expect(found.items.map((g) => [g.name, g.description, g.memberCount])).toEqual([
      ['Imp Blue', '', 0],
      ['Imp Green', 'Multi, with comma', 1],
      ['Imp Red', 'The red team', 2],
    ]);
    const red = found.items.find((g) => g.name === 'Imp Red')!;
    expect(await memberNames(red.id)).toEqual(['imp.ann@acme.test', 'imp.bob@acme.test']);

    const events = await importEvents(job.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'group.import',
      objectType: 'import',
      actorName: 'admin@acme.test',
    });
    expect(events[0].after).toMatchObject({
      mode: 'all',
      total: 3,
      created: 3,
      updated: 0,
      membersAdded: 3,
      groups: ['Imp Red', 'Imp Blue', 'Imp Green'],
    });
  });

  it('updates an existing group: sets the description, adds members, keeps the others', async () => {
    const kept = await createUser('acme', 'upd.kept');
    const added = await createUser('acme', 'upd.added');
    const group = await createGroup({ name: 'Upd Existing', description: 'Old text' });
    await addMembers(group.id, [kept]);
    const untouched = await createGroup({ name: 'Upd Untouched', description: 'Stays' });

    const job = await runImport(
      [
        'name,description,members',
        'upd existing,New text,upd.added@acme.test;upd.kept@acme.test',
        'UPD UNTOUCHED,,',
        'Upd Fresh,,',
      ].join('\n'),
      'all',
    );
    expect(job).toMatchObject({ status: 'completed', total: 3, created: 1, updated: 1, errorCount: 0 });
    const found = await findGroups('Upd ');
    expect(found.items.map((g) => [g.name, g.description, g.memberCount])).toEqual([
      ['Upd Existing', 'New text', 2],
      ['Upd Fresh', '', 0],
      ['Upd Untouched', 'Stays', 0],
    ]);
    expect(await memberNames(group.id)).toEqual(['upd.added@acme.test', 'upd.kept@acme.test']);
    expect(found.items.find((g) => g.id === untouched.id)?.name).toBe('Upd Untouched');
    expect(added).toBeTruthy();

    // The same file again changes nothing.
    const again = await runImport(
      ['name,description,members', 'upd existing,New text,upd.added@acme.test;upd.kept@acme.test'].join('\n'),
      'valid',
    );
    expect(again).toMatchObject({ status: 'completed', created: 0, updated: 0, errorCount: 0 });
  });

  it('previews an import (dry run) with what it would create and update, writing and logging nothing', async () => {
    await createUser('acme', 'dry.member');
    const group = await createGroup({ name: 'Dry Existing', description: 'Before' });
    const csv = [
      'Group name,Beschreibung,Mitglieder',
      'dry existing,After,dry.member@acme.test',
      'Dry Fresh,,',
      'Dry Unknown,,nobody@acme.test',
    ].join('\n');
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/groups/acme/import?mode=valid&dryRun=true',
      headers: { ...auth(owner), 'content-type': 'text/csv' },
      payload: csv,
    });
    const preview = await waitForJob(res.json().id);
    expect(preview).toMatchObject({
      status: 'completed',
      dryRun: true,
      total: 3,
      created: 1,
      updated: 1,
      errorCount: 1,
      errors: [{ row: 4, field: 'members', message: 'validation.unknownMember' }],
    });
    const found = await findGroups('Dry ');
    expect(found.items.map((g) => [g.name, g.description, g.memberCount])).toEqual([
      ['Dry Existing', 'Before', 0],
    ]);
    expect(await importEvents(preview.id)).toEqual([]);
    // The import itself does what the preview said.
    expect(await runImport(csv, 'valid')).toMatchObject({
      dryRun: false,
      created: 1,
      updated: 1,
      errorCount: 1,
    });
    expect(await memberNames(group.id)).toEqual(['dry.member@acme.test']);
  });

  it('all-or-nothing: a bad row saves nothing and every bad line is listed', async () => {
    await createUser('acme', 'bad.known');
    await createUser('globex', 'bad.foreign', globexOwner);
    const before = await createGroup({ name: 'Aon Existing', description: 'Before' });
    const csv = [
      'name,description,members',
      'Aon One,,bad.known@acme.test',
      'Aon Existing,After,bad.known@acme.test',
      ',No name,',
      'Aon One,Twice,',
      `Aon Long,${'x'.repeat(501)},`,
      'Aon Two,,bad.known@acme.test;nobody@acme.test',
      'Aon Three,,bad.foreign@globex.test',
      'Aon Four,,admin@acme.test',
      `${'n'.repeat(101)},,`,
    ].join('\n');
    const job = await runImport(csv, 'all');
    expect(job).toMatchObject({
      status: 'completed',
      total: 9,
      processed: 9,
      created: 0,
      updated: 0,
      errorCount: 7,
    });
    expect(job.errors).toEqual([
      { row: 4, field: 'name', message: 'validation.required' },
      { row: 5, field: 'name', message: 'validation.groupDuplicateInFile' },
      { row: 6, field: 'description', message: 'validation.tooLong' },
      { row: 7, field: 'members', message: 'validation.unknownMember' },
      { row: 8, field: 'members', message: 'validation.unknownMember' },
      { row: 9, field: 'members', message: 'validation.unknownMember' },
      { row: 10, field: 'name', message: 'validation.tooLong' },
    ]);
    expect((await findGroups('Aon ')).items.map((g) => [g.name, g.description, g.memberCount])).toEqual([
      ['Aon Existing', 'Before', 0],
    ]);
    expect(await memberNames(before.id)).toEqual([]);
    expect(await importEvents(job.id)).toEqual([]);
  });

  it('valid rows only: saves the good rows and reports the bad ones on their lines', async () => {
    await createUser('acme', 'val.known');
    const job = await runImport(
      [
        'name,members',
        'Val Good,val.known@acme.test',
        'Val Bad,val.known@acme.test;val.unknown@acme.test',
        '',
        'Val Also good,',
      ].join('\n'),
      'valid',
    );
    expect(job).toMatchObject({ status: 'completed', total: 3, processed: 3, created: 2, errorCount: 1 });
    expect(job.errors).toEqual([{ row: 3, field: 'members', message: 'validation.unknownMember' }]);
    expect((await findGroups('Val ')).items.map((g) => [g.name, g.memberCount])).toEqual([
      ['Val Also good', 0],
      ['Val Good', 1],
    ]);
    const events = await importEvents(job.id);
    expect(events.map((e) => e.after)).toEqual([expect.objectContaining({ created: 2, errors: 1 })]);
  });

  it('rejects a file without a name column', async () => {
    const job = await runImport('title,members\nx,y', 'valid');
    expect(job).toMatchObject({
      status: 'completed',
      created: 0,
      errors: [{ row: 1, field: 'header', message: 'validation.csvHeaderGroups' }],
    });
  });

  it('reports a file the parser cannot read as failed', async () => {
    const job = await runImport('name,description\n"Unclosed,quote\nNext,row', 'valid');
    expect(job).toMatchObject({
      status: 'failed',
      errors: [{ row: 0, field: 'file', message: 'validation.csvUnreadable' }],
    });
  });

  it('imports 2 000 rows with members', async () => {
    const members = [await createUser('acme', 'big.one'), await createUser('acme', 'big.two')];
    expect(members).toHaveLength(2);
    const rows = Array.from(
      { length: 2000 },
      (_, i) =>
        `Big ${String(i).padStart(4, '0')},Row ${i},${i % 2 ? 'big.one@acme.test;big.two@acme.test' : 'big.one@acme.test'}`,
    );
    const job = await runImport(['name,description,members', ...rows].join('\n'), 'valid');
    expect(job).toMatchObject({
      status: 'completed',
      total: 2000,
      processed: 2000,
      created: 2000,
      errorCount: 0,
    });
    const page = await f.app.inject({
      url: '/api/groups/acme?q=big%20&sort=memberCount&order=desc&limit=1',
      headers: auth(owner),
    });
    expect(page.json()).toMatchObject({ total: 2000, items: [{ memberCount: 2 }] });
    const one = await findGroups('Big 1999');
    expect(one.items).toMatchObject([{ name: 'Big 1999', description: 'Row 1999', memberCount: 2 }]);
    // Batches of 500 rows, each with its event in its own transaction.
    const events = await importEvents(job.id);
    expect(events.map((e) => (e.after as { created: number }).created)).toEqual([500, 500, 500, 500]);
  });
});

describe('GET groups/{tenant}/import/{id}', () => {
  it('covers 401, 403, 404 (other tenant, unknown id, a users import) and 400', async () => {
    const started = await importCsv(owner, 'name\nJob probe', 'all');
    const id = started.json().id as string;
    await waitForJob(id);
    const url = `/api/groups/acme/import/${id}`;

    expect((await f.app.inject({ url })).statusCode).toBe(401);
    expect((await f.app.inject({ url, headers: auth(auditor) })).statusCode).toBe(403);
    expect((await f.app.inject({ url, headers: auth(globexOwner) })).statusCode).toBe(404);
    const asGlobex = await f.app.inject({
      url: `/api/groups/globex/import/${id}`,
      headers: auth(globexOwner),
    });
    expect(asGlobex.statusCode).toBe(404);
    const unknown = await f.app.inject({
      url: `/api/groups/acme/import/${UNKNOWN_ID}`,
      headers: auth(owner),
    });
    expect(unknown.statusCode).toBe(404);
    const users = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/import?mode=valid',
      headers: { ...auth(owner), 'content-type': 'text/csv' },
      payload: 'username,firstname,lastname\njob.probe@acme.test,Job,Probe',
    });
    expect(users.statusCode).toBe(202);
    const usersJob = await f.app.inject({
      url: `/api/groups/acme/import/${users.json().id}`,
      headers: auth(owner),
    });
    expect(usersJob.statusCode).toBe(404);
    for (let i = 0; i < 100; i++) {
      const poll = await f.app.inject({
        url: `/api/subscriber/user/acme/import/${users.json().id}`,
        headers: auth(owner),
      });
      if (poll.json().status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bad = await f.app.inject({ url: '/api/groups/acme/import/not-a-uuid', headers: auth(owner) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['params.id']);

    const ok = await f.app.inject({ url, headers: auth(owner) });
    expect(ok.json()).toMatchObject({
      id,
      status: 'completed',
      mode: 'all',
      total: 1,
      created: 1,
      updated: 0,
    });
  });
});
