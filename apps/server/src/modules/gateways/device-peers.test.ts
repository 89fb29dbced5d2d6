import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { migrate } from '../../db/migrate';
import { policyApi, rule } from '../policies/policies.test-kit';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let credential: string;
const gatewayKey = wireguardPublicKey();

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundleOf = (have?: string, wait = 0) =>
  f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { authorization: `Bearer ${credential}`, ...(have ? { 'if-none-match': `"${have}"` } : {}) },
  });

const METRICS = {
  cpuPercent: 1,
  memoryPercent: 1,
  throughputBps: 0,
  uptimeSeconds: 1,
  activePeers: 1,
  connectedUsers: 1,
};

/** A heartbeat of the HQ gateway; `payload` is sent as it is when it is a string (JSON a test wrote by hand). */
const heartbeat = (payload: unknown) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/heartbeat',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

/** A one-time deployment key of acme. */
async function deploymentKey() {
  const res = await call('POST', '/enrolment/acme/keys', owner, { name: `Key ${Math.random()}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().token as string;
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await call('POST', '/cybernodes/acme', owner, {
    name: 'HQ',
    kind: 'cgw',
    region: 'Berlin',
  });
  const enrolled = await call('POST', '/gw/enrol', undefined, {
    token: created.json().enrolmentToken.token,
    publicKey: gatewayKey,
    hostname: 'hq-gw',
    version: '1.0.0',
    endpoint: '198.51.100.7:51820',
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  credential = enrolled.json().credential;
});

describe('devices as WireGuard peers of the gateways', () => {
  it('gives a device that enrols with its key a tunnel through every gateway, with the routes through it', async () => {
    await policies.create(owner, {
      type: 'route',
      name: 'Servers through HQ',
      rules: [
        rule({ name: 'Servers', type: 'ROUTE', action: 'route', url: '10.99.0.0/24', target: 'hq-gw' }),
      ],
    });
    const before = (await bundleOf()).json();
    const waiting = bundleOf(before.version, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const deviceKey = wireguardPublicKey();
    const res = await call('POST', '/enrol', undefined, {
      token: await deploymentKey(),
      device: { name: 'Build server', os: 'linux' },
      publicKey: deviceKey,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { wireguard } = res.json();
    expect(wireguard.address).toMatch(/^100\.64\.\d+\.\d+\/32$/);
    expect(wireguard.peers).toEqual([
      {
        gatewayId: expect.any(String),
        name: 'HQ',
        publicKey: gatewayKey,
        endpoint: '198.51.100.7:51820',
        allowedIps: ['100.100.0.0/24', '10.99.0.0/24'],
      },
    ]);
    expect(wireguard.dns).toEqual(['100.100.0.1']);
    expect(wireguard.config).toContain(`Address = ${wireguard.address}`);
    expect(wireguard.config).toContain('Endpoint = 198.51.100.7:51820');
    expect(wireguard.config).toMatch(/AllowedIPs = 10\.99\.0\.0\/24, 100\.100\.0\.0\/24/);
    expect(wireguard.config).not.toContain('ListenPort');

    // The waiting gateway gets a bundle with the device as its peer.
    const changed = await waiting;
    expect(changed.statusCode).toBe(200);
    expect(changed.json().artefacts.wireguard).toContain(`PublicKey = ${deviceKey}`);
    expect(changed.json().artefacts.wireguard).toContain(
      `AllowedIPs = ${wireguard.address.replace('/32', '')}`,
    );
    // It knows who is behind the new address: what it names in its events.
    expect(changed.json().identities).toContainEqual({
      address: wireguard.address.replace('/32', ''),
      deviceId: res.json().deviceId,
      userId: null,
      groups: [],
    });
    // The tenant's artefacts did not change: only this gateway's WireGuard part.
    expect(changed.json().version.split('.')[0]).toBe(before.version.split('.')[0]);
  });

  it('refuses a key another device of the tenant holds, and a malformed one, enrolling nothing', async () => {
    const key = wireguardPublicKey();
    const first = await call('POST', '/enrol', undefined, {
      token: await deploymentKey(),
      device: { name: 'One', os: 'linux' },
      publicKey: key,
    });
    expect(first.statusCode).toBe(201);
    const token = await deploymentKey();
    const again = await call('POST', '/enrol', undefined, {
      token,
      device: { name: 'Two', os: 'linux' },
      publicKey: key,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().details).toEqual([
      { path: 'body.publicKey', message: 'validation.wireguardKeyTaken' },
    ]);
    const bad = await call('POST', '/enrol', undefined, {
      token,
      device: { name: 'Two', os: 'linux' },
      publicKey: 'not-a-key',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'body.publicKey', message: 'validation.wireguardKey' }]);
    // The token was not used up: it still enrols.
    const ok = await call('POST', '/enrol', undefined, { token, device: { name: 'Two', os: 'linux' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().wireguard).toBeNull();
  });

  it('counts a tunnel handshake the gateway reports as the device being seen, and leaves a disabled one out', async () => {
    const deviceKey = wireguardPublicKey();
    const res = await call('POST', '/enrol', undefined, {
      token: await deploymentKey(),
      device: { name: 'Handshaking laptop', os: 'linux' },
      publicKey: deviceKey,
    });
    const { deviceId } = res.json();
    const handshake = new Date(Date.now() - 5_000).toISOString();
    const beat = await f.app.inject({
      method: 'POST',
      url: '/api/gw/heartbeat',
      headers: { authorization: `Bearer ${credential}` },
      payload: {
        version: '1.0.0',
        enforcedVersion: null,
        metrics: {
          cpuPercent: 1,
          memoryPercent: 1,
          throughputBps: 0,
          uptimeSeconds: 1,
          activePeers: 1,
          connectedUsers: 1,
        },
        peers: [{ publicKey: deviceKey, lastHandshakeAt: handshake, rxBytes: 10, txBytes: 20 }],
      },
    });
    expect(beat.statusCode, beat.body).toBe(200);
    const detail = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    expect(detail.status).toBe('online');
    expect(detail.lastSeenAt).toBe(handshake);
    expect(detail.wireguard.peers[0].lastHandshakeAt).toBe(handshake);

    const disabled = await call('POST', '/devices/acme/bulk', owner, { action: 'disable', ids: [deviceId] });
    expect(disabled.json()).toEqual({ affected: 1 });
    expect((await bundleOf()).json().artefacts.wireguard).not.toContain(deviceKey);
  });

  it('refuses a gateway endpoint that is not host:port', async () => {
    const created = await call('POST', '/cybernodes/acme', owner, {
      name: 'Edge',
      kind: 'lgw',
      region: 'Munich',
    });
    const res = await call('POST', '/gw/enrol', undefined, {
      token: created.json().enrolmentToken.token,
      publicKey: wireguardPublicKey(),
      hostname: 'edge',
      version: '1.0.0',
      endpoint: 'edge:99999',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'body.endpoint', message: 'validation.wireguardEndpoint' }]);
  });

  it('refuses a heartbeat with a time or number no machine could mean, storing nothing of it', async () => {
    const deviceKey = wireguardPublicKey();
    const res = await call('POST', '/enrol', undefined, {
      token: await deploymentKey(),
      device: { name: 'Clockless laptop', os: 'linux' },
      publicKey: deviceKey,
    });
    const { deviceId } = res.json();
    const peer = (lastHandshakeAt: unknown) => [
      { publicKey: deviceKey, lastHandshakeAt, rxBytes: 1, txBytes: 2 },
    ];
    const beat = (over: Record<string, unknown>) => ({
      version: '1.0.0',
      enforcedVersion: null,
      metrics: METRICS,
      peers: [],
      ...over,
    });
    const storedState = async () => {
      const [row] = await queryRows<{ seen: string | null; peers: unknown; samples: number }>(
        f.database.db,
        sql`select (select last_seen_at::text from devices where id = ${deviceId}) as seen,
              (select peers from gateways where public_key = ${gatewayKey}) as peers,
              (select count(*)::int from site_metrics) as samples`,
      );
      return row;
    };
    const before = await storedState();
    const cases: [string, unknown, string][] = [
      ['infinity', beat({ peers: peer('infinity') }), 'body.peers.0.lastHandshakeAt'],
      ['-infinity', beat({ peers: peer('-infinity') }), 'body.peers.0.lastHandshakeAt'],
      ['1970', beat({ peers: peer('1970-01-01T00:00:00.000Z') }), 'body.peers.0.lastHandshakeAt'],
      ['3000', beat({ peers: peer('3000-01-01T00:00:00.000Z') }), 'body.peers.0.lastHandshakeAt'],
      [
        'ten minutes ahead',
        beat({ peers: peer(new Date(Date.now() + 600_000).toISOString()) }),
        'body.peers.0.lastHandshakeAt',
      ],
      ['not a time', beat({ peers: peer('yesterday') }), 'body.peers.0.lastHandshakeAt'],
      [
        'rx beyond 2^53',
        beat({ peers: [{ publicKey: deviceKey, lastHandshakeAt: null, rxBytes: 2 ** 60, txBytes: 0 }] }),
        'body.peers.0.rxBytes',
      ],
      [
        'throughput beyond 2^53',
        beat({ metrics: { ...METRICS, throughputBps: 1e300 } }),
        'body.metrics.throughputBps',
      ],
      [
        'more active peers than a gateway holds',
        beat({ metrics: { ...METRICS, activePeers: 2 ** 40 } }),
        'body.metrics.activePeers',
      ],
      ['negative latency', beat({ latencyMs: -1 }), 'body.latencyMs'],
    ];
    for (const [name, payload, path] of cases) {
      const answer = await heartbeat(payload);
      expect(answer.statusCode, `${name}: ${answer.body}`).toBe(400);
      expect(
        answer.json().details.map((d: { path: string }) => d.path),
        name,
      ).toContain(path);
    }
    // JSON numbers beyond a double's range read as Infinity: refused as well.
    const infinite = await heartbeat(
      JSON.stringify(beat({})).replace('"throughputBps":0', '"throughputBps":1e999'),
    );
    expect(infinite.statusCode, infinite.body).toBe(400);
    expect(infinite.json().details.map((d: { path: string }) => d.path)).toContain(
      'body.metrics.throughputBps',
    );
    expect(await storedState()).toEqual(before);
    // A plain one still goes through.
    expect((await heartbeat(beat({ peers: peer(new Date().toISOString()) }))).statusCode).toBe(200);
  });

  it('repairs a stored "infinity" handshake (migration 0042): the device list, page, export and delete work again', async () => {
    const deviceKey = wireguardPublicKey();
    const res = await call('POST', '/enrol', undefined, {
      token: await deploymentKey(),
      device: { name: 'Forever laptop', os: 'linux' },
      publicKey: deviceKey,
    });
    const { deviceId } = res.json();
    // What a heartbeat with `"lastHandshakeAt": "infinity"` left behind before the contract refused it.
    await f.database.db.execute(
      sql`update devices set last_seen_at = 'infinity', connstatus = 'connected' where id = ${deviceId}`,
    );
    await f.database.db.execute(
      sql`update gateways set peers = ${JSON.stringify([
        { publicKey: deviceKey, lastHandshakeAt: 'infinity', rxBytes: 1, txBytes: 2 },
        {
          publicKey: wireguardPublicKey(),
          lastHandshakeAt: '3000-01-01T00:00:00.000Z',
          rxBytes: 3,
          txBytes: 4,
        },
        { publicKey: wireguardPublicKey(), lastHandshakeAt: 'not a time', rxBytes: 5, txBytes: 6 },
      ])}::jsonb where public_key = ${gatewayKey}`,
    );
    const screens = async () => ({
      list: (await call('GET', '/devices/acme?q=forever', owner)).statusCode,
      page: (await call('GET', `/devices/acme/${deviceId}`, owner)).statusCode,
      export: (await call('GET', '/devices/acme/export?q=forever', owner)).statusCode,
    });
    // The breakage: every screen showing the device fails, and so does deleting it.
    expect(await screens()).toEqual({ list: 500, page: 500, export: 500 });
    expect((await call('DELETE', '/enrolment/acme/devices', owner, { ids: [deviceId] })).statusCode).toBe(
      500,
    );

    // Migration 0042 applied as at a start-up (the file itself, through the migrator).
    const client = (
      f.database.db as unknown as {
        $client: { exec?: (t: string) => Promise<unknown>; query: (t: string) => Promise<unknown> };
      }
    ).$client;
    const runScript = (text: string) =>
      f.database.kind === 'pglite' && client.exec ? client.exec(text) : client.query(text);
    await f.database.db.execute(sql`delete from schema_migrations where name like '0042\_%'`);
    await migrate(runScript, f.database.db);
    const [applied] = await queryRows<{ n: number }>(
      f.database.db,
      sql`select count(*)::int as n from schema_migrations where name like '0042\_%'`,
    );
    expect(applied.n).toBe(1);

    expect(await screens()).toEqual({ list: 200, page: 200, export: 200 });
    const detail = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    expect(detail.lastSeenAt).toBeNull();
    expect(detail.wireguard.peers[0].lastHandshakeAt).toBeNull();
    const [gateway] = await queryRows<{ peers: { lastHandshakeAt: string | null; rxBytes: number }[] }>(
      f.database.db,
      sql`select peers from gateways where public_key = ${gatewayKey}`,
    );
    expect(gateway.peers.map((p) => [p.lastHandshakeAt, p.rxBytes])).toEqual([
      [null, 1],
      [null, 3],
      [null, 5],
    ]);
    const deleted = await call('DELETE', '/enrolment/acme/devices', owner, { ids: [deviceId] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: 1 });
  });
});
