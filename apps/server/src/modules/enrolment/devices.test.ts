import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { devices } from './enrolment.tables';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let auditor: string;
let billing: string;
let globexOwner: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const asDevice = (credential: string, url: string, payload: unknown) =>
  f.app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { authorization: `Bearer ${credential}` },
    payload: payload as object,
  });

/** Enrols a device of acme with a fresh deployment key; answers its id and credential. */
async function enrolDevice(name: string, publicKey?: string, tenant = 'acme', token = owner) {
  const key = await call('POST', `/enrolment/${tenant}/keys`, token, { name: `Key ${name}` });
  expect(key.statusCode, key.body).toBe(201);
  const res = await call('POST', '/enrol', undefined, {
    token: key.json().token,
    device: { name, os: 'linux' },
    ...(publicKey ? { publicKey } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { deviceId: string; deviceToken: string; wireguard: unknown };
}

async function listed(query: string) {
  const res = await call('GET', `/devices/acme?${query}`, owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: { id: string; name: string; kind: string; state: string; status: string; posture: string }[];
    total: number | null;
    nextCursor: string | null;
  };
}

const stateOf = async (id: string) =>
  (await f.database.db.select({ state: devices.state }).from(devices).where(eq(devices.id, id)))[0]?.state;

let siteGatewayId: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  const gw = await call('POST', '/cybernodes/acme', owner, {
    name: 'Branch Zeta',
    kind: 'lgw',
    region: 'Berlin',
  });
  expect(gw.statusCode, gw.body).toBe(201);
  siteGatewayId = gw.json().cybernode.id;
});

describe('the device list', () => {
  it('answers 401 without a session and 403 to a role without devices rights', async () => {
    expect((await call('GET', '/devices/acme')).statusCode).toBe(401);
    expect((await call('GET', '/devices/acme', billing)).statusCode).toBe(403);
    expect((await call('GET', '/devices/acme/export', billing)).statusCode).toBe(403);
  });

  it('lists endpoints and site gateways together, filtered by kind, and refuses a bad filter with its field', async () => {
    const { deviceId } = await enrolDevice('List laptop');
    const all = await listed('q=&limit=200');
    expect(all.items.map((d) => d.id)).toEqual(expect.arrayContaining([deviceId, siteGatewayId]));
    const sites = await listed('kind=site&limit=200');
    expect(sites.items.every((d) => d.kind === 'site')).toBe(true);
    expect(sites.items.map((d) => d.id)).toContain(siteGatewayId);
    const site = sites.items.find((d) => d.id === siteGatewayId);
    // Not enrolled yet: waiting, never seen.
    expect(site).toMatchObject({ state: 'pending', status: 'never' });
    const endpoints = await listed('kind=endpoint&q=list%20laptop');
    expect(endpoints.items.map((d) => d.name)).toEqual(['List laptop']);
    const bad = await call('GET', '/devices/acme?status=sleeping', owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toContain('query.status');
  });

  it('pages with a cursor in name order without repeating or skipping a device', async () => {
    for (const n of [1, 2, 3, 4, 5]) await enrolDevice(`Pager ${n}`);
    const first = await listed('q=pager&limit=2');
    expect(first.items.map((d) => d.name)).toEqual(['Pager 1', 'Pager 2']);
    expect(first.total).toBe(5);
    const second = await listed(`q=pager&limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((d) => d.name)).toEqual(['Pager 3', 'Pager 4']);
    const desc = await listed('q=pager&limit=2&order=desc');
    expect(desc.items.map((d) => d.name)).toEqual(['Pager 5', 'Pager 4']);
  });

  it("never shows another tenant's devices, and 404s one by id", async () => {
    const { deviceId } = await enrolDevice('Globex phone', undefined, 'globex', globexOwner);
    const all = await listed('limit=200');
    expect(all.items.map((d) => d.id)).not.toContain(deviceId);
    expect((await call('GET', `/devices/acme/${deviceId}`, owner)).statusCode).toBe(404);
    expect((await call('PUT', `/devices/acme/${deviceId}`, owner, { name: 'Mine' })).statusCode).toBe(404);
    expect((await call('POST', `/devices/acme/${deviceId}/expire-key`, owner)).statusCode).toBe(404);
    const bulk = await call('POST', '/devices/acme/bulk', owner, { action: 'disable', ids: [deviceId] });
    expect(bulk.json()).toEqual({ affected: 0 });
    expect(await stateOf(deviceId)).toBe('active');
  });

  it("finds a device by its owner's username, and follows a change of username or owner", async () => {
    const user = await call('POST', '/subscriber/user/acme', owner, {
      username: 'tablet-owner@acme.test',
      firstname: 'Tablet',
      lastname: 'Owner',
    });
    expect(user.statusCode, user.body).toBe(201);
    const userId = user.json().id as string;
    const link = await call('POST', `/enrolment/acme/users/${userId}/link`, owner, {});
    const enrolled = await call('POST', '/enrol', undefined, {
      token: link.json().token,
      device: { name: 'Owned tablet', os: 'android' },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    const { deviceId } = enrolled.json() as { deviceId: string };
    const ids = async (q: string) =>
      (await listed(`q=${encodeURIComponent(q)}&limit=200`)).items.map((d) => d.id);
    expect(await ids('tablet-owner@')).toEqual([deviceId]);
    expect(await ids('TABLET-OWNER')).toEqual([deviceId]);
    expect(await ids('owned tablet')).toEqual([deviceId]);
    // `%` and `_` are literal, not patterns.
    expect(await ids('tablet%owner')).toEqual([]);
    expect(await ids('tablet_owner')).toEqual([]);

    const renamed = await call('PUT', `/subscriber/user/acme/${userId}`, owner, {
      username: 'slate-keeper@acme.test',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await ids('tablet-owner')).toEqual([]);
    expect(await ids('slate-keeper@')).toEqual([deviceId]);
    expect(await ids('owned tablet')).toEqual([deviceId]);

    // Its owner deleted, the device stays, unassigned: found by its name only.
    const deleted = await call('DELETE', '/subscriber/user/acme', owner, { ids: [userId] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await ids('slate-keeper')).toEqual([]);
    expect(await ids('owned tablet')).toEqual([deviceId]);
  });

  it('finds a renamed device by its new name, not its old one', async () => {
    const { deviceId } = await enrolDevice('Quartz desktop');
    expect((await listed('q=quartz')).items.map((d) => d.id)).toEqual([deviceId]);
    const renamed = await call('PUT', `/devices/acme/${deviceId}`, owner, { name: 'Basalt workstation' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await listed('q=quartz')).items).toEqual([]);
    expect((await listed('q=basalt%20work')).items.map((d) => d.id)).toEqual([deviceId]);
  });

  it('exports the filtered list as CSV', async () => {
    await enrolDevice('Export desktop');
    const res = await call('GET', '/devices/acme/export?q=export%20desktop', owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'name,kind,os,username,status,state,lastSeenAt,agentVersion,posture,enforcedVersion,address,keyExpiresAt,enrolledAt',
    );
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^Export desktop,endpoint,linux,,never,active,/);
  });
});

describe('approval, disabling and key expiry', () => {
  it('holds a new device for approval when the tenant requires it: no tunnel until approved', async () => {
    const settings = await call('PUT', '/devices/acme/settings', owner, {
      requireApproval: true,
      keyExpiryDays: 30,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    try {
      const pending = await enrolDevice('Pending laptop', wireguardPublicKey());
      expect(pending.wireguard).toBeNull();
      expect(await stateOf(pending.deviceId)).toBe('pending');
      const waiting = await asDevice(pending.deviceToken, '/device/checkin', { agentVersion: '1.2.0' });
      expect(waiting.json()).toMatchObject({ state: 'pending', wireguard: null });

      expect(
        (await call('POST', '/devices/acme/bulk', auditor, { action: 'approve', ids: [pending.deviceId] }))
          .statusCode,
      ).toBe(403);
      const approved = await call('POST', '/devices/acme/bulk', owner, {
        action: 'approve',
        ids: [pending.deviceId],
      });
      expect(approved.json()).toEqual({ affected: 1 });
      const active = await asDevice(pending.deviceToken, '/device/checkin', { agentVersion: '1.2.0' });
      const answer = active.json();
      expect(answer.state).toBe('active');
      expect(answer.wireguard.config).toContain('[Interface]');
      // The key lifetime starts at approval: 30 days.
      const days = (Date.parse(answer.keyExpiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
      const events = await f.database.db
        .select()
        .from(adminEvents)
        .where(and(eq(adminEvents.action, 'device.approve'), eq(adminEvents.objectId, pending.deviceId)));
      expect(events).toHaveLength(1);
    } finally {
      await call('PUT', '/devices/acme/settings', owner, { requireApproval: false, keyExpiryDays: null });
    }
  });

  it('refuses bad settings with the field, and a move without a policy group', async () => {
    const bad = await call('PUT', '/devices/acme/settings', owner, {
      requireApproval: 'yes',
      keyExpiryDays: 12,
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.requireApproval', 'body.keyExpiryDays']));
    const move = await call('POST', '/devices/acme/bulk', owner, { action: 'move', ids: [UNKNOWN_ID] });
    expect(move.statusCode).toBe(400);
    expect(move.json().details.map((d: { path: string }) => d.path)).toContain('body.policyGroupId');
  });

  it("drops a disabled device from the gateways' peers and gives it back when enabled", async () => {
    const key = wireguardPublicKey();
    const { deviceId, deviceToken } = await enrolDevice('Peer laptop', key);
    const peers = async () => {
      const res = await call('GET', `/devices/acme/${deviceId}`, owner);
      return res.json();
    };
    expect((await peers()).wireguard.publicKey).toBe(key);
    await call('POST', '/devices/acme/bulk', owner, { action: 'disable', ids: [deviceId] });
    expect(await stateOf(deviceId)).toBe('disabled');
    const disabled = await asDevice(deviceToken, '/device/checkin', { agentVersion: '1.0.0' });
    expect(disabled.json()).toMatchObject({ state: 'disabled', wireguard: null });
    await call('POST', '/devices/acme/bulk', owner, { action: 'enable', ids: [deviceId] });
    expect(await stateOf(deviceId)).toBe('active');
  });

  it('expires a key on request; the device rotates it and is active again with the same address', async () => {
    const { deviceId, deviceToken } = await enrolDevice('Rotating laptop', wireguardPublicKey());
    const before = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    const expired = await call('POST', `/devices/acme/${deviceId}/expire-key`, owner);
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json().state).toBe('expired');
    const answer = await asDevice(deviceToken, '/device/checkin', { agentVersion: '1.0.0' });
    expect(answer.json()).toMatchObject({ state: 'expired', wireguard: null });
    const next = wireguardPublicKey();
    const rotated = await asDevice(deviceToken, '/device/rotate', { publicKey: next });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().state).toBe('active');
    expect(rotated.json().wireguard.address).toBe(`${before.address}/32`);
    const after = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    expect(after.wireguard.publicKey).toBe(next);
    const bad = await asDevice(deviceToken, '/device/rotate', { publicKey: 'not-a-key' });
    expect(bad.statusCode).toBe(400);
  });

  it('sweeps keys whose lifetime ended into expired', async () => {
    const { deviceId } = await enrolDevice('Old key laptop', wireguardPublicKey());
    await f.database.db
      .update(devices)
      .set({ keyExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(devices.id, deviceId));
    const { expireDueKeys } = await import('./devices.service');
    expect(await expireDueKeys(f.database)).toBeGreaterThanOrEqual(1);
    expect(await stateOf(deviceId)).toBe('expired');
  });
});

describe('the client check-in', () => {
  it('answers 401 to a wrong credential', async () => {
    const res = await asDevice('pal_dev_wrong', '/device/checkin', { agentVersion: '1.0.0' });
    expect(res.statusCode).toBe(401);
  });

  it('keeps what the device reports: online, agent version, posture, an online stretch', async () => {
    const { deviceId, deviceToken } = await enrolDevice('Checkin laptop');
    const res = await asDevice(deviceToken, '/device/checkin', {
      agentVersion: '2.1.0',
      posture: { diskEncrypted: true, firewall: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().checkinSeconds).toBe(60);
    await asDevice(deviceToken, '/device/checkin', {
      agentVersion: '2.1.0',
      posture: { diskEncrypted: true },
    });
    const detail = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    expect(detail).toMatchObject({
      status: 'online',
      agentVersion: '2.1.0',
      posture: 'compliant',
      postureChecks: { diskEncrypted: true },
    });
    // Two check-ins a moment apart are one stretch online.
    expect(detail.sessions).toHaveLength(1);
    const online = await listed('status=online&q=checkin%20laptop');
    expect(online.items.map((d) => d.id)).toEqual([deviceId]);
    const bad = await asDevice(deviceToken, '/device/checkin', { agentVersion: 'latest' });
    expect(bad.statusCode).toBe(400);
  });

  it("stops a device's credential when its owner is deleted", async () => {
    const user = await call('POST', '/subscriber/user/acme', owner, {
      username: 'owner-gone@acme.test',
      firstname: 'Owner',
      lastname: 'Gone',
    });
    const link = await call('POST', `/enrolment/acme/users/${user.json().id}/link`, owner, {});
    const enrolled = await call('POST', '/enrol', undefined, {
      token: link.json().token,
      device: { name: 'Owned phone', os: 'android' },
    });
    const { deviceToken } = enrolled.json();
    expect((await asDevice(deviceToken, '/device/checkin', { agentVersion: '1.0.0' })).statusCode).toBe(200);
    const deleted = await call('DELETE', '/subscriber/user/acme', owner, { ids: [user.json().id] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await asDevice(deviceToken, '/device/checkin', { agentVersion: '1.0.0' })).statusCode).toBe(401);
  });
});

describe('one device', () => {
  it('shows the policies that apply to it and renames it', async () => {
    const { deviceId } = await enrolDevice('Detail laptop');
    const detail = await call('GET', `/devices/acme/${deviceId}`, owner);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ kind: 'endpoint', enrolledVia: 'rmm', wireguard: null });
    // A policy in no policy group applies to everyone, this device too.
    for (const policy of detail.json().policies) expect(policy.via.length).toBeGreaterThan(0);
    expect((await call('PUT', `/devices/acme/${deviceId}`, auditor, { name: 'x' })).statusCode).toBe(403);
    const empty = await call('PUT', `/devices/acme/${deviceId}`, owner, { name: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.map((d: { path: string }) => d.path)).toContain('body.name');
    const renamed = await call('PUT', `/devices/acme/${deviceId}`, owner, { name: 'Renamed laptop' });
    expect(renamed.json().name).toBe('Renamed laptop');
  });

  it('moves devices into a policy group, out of the ones they were in', async () => {
    const { deviceId } = await enrolDevice('Moving laptop');
    const group = await call('POST', '/policy/group/acme', owner, { name: 'Moved devices' });
    expect(group.statusCode, group.body).toBe(201);
    const moved = await call('POST', '/devices/acme/bulk', owner, {
      action: 'move',
      ids: [deviceId],
      policyGroupId: group.json().id,
    });
    expect(moved.json()).toEqual({ affected: 1 });
    const detail = (await call('GET', `/devices/acme/${deviceId}`, owner)).json();
    expect(detail.policyGroups).toEqual([{ id: group.json().id, name: 'Moved devices' }]);
    const other = await call('POST', '/devices/acme/bulk', owner, {
      action: 'move',
      ids: [deviceId],
      policyGroupId: UNKNOWN_ID,
    });
    expect(other.statusCode).toBe(404);
  });

  it('shows a site gateway as a device of kind site', async () => {
    const res = await call('GET', `/devices/acme/${siteGatewayId}`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'site', os: 'lgw', name: 'Branch Zeta', sessions: [] });
  });
});
