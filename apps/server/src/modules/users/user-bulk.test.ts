import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

async function makeUsers(token: string, prefix: string, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(token),
      payload: { username: `${prefix}${i}@acme.test`, firstname: prefix, lastname: `N${i}` },
    });
    ids.push(res.json().id);
  }
  return ids;
}

async function waitForJob(token: string, id: string, tenant = 'acme') {
  for (let i = 0; i < 100; i++) {
    const res = await f.app.inject({
      url: `/api/subscriber/user/${tenant}/import/${id}`,
      headers: auth(token),
    });
    if (res.json().status !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('import did not finish');
}

const importCsv = (token: string, csv: string, mode = 'all', tenant = 'acme') =>
  f.app.inject({
    method: 'POST',
    url: `/api/subscriber/user/${tenant}/import?mode=${mode}`,
    headers: { ...auth(token), 'content-type': 'text/csv' },
    payload: csv,
  });

describe('POST subscriber/user/{tenant}/bulk', () => {
  it('covers 401, 403, other tenant, 400 and changes only the own tenant users', async () => {
    const admin = await f.signIn('admin@acme.test');
    const ids = await makeUsers(admin, 'bulk', 3);
    const url = '/api/subscriber/user/acme/bulk';
    const body = { ids, action: 'enablePrivateAccess' };
    expect((await f.app.inject({ method: 'POST', url, payload: body })).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect(
      (await f.app.inject({ method: 'POST', url, headers: auth(auditor), payload: body })).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ method: 'POST', url, headers: auth(globex), payload: body })).statusCode,
    ).toBe(404);
    const cross = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/globex/bulk',
      headers: auth(globex),
      payload: body,
    });
    expect(cross.json()).toMatchObject({ status: 'completed', matched: 0, changed: 0 });

    const bad = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ids, action: 'addToGroup' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'body.groupId', message: 'validation.required' }]);
    const foreignGroup = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ids, action: 'addToGroup', groupId: f.globex.groupIds[0] },
    });
    expect(foreignGroup.json().details).toEqual([
      { path: 'body.groupId', message: 'validation.unknownGroup' },
    ]);

    const enabled = await f.app.inject({ method: 'POST', url, headers: auth(admin), payload: body });
    expect(enabled.statusCode).toBe(202);
    expect(enabled.json()).toMatchObject({ status: 'completed', matched: 3, processed: 3, changed: 3 });
    const added = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ids, action: 'addToGroup', groupId: f.acme.groupIds[0] },
    });
    expect(added.json()).toMatchObject({ matched: 3, changed: 3 });
    const again = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ids, action: 'addToGroup', groupId: f.acme.groupIds[0] },
    });
    expect(again.json()).toMatchObject({ matched: 3, changed: 0 });
    const user = (
      await f.app.inject({ url: `/api/subscriber/user/acme/${ids[0]}`, headers: auth(admin) })
    ).json();
    expect(user).toMatchObject({ isprvaccess: true, groups: [f.acme.groupIds[0]] });
    const removed = await f.app.inject({
      method: 'POST',
      url,
      headers: auth(admin),
      payload: { ids: ids.slice(0, 1), action: 'removeFromGroup', groupId: f.acme.groupIds[0] },
    });
    expect(removed.json()).toMatchObject({ matched: 1, changed: 1 });
  });
});

describe('GET subscriber/user/{tenant}/export', () => {
  it('covers 401, 403, other tenant and streams CSV that spreadsheets cannot execute', async () => {
    const admin = await f.signIn('admin@acme.test');
    await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme',
      headers: auth(admin),
      payload: {
        username: 'csv.quote@acme.test',
        firstname: '=HYPERLINK("x")',
        lastname: 'Comma, "Quoted"',
        groups: [f.acme.groupIds[1]],
      },
    });
    expect((await f.app.inject({ url: '/api/subscriber/user/acme/export' })).statusCode).toBe(401);
    const billing = await f.signIn('billing@acme.test');
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme/export', headers: auth(billing) })).statusCode,
    ).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme/export', headers: auth(globex) })).statusCode,
    ).toBe(404);
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme/export?sort=secret', headers: auth(admin) }))
        .statusCode,
    ).toBe(400);

    const res = await f.app.inject({
      url: '/api/subscriber/user/acme/export?q=csv.quote',
      headers: auth(admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'username,firstname,lastname,email,groups,isprvaccess,issiauser,isxdrenabled,suci,connstatus',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `csv.quote@acme.test,"'=HYPERLINK(""x"")","Comma, ""Quoted""",csv.quote@acme.test,Sales,false,false,false,,never`,
    );
  });
});

describe('POST subscriber/user/{tenant}/import', () => {
  const header = 'username,firstname,lastname,email,groups,isprvaccess,issiauser,isxdrenabled,suci';

  it('covers 401, 403, other tenant and an empty file', async () => {
    expect((await importCsv('x'.repeat(43), header)).statusCode).toBe(401);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await importCsv(auditor, header)).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await importCsv(globex, header)).statusCode).toBe(404);
    const admin = await f.signIn('admin@acme.test');
    const empty = await importCsv(admin, '  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([{ path: 'body', message: 'validation.csvEmpty' }]);
    const badMode = await importCsv(admin, header, 'some');
    expect(badMode.statusCode).toBe(400);
  });

  it('all-or-nothing: reports every bad row by line and creates nothing', async () => {
    const admin = await f.signIn('admin@acme.test');
    const csv = [
      header,
      'imp.ok1@acme.test,Ok,One,,Engineering;sales,yes,no,0,',
      'not-an-email,Bad,Mail,,,,,,',
      'imp.ok2@acme.test,Ok,Two,,Nope,,,,',
      'imp.ok1@acme.test,Dup,Licate,,,,,,',
      'admin@globex.test,Taken,Name,,,,,,',
      'imp.ok3@acme.test,Ok,Three,,,maybe,,,',
    ].join('\n');
    const res = await importCsv(admin, csv, 'all');
    expect(res.statusCode).toBe(202);
    const job = await waitForJob(admin, res.json().id);
    expect(job).toMatchObject({ status: 'completed', total: 6, processed: 6, created: 0, errorCount: 5 });
    expect(job.errors).toEqual([
      { row: 3, field: 'username', message: 'validation.email' },
      { row: 4, field: 'groups', message: 'validation.unknownGroup' },
      { row: 5, field: 'username', message: 'validation.duplicateInFile' },
      { row: 6, field: 'username', message: 'validation.usernameTaken' },
      { row: 7, field: 'isprvaccess', message: 'validation.boolean' },
    ]);
    const list = await f.app.inject({ url: '/api/subscriber/user/acme?q=imp.ok', headers: auth(admin) });
    expect(list.json().total).toBe(0);
  });

  it('valid rows only: creates the good rows with groups and flags, reports the rest; job of another tenant is 404', async () => {
    const admin = await f.signIn('admin@acme.test');
    const rows = Array.from(
      { length: 1200 },
      (_, i) => `imp.v${i}@acme.test,Val,Row${i},,${i % 2 ? 'Sales' : ''},${i % 3 === 0},false,false,`,
    );
    rows.splice(10, 0, 'broken,,,,,,,,');
    const res = await importCsv(admin, [header, ...rows].join('\r\n'), 'valid');
    const job = await waitForJob(admin, res.json().id);
    expect(job).toMatchObject({
      status: 'completed',
      total: 1201,
      processed: 1201,
      created: 1200,
      errorCount: 3,
    });
    expect(job.errors.map((e: { row: number }) => e.row)).toEqual([12, 12, 12]);
    const list = await f.app.inject({
      url: '/api/subscriber/user/acme?q=imp.v1@&limit=5',
      headers: auth(admin),
    });
    expect(list.json().items[0]).toMatchObject({
      username: 'imp.v1@acme.test',
      groups: [f.acme.groupIds[1]],
      isprvaccess: false,
    });
    const globex = await f.signIn('admin@globex.test');
    expect(
      (await f.app.inject({ url: `/api/subscriber/user/globex/import/${job.id}`, headers: auth(globex) }))
        .statusCode,
    ).toBe(404);
  });

  it('reads the column names people write (First name, E-Mail, Vorname…)', async () => {
    const admin = await f.signIn('admin@acme.test');
    const german = await importCsv(
      admin,
      'Benutzername,Vorname,Nachname,E-Mail,Gruppen,Internet access\nalias.one@acme.test,Ana,One,ana.one@mail.test,Sales,yes',
      'all',
    );
    expect(await waitForJob(admin, german.json().id)).toMatchObject({
      status: 'completed',
      created: 1,
      errorCount: 0,
    });
    const english = await importCsv(
      admin,
      'First name,Last_name,User Name,Email Address\nBo,Two,alias.two@acme.test,bo@mail.test',
      'all',
    );
    expect(await waitForJob(admin, english.json().id)).toMatchObject({ created: 1, errorCount: 0 });
    const list = await f.app.inject({
      url: '/api/subscriber/user/acme?q=alias.&limit=5',
      headers: auth(admin),
    });
    expect(list.json().items).toEqual([
      expect.objectContaining({
        username: 'alias.one@acme.test',
        firstname: 'Ana',
        email: 'ana.one@mail.test',
        groups: [f.acme.groupIds[1]],
        issiauser: true,
      }),
      expect.objectContaining({ username: 'alias.two@acme.test', firstname: 'Bo', lastname: 'Two' }),
    ]);
  });

  it('previews an import (dry run): counts and row errors, nothing written and nothing logged', async () => {
    const admin = await f.signIn('admin@acme.test');
    const csv = [
      header,
      'dry.one@acme.test,Dry,One,,Sales,false,false,false,',
      'dry.two@acme.test,Dry,Two,,,,,,',
      'bad,,,,,,,,',
    ].join('\n');
    const preview = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/import?mode=valid&dryRun=true',
      headers: { ...auth(admin), 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(preview.statusCode).toBe(202);
    expect(preview.json().dryRun).toBe(true);
    const job = await waitForJob(admin, preview.json().id);
    expect(job).toMatchObject({ status: 'completed', dryRun: true, total: 3, created: 2, errorCount: 3 });
    const list = await f.app.inject({
      url: '/api/subscriber/user/acme?q=dry.&limit=5',
      headers: auth(admin),
    });
    expect(list.json().total).toBe(0);
    const events = await f.app.inject({
      url: '/api/events/admin/acme?action=user.import',
      headers: auth(admin),
    });
    expect(events.json().items.map((e: { objectId: string }) => e.objectId)).not.toContain(job.id);
    // The real import then does what the preview said.
    const real = await importCsv(admin, csv, 'valid');
    expect(await waitForJob(admin, real.json().id)).toMatchObject({
      dryRun: false,
      created: 2,
      errorCount: 3,
    });
    expect(
      (await f.app.inject({ url: '/api/subscriber/user/acme?q=dry.&limit=5', headers: auth(admin) })).json()
        .total,
    ).toBe(2);
    const bad = await f.app.inject({
      method: 'POST',
      url: '/api/subscriber/user/acme/import?dryRun=maybe',
      headers: { ...auth(admin), 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('query.dryRun');
  });

  it('rejects a file without the required columns', async () => {
    const admin = await f.signIn('admin@acme.test');
    const res = await importCsv(admin, 'name,mail\nx,y', 'valid');
    const job = await waitForJob(admin, res.json().id);
    expect(job).toMatchObject({
      status: 'completed',
      created: 0,
      errors: [{ row: 1, field: 'header', message: 'validation.csvHeader' }],
    });
  });
});
