import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox, useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { adminEvents } from '../../db/schema';
import { auth, policyApi, rule, UNKNOWN_ID } from '../policies/policies.test-kit';
import { expireApprovals } from './block-page.service';

const f = useFixture();
const api = policyApi(f);

let owner: string;
let endUserId: string;
let otherUserId: string;
let client: string;
let ruleId: string;
let urlRuleId: string;
let globexRuleId: string;

const page = (path: string, query: Record<string, string>) =>
  f.app.inject({ method: 'GET', url: `/api/blockaccess/${path}?${new URLSearchParams(query)}` });

const ask = (type: string, id: string, body: Record<string, unknown>, remoteAddress?: string) =>
  f.app.inject({
    method: 'POST',
    url: `/api/blockaccess/${type}/${id}/request`,
    payload: body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

const requests = (token: string | undefined, tenant = 'acme', query = '') =>
  f.app.inject({
    method: 'GET',
    url: `/api/policy/access-requests/${tenant}${query}`,
    headers: token ? auth(token) : {},
  });

const decide = (
  token: string | undefined,
  id: string,
  verb: 'approve' | 'decline',
  body: unknown,
  tenant = 'acme',
) =>
  f.app.inject({
    method: 'POST',
    url: `/api/policy/access-requests/${tenant}/${id}/${verb}`,
    headers: token ? auth(token) : {},
    payload: body as object,
  });

const eventsOf = (action: string) =>
  f.database.db
    .select()
    .from(adminEvents)
    .where(and(eq(adminEvents.tenantId, f.acme.id), eq(adminEvents.action, action)));

const simulate = (userId: string, destination: string) =>
  api.simulate(owner, { request: { userId, destination } });

/** Asks for `host` as the end user's device would, and answers the new request's id. */
async function pendingRequest(host: string) {
  const sent = await ask('domain', ruleId, {
    tenant: f.acme.id,
    host,
    client,
    reason: 'Needed for a customer',
  });
  expect(sent.statusCode, sent.body).toBe(201);
  const list = (await requests(owner, 'acme', '?status=pending&limit=100')).json();
  return list.items.find((r: { host: string }) => r.host === host).id as string;
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const [user] = await queryRows<{ id: string }>(
    f.database.db,
    sql`select id from users where username = 'enduser@acme.test'`,
  );
  endUserId = String(user.id);
  otherUserId = await api.createUser(owner, 'other');
  // The end user's laptop, enrolled with a WireGuard key: its tunnel address is what the gateway's redirect names.
  const key = await f.app.inject({
    method: 'POST',
    url: '/api/enrolment/acme/keys',
    headers: auth(owner),
    payload: { name: 'Laptops' },
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/enrol',
    payload: {
      token: key.json().token,
      device: { name: 'Laptop', os: 'linux' },
      username: 'enduser@acme.test',
      publicKey: generateKeyPair().publicKey,
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  expect(enrolled.json().userId).toBe(endUserId);
  client = enrolled.json().wireguard.address.replace('/32', '');
  const id = await api.create(owner, {
    type: 'other',
    name: 'Internal secret policy name',
    rules: [
      rule({ name: 'Secret rule text', url: 'blocked.example' }),
      rule({ name: 'Secret url rule', type: 'url', url: 'files.example/private' }),
    ],
  });
  const rules = (await api.get(owner, id)).rules;
  ruleId = rules[0].id;
  urlRuleId = rules[1].id;
  const globex = await f.signIn('admin@globex.test');
  const gid = await api.create(
    globex,
    {
      type: 'other',
      name: 'Globex policy',
      rules: [rule({ name: 'Globex rule', url: 'globex-only.example' })],
    },
    'globex',
  );
  globexRuleId = (await api.get(globex, gid, 'globex')).rules[0].id;
});

describe('the public block page', () => {
  it("answers the tenant's branding, the host and the kind of rule, never its text, without a session", async () => {
    const res = await page(`domain/${ruleId}`, {
      tenant: f.acme.id,
      host: 'Blocked.Example',
      url: 'http://blocked.example/a?b=1',
      client,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      generic: false,
      type: 'domain',
      branding: { displayName: 'ACME', primaryColor: '#1c5d99' },
      host: 'blocked.example',
      url: 'http://blocked.example/a?b=1',
      ruleId,
      ruleKind: 'dmn',
      layer: 'dns',
      canRequest: true,
    });
    expect(body.reference).toMatch(/^BP-[0-9A-Z]{8}$/);
    expect(Date.parse(body.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body).not.toContain('Secret');
    expect(res.body).not.toContain('Internal secret policy name');
  });

  it('finds the blocking rule itself for a DNS block (site) and names the HTTP layer for a URL rule', async () => {
    const site = (await page('site', { tenant: f.acme.id, host: 'www.blocked.example', client })).json();
    expect(site).toMatchObject({ generic: false, ruleId, ruleKind: 'dmn', canRequest: true });
    const url = (await page(`url/${urlRuleId}`, { tenant: f.acme.id, host: 'files.example' })).json();
    expect(url).toMatchObject({ generic: false, ruleKind: 'url', layer: 'http' });
  });

  it("answers the same generic page for an unknown type, a malformed or unknown tenant and another tenant's rule", async () => {
    const answers = [
      await page(`nonsense/${ruleId}`, { tenant: f.acme.id, host: 'blocked.example' }),
      await page(`domain/${ruleId}`, { tenant: 'not-a-uuid', host: 'blocked.example' }),
      await page(`domain/${ruleId}`, { tenant: UNKNOWN_ID, host: 'blocked.example' }),
      await page(`domain/${ruleId}`, { host: 'blocked.example' }),
      await page(`domain/${globexRuleId}`, { tenant: f.acme.id, host: 'globex-only.example' }),
      await page(`domain/${ruleId}`, { tenant: f.globex.id, host: 'blocked.example' }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      const { at: _at, reference: _reference, ...rest } = res.json();
      expect(rest).toEqual({
        generic: true,
        type: null,
        branding: null,
        host: null,
        url: null,
        ruleId: null,
        ruleKind: null,
        layer: null,
        category: null,
        canRequest: false,
      });
      expect(res.body).not.toMatch(/globex|acme/i);
    }
  });
});

describe('requesting access', () => {
  it('refuses bad input with field details (400)', async () => {
    const res = await ask('domain', ruleId, { tenant: 'nope', host: '', reason: 'x'.repeat(501) });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.host', 'body.reason', 'body.tenant']);
    const empty = await ask('domain', ruleId, { tenant: f.acme.id, host: 'blocked.example', reason: '   ' });
    expect(empty.json().details).toEqual([{ path: 'body.reason', message: 'validation.required' }]);
  });

  it("answers 404 for an unknown tenant or another tenant's rule", async () => {
    const body = { host: 'blocked.example', reason: 'Please' };
    expect((await ask('domain', ruleId, { ...body, tenant: UNKNOWN_ID })).statusCode).toBe(404);
    expect((await ask('domain', globexRuleId, { ...body, tenant: f.acme.id })).statusCode).toBe(404);
    expect((await ask('nonsense', ruleId, { ...body, tenant: f.acme.id })).statusCode).toBe(404);
  });

  it('stores a pending request for the user behind the tunnel address, audited, once per host', async () => {
    const res = await ask('domain', ruleId, {
      tenant: f.acme.id,
      host: 'blocked.example',
      url: 'http://blocked.example/',
      client,
      reference: 'BP-ABCDEFGH',
      reason: 'I need the supplier portal',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ reference: 'BP-ABCDEFGH', status: 'pending' });
    const list = (await requests(owner)).json();
    expect(list.items[0]).toMatchObject({
      reference: 'BP-ABCDEFGH',
      status: 'pending',
      host: 'blocked.example',
      client,
      user: { id: endUserId },
      ruleKind: 'dmn',
      reason: 'I need the supplier portal',
    });
    const [event] = await eventsOf('policy.accessRequest.create');
    expect(event).toMatchObject({ objectType: 'accessRequest', objectName: 'blocked.example' });
    const again = await ask('domain', ruleId, {
      tenant: f.acme.id,
      host: 'blocked.example',
      client,
      reason: 'Again',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ errcode: 36, code: 'access_request_pending' });
  });

  it('answers 429 with Retry-After past the limit of one tunnel address', async () => {
    const from = '100.64.250.9';
    for (let i = 0; i < 5; i++) {
      const res = await ask('domain', ruleId, {
        tenant: f.acme.id,
        host: `limit${i}.example`,
        client: from,
        reason: 'Work',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const limited = await ask('domain', ruleId, {
      tenant: f.acme.id,
      host: 'limit5.example',
      client: from,
      reason: 'Work',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    const other = await ask('domain', ruleId, {
      tenant: f.acme.id,
      host: 'limit5.example',
      client: '100.64.250.10',
      reason: 'Work',
    });
    expect(other.statusCode).toBe(201);
  });
});

describe('the administrators’ access requests', () => {
  it('requires a session (401)', async () => {
    expect((await requests(undefined)).statusCode).toBe(401);
    expect((await requests(undefined, 'acme', '/count')).statusCode).toBe(401);
    expect((await decide(undefined, UNKNOWN_ID, 'approve', { minutes: 60 })).statusCode).toBe(401);
    expect((await decide(undefined, UNKNOWN_ID, 'decline', {})).statusCode).toBe(401);
  });

  it("answers 404 for another tenant's list and request", async () => {
    const globex = await f.signIn('admin@globex.test');
    expect((await requests(globex)).statusCode).toBe(404);
    const id = (await requests(owner)).json().items[0].id;
    expect((await decide(globex, id, 'approve', { minutes: 60 }, 'globex')).statusCode).toBe(404);
    expect((await decide(globex, id, 'decline', {}, 'globex')).statusCode).toBe(404);
    expect((await decide(owner, UNKNOWN_ID, 'decline', {})).statusCode).toBe(404);
  });

  it('answers 403 to roles without the policy permissions', async () => {
    const billing = await f.signIn('billing@acme.test');
    expect((await requests(billing)).statusCode).toBe(403);
    expect((await requests(billing, 'acme', '/count')).statusCode).toBe(403);
    const auditor = await f.signIn('auditor@acme.test');
    expect((await requests(auditor)).statusCode).toBe(200);
    const id = (await requests(owner)).json().items[0].id;
    expect((await decide(auditor, id, 'approve', { minutes: 60 })).statusCode).toBe(403);
    expect((await decide(auditor, id, 'decline', {})).statusCode).toBe(403);
  });

  it('refuses bad input with field details (400)', async () => {
    const status = await requests(owner, 'acme', '?status=maybe');
    expect(status.statusCode).toBe(400);
    expect(status.json().details[0].path).toBe('query.status');
    const id = (await requests(owner)).json().items[0].id;
    for (const minutes of [5, 10_081, 1.5]) {
      const res = await decide(owner, id, 'approve', { minutes });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: 'body.minutes', message: 'blockPage.validation.minutes' }]);
    }
    const note = await decide(owner, id, 'decline', { note: 'x'.repeat(501) });
    expect(note.json().details[0].path).toBe('body.note');
  });

  it('pages and filters on the server and counts the pending ones', async () => {
    const count = (await requests(owner, 'acme', '/count')).json();
    const all = (await requests(owner, 'acme', '?status=pending&limit=100')).json();
    expect(count.pending).toBe(all.total);
    const first = (await requests(owner, 'acme', '?status=pending&limit=2')).json();
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(all.total);
    const next = (await requests(owner, 'acme', '?status=pending&limit=2&offset=2')).json();
    expect(next.items[0].id).toBe(all.items[2].id);
    expect((await requests(owner, 'acme', '?status=declined')).json().total).toBe(0);
  });

  it('approves: the host is allowed for that user only, until the approval expires', async () => {
    expect((await simulate(endUserId, 'blocked.example')).decision).toBe('block');
    const id = (await requests(owner, 'acme', '?status=pending&limit=100'))
      .json()
      .items.find((r: { host: string }) => r.host === 'blocked.example').id;
    const res = await decide(owner, id, 'approve', { minutes: 60 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', decidedBy: 'admin@acme.test' });
    expect(Date.parse(res.json().expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
    // Enforced from the next decision on: the simulator is what the gateways compile.
    expect((await simulate(endUserId, 'blocked.example')).decision).toBe('allow');
    expect((await simulate(endUserId, 'http://blocked.example/some/path')).decision).toBe('allow');
    expect((await simulate(otherUserId, 'blocked.example')).decision).toBe('block');
    const [event] = await eventsOf('policy.accessRequest.approve');
    expect(event).toMatchObject({ objectId: id, actorName: 'admin@acme.test' });
    const [mail] = await readOutbox(f.database, 'enduser@acme.test');
    expect(mail.subject).toContain('approved');
    expect(mail.text).toContain('blocked.example');
    const twice = await decide(owner, id, 'approve', { minutes: 60 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ errcode: 37, code: 'access_request_decided' });

    // The sweep expires it: blocked again, audited.
    await f.database.db.execute(
      sql`update access_requests set expires_at = now() - interval '1 second' where id = ${id}`,
    );
    expect(await expireApprovals(f.database)).toBe(1);
    expect((await simulate(endUserId, 'blocked.example')).decision).toBe('block');
    expect((await requests(owner, 'acme', '?status=expired')).json().items[0].id).toBe(id);
    expect(await eventsOf('policy.accessRequest.expire')).toHaveLength(1);
  });

  it('declines with a note mailed to the user, audited', async () => {
    const id = await pendingRequest('declined.example');
    const res = await decide(owner, id, 'decline', { note: 'Use the intranet copy' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'declined', note: 'Use the intranet copy' });
    const [event] = await eventsOf('policy.accessRequest.decline');
    expect(event).toMatchObject({ objectId: id, objectName: 'declined.example' });
    const [mail] = await readOutbox(f.database, 'enduser@acme.test');
    expect(mail.subject).toContain('declined');
    expect(mail.text).toContain('Use the intranet copy');
    expect((await decide(owner, id, 'approve', { minutes: 60 })).statusCode).toBe(409);
  });

  it('cannot approve a request nobody was behind (409)', async () => {
    const id = (await requests(owner, 'acme', '?status=pending&limit=100'))
      .json()
      .items.find((r: { client: string | null }) => r.client === '100.64.250.10').id;
    const res = await decide(owner, id, 'approve', { minutes: 15 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errcode: 38, code: 'access_request_no_identity' });
  });

  it("answers 429 once the tenant's window is full, from any address", async () => {
    await f.database.db.execute(
      sql`insert into access_requests (tenant_id, reference, block_type, rule_id, host, source_key, reason)
          select ${f.acme.id}, 'BP-FILL' || g, 'domain', ${ruleId}, 'fill' || g || '.example', 'fill' || g, 'x'
          from generate_series(1, 100) g`,
    );
    const res = await ask('domain', ruleId, {
      tenant: f.acme.id,
      host: 'one-more.example',
      client: '100.64.251.1',
      reason: 'Work',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'rate_limited' });
  });
});
