import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let credential: string;
const gatewayKey = wireguardPublicKey();

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
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
});
