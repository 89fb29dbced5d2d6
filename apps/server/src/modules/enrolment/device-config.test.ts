import { createHash } from 'node:crypto';
import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { policyApi, rule } from '../policies/policies.test-kit';

/**
 * Issue 23: a device's WireGuard configuration handed out again for the standard WireGuard apps, "outdated" when
 * routes or gateways changed since, and the full tunnel a policy asks for.
 */

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const wireguardPublicKey = () => generateKeyPair().publicKey;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let owner: string;
let auditor: string;
let globexOwner: string;
const gatewayKey = wireguardPublicKey();
let hqId: string;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function enrolDevice(name: string, publicKey?: string, tenant = 'acme', token = owner) {
  const key = await call('POST', `/enrolment/${tenant}/keys`, token, { name: `Key ${name}` });
  expect(key.statusCode, key.body).toBe(201);
  const res = await call('POST', '/enrol', undefined, {
    token: key.json().token,
    device: { name, os: 'linux' },
    ...(publicKey ? { publicKey } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { deviceId: string; deviceToken: string; wireguard: { config: string } | null };
}

const download = (id: string, token = owner, tenant = 'acme') =>
  call('POST', `/devices/${tenant}/${id}/wireguard-config`, token);

async function detail(id: string) {
  const res = await call('GET', `/devices/acme/${id}`, owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function listedOutdated(id: string) {
  const res = await call('GET', '/devices/acme?kind=endpoint&limit=200', owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.find((item: { id: string }) => item.id === id)?.configOutdated;
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  globexOwner = await f.signIn('admin@globex.test');
  const created = await call('POST', '/cybernodes/acme', owner, {
    name: 'HQ',
    kind: 'cgw',
    region: 'Berlin',
  });
  expect(created.statusCode, created.body).toBe(201);
  hqId = created.json().cybernode.id;
  const enrolled = await call('POST', '/gw/enrol', undefined, {
    token: created.json().enrolmentToken.token,
    publicKey: gatewayKey,
    hostname: 'hq-gw',
    version: '1.0.0',
    endpoint: '198.51.100.7:51820',
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
});

describe('downloading a device configuration again', () => {
  it('answers 401 without a session, 403 to a read-only role, 404 for another tenant or no such device, 400 for a bad id', async () => {
    const { deviceId } = await enrolDevice('Access laptop', wireguardPublicKey());
    expect((await download(deviceId, '')).statusCode).toBe(401);
    expect((await download(deviceId, auditor)).statusCode).toBe(403);
    expect((await download(UNKNOWN_ID)).statusCode).toBe(404);
    const globex = await enrolDevice('Globex phone', wireguardPublicKey(), 'globex', globexOwner);
    expect((await download(globex.deviceId)).statusCode).toBe(404);
    // Nothing of the other tenant's device changed.
    expect((await download(globex.deviceId, globexOwner, 'globex')).statusCode).toBe(200);
    const bad = await download('not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toContain('params.id');
  });

  it('refuses a device without a tunnel with device_no_tunnel', async () => {
    const { deviceId } = await enrolDevice('Agentless box');
    const res = await download(deviceId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errcode: 44, code: 'device_no_tunnel' });
  });

  it('hands out the current configuration without the private key, records and audits it', async () => {
    const publicKey = wireguardPublicKey();
    const { deviceId, wireguard } = await enrolDevice('Phone of Ann', publicKey);
    const res = await download(deviceId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.config).toBe(wireguard?.config);
    expect(body.config).toContain('PrivateKey = @PALISADE_GATEWAY_PRIVATE_KEY@');
    expect(body.config).toContain('Endpoint = 198.51.100.7:51820');
    expect(body).toMatchObject({ publicKey, fullTunnel: false, fingerprint: sha256(body.config) });
    const shown = await detail(deviceId);
    expect(shown.configDownloadedAt).toBe(body.downloadedAt);
    expect(shown.configOutdated).toBe(false);
    const events = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.action, 'device.config.download'), eq(adminEvents.objectId, deviceId)));
    expect(events).toHaveLength(1);
    expect(events[0].after).toMatchObject({ fingerprint: body.fingerprint, peers: ['HQ'] });
  });

  it('says a downloaded configuration is outdated after a route change, until it is downloaded again', async () => {
    const { deviceId } = await enrolDevice('Outdated laptop', wireguardPublicKey());
    expect(await listedOutdated(deviceId)).toBe(false);
    // A route through the gateway adds a network to the device's AllowedIPs.
    await policies.create(owner, {
      type: 'route',
      name: 'Lab through HQ',
      rules: [rule({ name: 'Lab', type: 'ROUTE', action: 'route', url: '10.77.0.0/24', target: 'hq-gw' })],
    });
    expect(await listedOutdated(deviceId)).toBe(true);
    expect((await detail(deviceId)).configOutdated).toBe(true);
    const again = await download(deviceId);
    expect(again.json().config).toMatch(/AllowedIPs = 10\.77\.0\.0\/24/);
    expect(await listedOutdated(deviceId)).toBe(false);
  });

  it('says it is outdated after a gateway change (the peer the apps show was renamed)', async () => {
    const { deviceId } = await enrolDevice('Roaming laptop', wireguardPublicKey());
    expect(await listedOutdated(deviceId)).toBe(false);
    const renamed = await call('PUT', `/cybernodes/acme/${hqId}`, owner, {
      name: 'HQ Berlin',
      region: 'Berlin',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      expect(await listedOutdated(deviceId)).toBe(true);
    } finally {
      await call('PUT', `/cybernodes/acme/${hqId}`, owner, { name: 'HQ', region: 'Berlin' });
    }
    // Back as it was: the downloaded configuration is current again.
    expect(await listedOutdated(deviceId)).toBe(false);
  });

  it('keeps an agent that checks in current: it applies the configuration it is answered', async () => {
    const { deviceId, deviceToken } = await enrolDevice('Agent laptop', wireguardPublicKey());
    await policies.create(owner, {
      type: 'route',
      name: 'Backups through HQ',
      rules: [
        rule({ name: 'Backups', type: 'ROUTE', action: 'route', url: '10.78.0.0/24', target: 'hq-gw' }),
      ],
    });
    expect(await listedOutdated(deviceId)).toBe(true);
    const checkin = await f.app.inject({
      method: 'POST',
      url: '/api/device/checkin',
      headers: { authorization: `Bearer ${deviceToken}` },
      payload: { agentVersion: '1.0.0' },
    });
    expect(checkin.statusCode, checkin.body).toBe(200);
    expect(await listedOutdated(deviceId)).toBe(false);
  });

  it('gives the devices a full-tunnel policy applies to AllowedIPs 0.0.0.0/0, ::/0 with the gateway as DNS, and no one else', async () => {
    const inside = await enrolDevice('Full tunnel laptop', wireguardPublicKey());
    const outside = await enrolDevice('Split tunnel laptop', wireguardPublicKey());
    const policyId = await policies.create(owner, {
      type: 'route',
      name: 'Everything through the gateway',
      fullTunnel: true,
      rules: [],
    });
    const group = await call('POST', '/policy/group/acme', owner, {
      name: 'Full tunnel devices',
      policyIds: [policyId],
      deviceIds: [inside.deviceId],
    });
    expect(group.statusCode, group.body).toBe(201);
    // The device downloaded before: its configuration is outdated now.
    expect(await listedOutdated(inside.deviceId)).toBe(true);
    expect(await listedOutdated(outside.deviceId)).toBe(false);
    const full = (await download(inside.deviceId)).json();
    expect(full.fullTunnel).toBe(true);
    expect(full.config).toContain('AllowedIPs = 0.0.0.0/0, ::/0');
    expect(full.config).toContain('DNS = 100.100.0.1');
    expect((await detail(inside.deviceId)).fullTunnel).toBe(true);
    const split = (await download(outside.deviceId)).json();
    expect(split.fullTunnel).toBe(false);
    expect(split.config).not.toContain('0.0.0.0/0');
    expect(split.config).toContain('DNS = 100.100.0.1');
    // The option switched off: split again, and the full-tunnel download is outdated.
    const policy = await policies.get(owner, policyId);
    const off = await call('PUT', `/policy/acme/${policyId}`, owner, {
      type: policy.type,
      name: policy.name,
      fullTunnel: false,
      rules: [],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await listedOutdated(inside.deviceId)).toBe(true);
    expect((await download(inside.deviceId)).json().config).not.toContain('0.0.0.0/0');
  });
});
