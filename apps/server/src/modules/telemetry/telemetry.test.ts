import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { eventStoreOf, maintainTelemetry, writeBatch } from './telemetry.service';

const f = useFixture();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let owner: string;
let billing: string;
let globex: string;
let gateway: { id: string; credential: string };
let globexGateway: { id: string; credential: string };
let user: { id: string; name: string };
let device: { id: string };

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { 'x-auth-token': token } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const post = (credential: string, lines: unknown[]) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/events',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/x-ndjson' },
    payload: lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  });

async function enrolledGateway(tenant: string, token: string, name: string) {
  const created = await call('POST', `/cybernodes/${tenant}`, token, {
    name,
    kind: 'cybernode',
    region: 'Lab',
  });
  expect(created.statusCode, created.body).toBe(201);
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: `${name.toLowerCase().replace(/\W/g, '-')}.test`,
      version: '1.0.0',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const connection = (id: string, at: string, action: string, extra: Record<string, unknown> = {}) => ({
  id,
  at,
  kind: 'connection',
  data: { action, deviceId: device.id, userId: user.id, peer: `${'k'.repeat(43)}=`, ...extra },
});
const decision = (id: string, destination: string, verdict: 'allow' | 'block', at = ago(60_000)) => ({
  id,
  at,
  kind: 'decision',
  data: {
    layer: 'dns',
    decision: verdict,
    destination,
    userId: user.id,
    deviceId: device.id,
    category: verdict === 'block' ? 'gambling' : 'business',
    country: 'DE',
    ruleName: verdict === 'block' ? 'Block gambling' : null,
  },
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  gateway = await enrolledGateway('acme', owner, 'Telemetry PoP');
  globexGateway = await enrolledGateway('globex', globex, 'Globex PoP');
  const created = await call('POST', '/subscriber/user/acme', owner, {
    username: 'roamer@acme.test',
    firstname: 'Ro',
    lastname: 'Amer',
  });
  expect(created.statusCode, created.body).toBe(201);
  user = { id: created.json().id, name: 'roamer@acme.test' };
  const link = await call('POST', `/enrolment/acme/users/${user.id}/link`, owner, {});
  const enrolled = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name: 'Roaming laptop', os: 'linux' },
    publicKey: generateKeyPair().publicKey,
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  device = { id: enrolled.json().deviceId };
});

describe('POST /api/gw/events into the event store', () => {
  it('stores each event once, with its rollups counting only what was new', async () => {
    const batch = [
      connection('c1', ago(3 * HOUR), 'connected'),
      connection('c2', ago(HOUR), 'disconnected', { durationMs: 2 * HOUR, bytesIn: 1000, bytesOut: 500 }),
      decision('d1', 'casino.example', 'block'),
      decision('d2', 'intranet.example', 'allow'),
      decision('d3', 'casino.example', 'block'),
      { id: 'v1', at: ago(HOUR), kind: 'device', data: { action: 'key_rotated', deviceId: device.id } },
      { id: 'm1', at: ago(HOUR), kind: 'metric', data: { throughputBps: 1200, activePeers: 3 } },
    ];
    const first = await post(gateway.credential, batch);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ accepted: 7, duplicates: 0, rejected: 0 });
    expect((await post(gateway.credential, batch)).json()).toEqual({
      accepted: 0,
      duplicates: 7,
      rejected: 0,
    });

    const minutes = await f.database.tenantTx(f.acme.id, (tx) =>
      queryRows<{ decision: string; events: string }>(
        tx,
        sql`select decision, sum(events)::text as events from telemetry_minute
            where kind = 'decision' group by decision order by decision`,
      ),
    );
    expect(minutes).toEqual([
      { decision: 'allow', events: '1' },
      { decision: 'block', events: '2' },
    ]);
    const top = await f.database.tenantTx(f.acme.id, (tx) =>
      queryRows<{ value: string; events: string }>(
        tx,
        sql`select value, sum(events)::text as events from telemetry_hour_top
            where dimension = 'destination' and decision = 'block' group by value`,
      ),
    );
    expect(top).toEqual([{ value: 'casino.example', events: '2' }]);
  });

  it('refuses a batch with a line that does not fit its kind, naming it, and stores none of it', async () => {
    const bad = await post(gateway.credential, [
      decision('x1', 'ok.example', 'allow'),
      { id: 'x2', at: ago(0), kind: 'connection', data: { action: 'teleported' } },
      '{not json',
    ]);
    expect(bad.statusCode).toBe(400);
    // Every line that does not fit is named at once: the unknown action of line 2, the broken JSON of line 3.
    expect(bad.json().details).toEqual([
      { path: 'body.2.data.action', message: 'validation.invalid' },
      { path: 'body.3', message: 'validation.invalid' },
    ]);
    const wrongData = await post(gateway.credential, [
      decision('x1', 'ok.example', 'allow'),
      { id: 'x2', at: ago(0), kind: 'connection', data: { action: 'teleported' } },
    ]);
    expect(wrongData.statusCode).toBe(400);
    expect(wrongData.json().details).toEqual([{ path: 'body.2.data.action', message: 'validation.invalid' }]);
    const [stored] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from telemetry_events where event_id in ('x1', 'x2')`,
    );
    expect(stored.n).toBe(0);
  });

  it('keeps nothing dated before the retention, and refuses a time no clock could mean', async () => {
    const answer = await post(gateway.credential, [
      decision('old', 'old.example', 'allow', ago(40 * DAY)),
      decision('week', 'week.example', 'allow', ago(7 * DAY)),
    ]);
    expect(answer.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 1 });
    // Ahead of the clock by more than 5 minutes, before 2000, or no time at all: the batch is refused.
    const bad = await post(gateway.credential, [
      decision('t1', 'soon.example', 'allow', new Date(Date.now() + HOUR).toISOString()),
      decision('t2', 'epoch.example', 'allow', '1970-01-01T00:00:00.000Z'),
      decision('t3', 'far.example', 'allow', '3000-01-01T00:00:00.000Z'),
      decision('t4', 'never.example', 'allow', 'infinity'),
      decision('t5', 'fine.example', 'allow'),
    ]);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual([
      'body.1.at',
      'body.2.at',
      'body.3.at',
      'body.4.at',
    ]);
    const [stored] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from telemetry_events where event_id in ('t1', 't2', 't3', 't4', 't5')`,
    );
    expect(stored.n).toBe(0);
  });

  it('refuses a line holding a NUL or another control character, naming it, before storing anything', async () => {
    const deviceEvent = (id: string, detail: string) => ({
      id,
      at: ago(60_000),
      kind: 'device',
      data: { action: 'posture_changed', deviceId: device.id, detail },
    });
    // Alone, the NUL line used to reach the database and fail there (500).
    const alone = await post(gateway.credential, [
      JSON.stringify(decision('n1', 'fine-nul.example', 'allow')),
      JSON.stringify(deviceEvent('n2', 'disk encryption \u0000off')),
    ]);
    expect(alone.statusCode, alone.body).toBe(400);
    expect(alone.json().details).toEqual([{ path: 'body.2.data.detail', message: 'validation.nulByte' }]);
    const lines = [
      JSON.stringify(decision('n1', 'fine-nul.example', 'allow')),
      // `\u0000` in a JSON string decodes to NUL, which PostgreSQL text cannot hold.
      JSON.stringify(deviceEvent('n2', 'disk encryption \u0000off')),
      JSON.stringify(decision('n3', 'bell\u0007.example', 'allow')),
      // A raw control character in the line itself.
      `${JSON.stringify(decision('n4', 'raw.example', 'allow'))}\u0001`,
    ];
    const answer = await post(gateway.credential, lines);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().details).toEqual([
      { path: 'body.2.data.detail', message: 'validation.nulByte' },
      { path: 'body.3.data.destination', message: 'validation.controlCharacter' },
      { path: 'body.4', message: 'validation.controlCharacter' },
    ]);
    const [stored] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from telemetry_events where event_id like 'n_'`,
    );
    expect(stored.n).toBe(0);
  });

  it('needs the gateway credential', async () => {
    expect((await post('gw_nope', [decision('n1', 'a.example', 'allow')])).statusCode).toBe(401);
  });
});

describe('/events/connections and /events/devices', () => {
  it('answers 401, 403, 404 and 400 in that order', async () => {
    expect((await call('GET', '/events/connections/acme')).statusCode).toBe(401);
    expect((await call('GET', '/events/connections/acme', billing)).statusCode).toBe(403);
    expect((await call('GET', '/events/devices/acme', billing)).statusCode).toBe(403);
    expect((await call('GET', '/events/connections/acme', globex)).statusCode).toBe(404);
    expect((await call('GET', '/events/connections/acme/export', globex)).statusCode).toBe(404);
    const reversed = await call('GET', `/events/connections/acme?from=${ago(0)}&to=${ago(DAY)}`, owner);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().details).toEqual([{ path: 'query.to', message: 'validation.invalid' }]);
    const badAction = await call('GET', '/events/devices/acme?action=exploded', owner);
    expect(badAction.statusCode).toBe(400);
    expect(badAction.json().details.map((d: { path: string }) => d.path)).toEqual(['query.action']);
    expect((await call('GET', '/events/connections/acme?cursor=bm9wZQ', owner)).statusCode).toBe(400);
  });

  it('lists connections newest first with the gateway, user and device named, filtered and paged', async () => {
    const listed = await call('GET', '/events/connections/acme?limit=1', owner);
    expect(listed.statusCode, listed.body).toBe(200);
    const first = listed.json();
    expect(first.items).toEqual([
      {
        id: `${gateway.id}.c2`,
        at: expect.any(String),
        source: 'gateway',
        gateway: { id: gateway.id, name: 'Telemetry PoP' },
        user: { id: user.id, name: user.name },
        device: { id: device.id, name: 'Roaming laptop' },
        action: 'disconnected',
        peer: `${'k'.repeat(43)}=`,
        endpoint: null,
        durationMs: 2 * HOUR,
        bytesIn: 1000,
        bytesOut: 500,
      },
    ]);
    expect(first.total).toBe(2);
    const second = (
      await call('GET', `/events/connections/acme?limit=1&cursor=${first.nextCursor}`, owner)
    ).json();
    expect(second.items.map((e: { action: string }) => e.action)).toEqual(['connected']);
    expect(second.nextCursor).toBeNull();
    const connected = (await call('GET', '/events/connections/acme?action=connected', owner)).json();
    expect(connected.items.map((e: { id: string }) => e.id)).toEqual([`${gateway.id}.c1`]);
    const recent = (
      await call('GET', `/events/connections/acme?from=${encodeURIComponent(ago(2 * HOUR))}`, owner)
    ).json();
    expect(recent.items.map((e: { id: string }) => e.id)).toEqual([`${gateway.id}.c2`]);
    const oldestFirst = (await call('GET', '/events/connections/acme?order=asc', owner)).json();
    expect(oldestFirst.items.map((e: { action: string }) => e.action)).toEqual(['connected', 'disconnected']);
  });

  it("never shows another tenant's events", async () => {
    await post(globexGateway.credential, [
      { id: 'g1', at: ago(HOUR), kind: 'connection', data: { action: 'tunnel_up' } },
    ]);
    const acme = (await call('GET', `/events/connections/acme?gatewayId=${globexGateway.id}`, owner)).json();
    expect(acme.items).toEqual([]);
    const own = (await call('GET', '/events/connections/globex', globex)).json();
    expect(
      own.items.map((e: { action: string; gateway: { name: string } }) => [e.action, e.gateway.name]),
    ).toEqual([['tunnel_up', 'Globex PoP']]);
  });

  it('lists device events and exports the filtered events as CSV', async () => {
    const events = (await call('GET', `/events/devices/acme?deviceId=${device.id}`, owner)).json();
    // The console's own record of the enrolment (no gateway: enrolment/device-events.ts), then the gateway's.
    expect(events.items).toMatchObject([
      { action: 'enrolled', device: { name: 'Roaming laptop' }, gateway: null, user: { id: user.id } },
      { action: 'key_rotated', device: { name: 'Roaming laptop' }, gateway: { id: gateway.id } },
    ]);
    const csv = await call('GET', '/events/connections/acme/export?action=disconnected', owner);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('at,action,gateway,user,device,peer,endpoint,durationMs,bytesIn,bytesOut');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',disconnected,Telemetry PoP,roamer@acme.test,Roaming laptop,');
  });
});

describe('the dashboards: overview, top lists, private access, decisions and live', () => {
  const range = (fromAgo: number, toAgo = -60_000) =>
    `from=${encodeURIComponent(ago(fromAgo))}&to=${encodeURIComponent(ago(toAgo))}`;

  it('answers 401, 403, 404 and 400 in that order', async () => {
    expect((await call('GET', `/telemetry/acme/overview?${range(HOUR)}`)).statusCode).toBe(401);
    const helpdeskless = await call('GET', `/telemetry/acme/overview?${range(HOUR)}`, billing);
    expect(helpdeskless.statusCode).toBe(200);
    const enduser = await f.signIn('enduser@acme.test');
    expect((await call('GET', `/telemetry/acme/top?dimension=app&${range(HOUR)}`, enduser)).statusCode).toBe(
      403,
    );
    expect((await call('GET', `/telemetry/acme/overview?${range(HOUR)}`, globex)).statusCode).toBe(404);
    expect((await call('GET', `/events/decisions/acme`, globex)).statusCode).toBe(404);
    const reversed = await call('GET', `/telemetry/acme/overview?from=${ago(0)}&to=${ago(HOUR)}`, owner);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().details).toEqual([{ path: 'query.to', message: 'validation.invalid' }]);
    const noRange = await call('GET', '/telemetry/acme/private-access', owner);
    expect(
      noRange
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.from', 'query.to']);
    const badDimension = await call('GET', `/telemetry/acme/top?dimension=mood&${range(HOUR)}`, owner);
    expect(badDimension.json().details.map((d: { path: string }) => d.path)).toEqual(['query.dimension']);
  });

  it('counts the last hour per minute: decisions by verdict and layer, every minute present', async () => {
    const overview = (await call('GET', `/telemetry/acme/overview?${range(HOUR)}`, owner)).json();
    expect(overview.bucket).toBe('minute');
    // Every minute from the one the range starts in, one after another.
    const steps = overview.series
      .slice(1)
      .map((p: { at: string }, i: number) => Date.parse(p.at) - Date.parse(overview.series[i].at));
    expect(overview.series.length).toBeGreaterThanOrEqual(61);
    expect(new Set(steps)).toEqual(new Set([60_000]));
    expect(overview.totals).toMatchObject({ decisions: 3, allowed: 1, blocked: 2, users: 1, devices: 1 });
    expect(overview.layers).toEqual([
      { layer: 'dns', allowed: 1, blocked: 2 },
      { layer: 'network', allowed: 0, blocked: 0 },
      { layer: 'http', allowed: 0, blocked: 0 },
    ]);
    const minute = overview.series.find((p: { blocked: number }) => p.blocked > 0);
    expect(minute).toMatchObject({ allowed: 1, blocked: 2 });
    // A week is drawn per hour, from the hourly rollups, and holds the week-old decision too.
    const week = (await call('GET', `/telemetry/acme/overview?${range(8 * DAY)}`, owner)).json();
    expect(week.bucket).toBe('hour');
    expect(week.totals.decisions).toBe(4);
    expect(week.totals.connections).toBe(2);
    // The gateway's key_rotated and the console's `enrolled` of the device.
    expect(week.totals.deviceEvents).toBe(2);
  });

  it('lists the top destinations and users, named, and drills down to their decisions', async () => {
    const top = (await call('GET', `/telemetry/acme/top?dimension=destination&${range(HOUR)}`, owner)).json();
    expect(top.items).toEqual([
      { value: 'casino.example', label: 'casino.example', allowed: 0, blocked: 2 },
      { value: 'intranet.example', label: 'intranet.example', allowed: 1, blocked: 0 },
    ]);
    const blocked = (
      await call('GET', `/telemetry/acme/top?dimension=user&decision=block&${range(HOUR)}`, owner)
    ).json();
    expect(blocked.items).toEqual([{ value: user.id, label: user.name, allowed: 0, blocked: 2 }]);
    const drill = (
      await call(
        'GET',
        `/events/decisions/acme?destination=CASINO.example&decision=block&${range(HOUR)}`,
        owner,
      )
    ).json();
    expect(drill.items).toHaveLength(2);
    expect(drill.items[0]).toMatchObject({
      layer: 'dns',
      decision: 'block',
      destination: 'casino.example',
      category: 'gambling',
      ruleName: 'Block gambling',
      user: { name: user.name },
      device: { name: 'Roaming laptop' },
      gateway: { name: 'Telemetry PoP' },
    });
    const csv = await call('GET', '/events/decisions/acme/export?decision=allow', owner);
    expect(csv.body.trim().split('\n')[0]).toBe(
      'at,layer,decision,destination,port,protocol,category,app,country,ruleName,threat,gateway,user,device,bytes',
    );
  });

  it('sums the sessions of site gateways for secure private access', async () => {
    const site = await call('POST', '/cybernodes/acme', owner, {
      name: 'Branch SPA',
      kind: 'cgw',
      region: 'Lab',
    });
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/gw/enrol',
      payload: {
        token: site.json().enrolmentToken.token,
        publicKey: generateKeyPair().publicKey,
        hostname: 'branch-spa.test',
        version: '1.0.0',
      },
    });
    const credential = enrolled.json().credential as string;
    await post(credential, [
      connection('s1', ago(2 * HOUR), 'tunnel_up'),
      connection('s2', ago(HOUR), 'tunnel_down', { durationMs: HOUR, bytesIn: 10, bytesOut: 20 }),
    ]);
    const summary = (await call('GET', `/telemetry/acme/private-access?${range(DAY)}`, owner)).json();
    // The cybernode's connections are not a site's.
    expect(summary.sites).toEqual([
      {
        gateway: { id: site.json().cybernode.id, name: 'Branch SPA' },
        users: 1,
        devices: 1,
        sessions: 1,
        durationMs: HOUR,
        bytes: 30,
      },
    ]);
  });

  it('streams a tick a second with what was ingested in it', async () => {
    const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    try {
      const response = await fetch(`${address}/api/telemetry/acme/live`, {
        headers: { 'x-auth-token': owner },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      await post(gateway.credential, [decision('live1', 'live.example', 'block', ago(0))]);
      const deadline = Date.now() + 5000;
      let seen: { decisions: number; blocked: number; destinations: { value: string }[] } | null = null;
      while (!seen && Date.now() < deadline) {
        const { value } = await reader.read();
        text += decoder.decode(value);
        for (const block of text.split('\n\n')) {
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/event: tick/.test(block) && data && JSON.parse(data).decisions > 0) seen = JSON.parse(data);
        }
      }
      expect(seen).toMatchObject({ decisions: 1, blocked: 1, destinations: [{ value: 'live.example' }] });
    } finally {
      controller.abort();
    }
  });
});

describe('long ranges: whole days from the daily rollups, the partial days around them from the hours', () => {
  // Ten days back, at midnight UTC: the range runs from 21:00 the day before to 04:00 two days after.
  const D = Math.floor(Date.now() / DAY) * DAY - 10 * DAY;
  const at = (ms: number) => new Date(D + ms).toISOString();
  const from = at(-3 * HOUR);
  const to = at(2 * DAY + 4 * HOUR);
  const inRange = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

  it('counts each event of the range once, wherever it falls, and none outside it', async () => {
    const created = await call('POST', '/subscriber/user/globex', globex, {
      username: 'splitter@globex.test',
      firstname: 'Split',
      lastname: 'Ter',
    });
    const userId = created.json().id as string;
    const line = (id: string, ms: number, verdict: 'allow' | 'block') => ({
      id,
      at: at(ms),
      kind: 'decision',
      data: { layer: 'http', decision: verdict, destination: 'split.example', userId, category: 'news' },
    });
    const posted = await post(globexGateway.credential, [
      line('before', -4 * HOUR, 'block'), // the hour before the range's first
      line('first-day', -2.5 * HOUR, 'allow'),
      line('whole-day-1', 12 * HOUR, 'allow'),
      line('whole-day-2', DAY + HOUR, 'block'),
      line('last-day', 2 * DAY + 3.5 * HOUR, 'allow'), // in the hour the range ends in
      line('after', 2 * DAY + 5 * HOUR, 'block'),
    ]);
    expect(posted.statusCode, posted.body).toBe(202);
    const top = (await call('GET', `/telemetry/globex/top?dimension=destination&${inRange}`, globex)).json();
    expect(top.items).toEqual([{ value: 'split.example', label: 'split.example', allowed: 3, blocked: 1 }]);
    const overview = (await call('GET', `/telemetry/globex/overview?${inRange}`, globex)).json();
    expect(overview.totals).toMatchObject({ decisions: 4, allowed: 3, blocked: 1, users: 1 });
    expect(overview.layers).toContainEqual({ layer: 'http', allowed: 3, blocked: 1 });
    // A range inside one day reads hours only.
    const noon = `from=${encodeURIComponent(at(11.5 * HOUR))}&to=${encodeURIComponent(at(13 * HOUR))}`;
    const day = (await call('GET', `/telemetry/globex/top?dimension=destination&${noon}`, globex)).json();
    expect(day.items).toEqual([{ value: 'split.example', label: 'split.example', allowed: 1, blocked: 0 }]);
  });

  it('sums the sessions of a site over whole and partial days', async () => {
    const site = await call('POST', '/cybernodes/globex', globex, {
      name: 'Globex branch',
      kind: 'cgw',
      region: 'Lab',
    });
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/gw/enrol',
      payload: {
        token: site.json().enrolmentToken.token,
        publicKey: generateKeyPair().publicKey,
        hostname: 'globex-branch.test',
        version: '1.0.0',
      },
    });
    const [{ id: userId }] = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from users where username = 'splitter@globex.test'`,
    );
    const link = (id: string, ms: number, action: string, extra: Record<string, unknown> = {}) => ({
      id,
      at: at(ms),
      kind: 'connection',
      data: { action, userId, ...extra },
    });
    await post(enrolled.json().credential, [
      link('s-before', -5 * HOUR, 'tunnel_up'),
      link('s1', -2 * HOUR, 'tunnel_up'),
      link('s1-down', 12 * HOUR, 'tunnel_down', { durationMs: 14 * HOUR, bytesIn: 7, bytesOut: 3 }),
      link('s2', 2 * DAY + 3 * HOUR, 'tunnel_up'),
      link('s2-down', 2 * DAY + 6 * HOUR, 'tunnel_down', { durationMs: 3 * HOUR, bytesIn: 100 }),
    ]);
    const summary = (await call('GET', `/telemetry/globex/private-access?${inRange}`, globex)).json();
    expect(summary.sites).toEqual([
      {
        gateway: { id: site.json().cybernode.id, name: 'Globex branch' },
        users: 1,
        devices: 0,
        sessions: 2,
        durationMs: 14 * HOUR,
        bytes: 10,
      },
    ]);
  });
});

describe('the writer', () => {
  it("writes a tenant's batches two statements at a time, taking those that waited together", async () => {
    const second = await enrolledGateway('globex', globex, 'Globex second PoP');
    const [{ id: tenantId }] = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from tenants where name = 'globex'`,
    );
    const at = new Date(Date.now() - 20 * DAY);
    const event = (id: string) =>
      ({
        id,
        at,
        kind: 'decision',
        data: { layer: 'dns', decision: 'allow', destination: 'w.example' },
      }) as const;
    const store = eventStoreOf(f.database);
    const original = store.ingest.bind(store);
    let running = 0;
    let most = 0;
    const ingest = vi.spyOn(store, 'ingest').mockImplementation(async (...args) => {
      most = Math.max(most, ++running);
      try {
        return await original(...args);
      } finally {
        running--;
      }
    });
    try {
      const batch = (gatewayId: string, ids: string[]) =>
        writeBatch(f.database, { tenantId, gatewayId, events: ids.map(event) });
      const answers = await Promise.all([
        batch(globexGateway.id, ['w1', 'w2']),
        batch(second.id, ['w3', 'w4']),
        batch(globexGateway.id, ['w2', 'w5']), // w2 again: a duplicate
        batch(second.id, ['w6']),
      ]);
      expect(answers).toEqual([2, 2, 1, 1]);
      // The first two at once, each alone; then the two that waited, together (one per gateway).
      expect(ingest.mock.calls.map(([, batches]) => batches.map((b) => b.events.length))).toEqual([
        [2],
        [2],
        [2, 1],
      ]);
      expect(most).toBe(2);
    } finally {
      ingest.mockRestore();
    }
  });
  it('runs statements of one tenant side by side over the same rows without a deadlock or a double count', async () => {
    const [{ id: tenantId }] = await queryRows<{ id: string }>(
      f.database.db,
      sql`select id from tenants where name = 'globex'`,
    );
    const at = new Date(Date.now() - 21 * DAY);
    const ids = Array.from({ length: 400 }, (_, i) => `d${i}`);
    const event = (id: string) =>
      ({
        id,
        at: new Date(at.getTime() + Number(id.slice(1)) * 1000),
        kind: 'decision',
        data: { layer: 'dns', decision: 'block', destination: `d${Number(id.slice(1)) % 7}.example` },
      }) as const;
    const store = eventStoreOf(f.database);
    await store.ensureDays([Math.floor(at.getTime() / DAY) * DAY]);
    // Six statements at once, over the same events and rollup rows, half of them in the opposite order.
    const accepted = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        store.ingest(tenantId, [
          { gatewayId: globexGateway.id, events: (n % 2 ? [...ids].reverse() : ids).map(event) },
        ]),
      ),
    );
    expect(accepted.flat().reduce((a, b) => a + b, 0)).toBe(400);
    const [rolled] = await queryRows<{ events: number }>(
      f.database.db,
      sql`select coalesce(sum(events), 0)::int as events from telemetry_day_top
          where tenant_id = ${tenantId} and dimension = 'destination' and day = ${new Date(Math.floor(at.getTime() / DAY) * DAY)}`,
    );
    expect(rolled.events).toBe(400);
  });
});

describe('the store upkeep', () => {
  it('makes the next days, and drops the days past retention once per hour', async () => {
    const before = await queryRows<{ name: string }>(
      f.database.db,
      sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          join pg_class p on p.oid = i.inhparent where p.relname = 'telemetry_events' order by 1`,
    );
    const day = (offset: number) =>
      `telemetry_events_${new Date(Date.now() + offset * DAY).toISOString().slice(0, 10).replaceAll('-', '')}`;
    expect(before.map((r) => r.name)).toEqual(expect.arrayContaining([day(0), day(1), day(2)]));
    // Forty days on, everything stored so far is past retention.
    await f.database.db.execute(sql`delete from scheduled_runs where job = 'telemetry-retention'`);
    const dropped = await maintainTelemetry(f.database, Date.now() + 40 * DAY);
    expect(dropped).toEqual(expect.arrayContaining([day(0), day(-7)]));
    expect(await maintainTelemetry(f.database, Date.now() + 40 * DAY)).toBeNull();
    const [left] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from telemetry_events`,
    );
    expect(left.n).toBe(0);
  });
});
