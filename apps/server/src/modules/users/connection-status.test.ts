import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { refreshConnectionStatus } from './users.service';

/**
 * Issue 23: users' connection status and "connected right now" come from the tunnel handshakes the gateways
 * report in their heartbeats, not from the seed: connected while a device of theirs made a handshake in the last
 * 3 minutes, disconnected once it is older.
 */
const f = useFixture();
let owner: string;
let gateway: { credential: string };
let user: { id: string };
let deviceKey: string;
let tenantId: string;

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { 'x-auth-token': token } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const heartbeat = (handshake: string | null) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/heartbeat',
    headers: { authorization: `Bearer ${gateway.credential}` },
    payload: {
      version: '1.0.0',
      enforcedVersion: null,
      metrics: {
        cpuPercent: 1,
        memoryPercent: 1,
        throughputBps: 0,
        uptimeSeconds: 1,
        activePeers: handshake ? 1 : 0,
        connectedUsers: handshake ? 1 : 0,
      },
      peers: [{ publicKey: deviceKey, lastHandshakeAt: handshake, rxBytes: 10, txBytes: 20 }],
    },
  });
const statusOf = async () => {
  const [row] = await queryRows<{ user: string; device: string }>(
    f.database.db,
    sql`select u.connstatus as user, d.connstatus as device from users u join devices d on d.user_id = u.id
        where u.id = ${user.id}`,
  );
  return row;
};
const connectedNow = async () =>
  (await call('GET', '/dashboard/acme/summary', owner)).json() as { connectedUsers?: number } & Record<
    string,
    unknown
  >;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const created = await call('POST', '/cybernodes/acme', owner, {
    name: 'Status PoP',
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
      hostname: 'status-pop.test',
      version: '1.0.0',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  gateway = { credential: enrolled.json().credential };
  const made = await call('POST', '/subscriber/user/acme', owner, {
    username: 'walker@acme.test',
    firstname: 'Wal',
    lastname: 'Ker',
  });
  expect(made.statusCode, made.body).toBe(201);
  user = { id: made.json().id };
  const link = await call('POST', `/enrolment/acme/users/${user.id}/link`, owner, {});
  deviceKey = generateKeyPair().publicKey;
  const device = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name: 'Walking laptop', os: 'linux' },
    publicKey: deviceKey,
  });
  expect(device.statusCode, device.body).toBe(201);
  [{ id: tenantId }] = await queryRows<{ id: string }>(
    f.database.db,
    sql`select id from tenants where name = 'acme'`,
  );
});

describe("users' connection status from the gateways' handshakes", () => {
  it('is connected after a recent handshake and disconnected once it is older than 3 minutes', async () => {
    expect(await statusOf()).toMatchObject({ user: 'never' });
    const before = (await connectedNow()).connectedUsers as number;

    // The heartbeat itself moves the status (nothing else is called).
    expect((await heartbeat(new Date(Date.now() - 20_000).toISOString())).statusCode).toBe(200);
    expect(await statusOf()).toEqual({ user: 'connected', device: 'connected' });
    expect((await connectedNow()).connectedUsers).toBe(before + 1);

    // The tunnel went quiet: the handshake the gateways know is 10 minutes old now.
    await f.database.db.execute(
      sql`update devices set last_seen_at = now() - interval '10 minutes' where wg_public_key = ${deviceKey}`,
    );
    expect((await heartbeat(null)).statusCode).toBe(200);
    expect(await statusOf()).toEqual({ user: 'disconnected', device: 'disconnected' });
    expect((await connectedNow()).connectedUsers).toBe(before);
  });

  it('reports an old handshake as seen but not connected', async () => {
    expect((await heartbeat(new Date(Date.now() - 3_600_000).toISOString())).statusCode).toBe(200);
    expect(await statusOf()).toEqual({ user: 'disconnected', device: 'disconnected' });
  });

  it('corrects a status nobody saw: a user marked connected without a device seen', async () => {
    const [{ id }] = await queryRows<{ id: string }>(
      f.database.db,
      sql`update users set connstatus = 'connected' where tenant_id = ${tenantId} and username = 'enduser@acme.test'
          returning id`,
    );
    await refreshConnectionStatus(f.database.db, tenantId);
    const [row] = await queryRows<{ connstatus: string }>(
      f.database.db,
      sql`select connstatus from users where id = ${id}`,
    );
    expect(row.connstatus).toBe('disconnected');
  });
});
