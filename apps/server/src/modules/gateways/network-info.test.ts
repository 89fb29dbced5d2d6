import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { policyApi, rule } from '../policies/policies.test-kit';

const f = useFixture();
const policies = policyApi(f);
const auth = (token: string) => ({ 'x-auth-token': token });

const wireguardPublicKey = () => generateKeyPair().publicKey;

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown, headers = {}) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...(token ? auth(token) : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const METRICS = {
  cpuPercent: 10,
  memoryPercent: 20,
  throughputBps: 100,
  uptimeSeconds: 5,
  activePeers: 1,
  connectedUsers: 1,
};

let owner: string;
let auditor: string;
let billing: string;
let site: { id: string; credential: string };
let edge: { id: string; credential: string };
let deviceKey: string;
let routeId: string;
let deviceId: string;

/** Creates and enrols a gateway of acme, and reports one heartbeat with `peers`. */
async function gateway(name: string, kind: string, region: string, hostname: string) {
  const created = await call('POST', '/cybernodes/acme', owner, { name, kind, region });
  const enrolled = await call('POST', '/gw/enrol', undefined, {
    token: created.json().enrolmentToken.token,
    publicKey: wireguardPublicKey(),
    hostname,
    version: '1.2.0',
    endpoint: `${hostname}.example:51820`,
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
}

const beat = (credential: string, peers: unknown[]) =>
  call(
    'POST',
    '/gw/heartbeat',
    undefined,
    { version: '1.2.0', enforcedVersion: null, metrics: METRICS, peers },
    {
      authorization: `Bearer ${credential}`,
    },
  );

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  site = await gateway('Branch Munich', 'lgw', 'Munich', 'munich-gw');
  edge = await gateway('Frankfurt 1', 'cybernode', 'eu-central', 'fra1');
  // A user's device enrols with its key through a deployment key.
  const user = await call('POST', '/subscriber/user/acme', owner, {
    username: 'tunnel@acme.test',
    firstname: 'Tunnel',
    lastname: 'User',
  });
  expect(user.statusCode, user.body).toBe(201);
  const key = await call('POST', '/enrolment/acme/keys', owner, { name: 'Roll-out' });
  deviceKey = wireguardPublicKey();
  const enrolled = await call('POST', '/enrol', undefined, {
    token: key.json().token,
    device: { name: 'Tunnel laptop', os: 'linux' },
    username: 'tunnel@acme.test',
    publicKey: deviceKey,
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  deviceId = enrolled.json().deviceId;
  const now = new Date().toISOString();
  const stale = new Date(Date.now() - 3_600_000).toISOString();
  const unknownKey = wireguardPublicKey();
  expect(
    (await beat(site.credential, [{ publicKey: deviceKey, lastHandshakeAt: now, rxBytes: 10, txBytes: 20 }]))
      .statusCode,
  ).toBe(200);
  expect(
    (await beat(edge.credential, [{ publicKey: unknownKey, lastHandshakeAt: stale, rxBytes: 1, txBytes: 2 }]))
      .statusCode,
  ).toBe(200);
  const policy = await policies.call('POST', '/api/policy/acme', owner, {
    type: 'route',
    name: 'Munich servers',
    rules: [
      rule({ name: 'Munich LAN', type: 'ROUTE', action: 'route', url: '10.20.0.0/16', target: 'munich-gw' }),
    ],
  });
  expect(policy.statusCode, policy.body).toBe(201);
  routeId = policy.json().policy.rules[0].id;
});

const CALLS = ['/dynamicinfo/cgw', '/system/exedgeinfo', '/ocnconfig', '/ocn/virtsess', '/sase/cgwsusers'];

describe('the live-state calls of spec §7 and policy/route', () => {
  it('answers 401 without a session and 403 to a role without gateways:view or policies:view', async () => {
    for (const url of [...CALLS, '/policy/route/acme', `/policy/route/acme/${routeId}`]) {
      expect((await call('GET', url)).statusCode, url).toBe(401);
      expect((await call('GET', url, billing)).statusCode, url).toBe(403);
    }
  });

  it("answers 404 for another tenant's routes and an unknown route, 400 for a bad product or id", async () => {
    const globex = await f.signIn('admin@globex.test');
    expect((await call('GET', '/policy/route/acme', globex)).statusCode).toBe(404);
    expect((await call('GET', `/policy/route/globex/${routeId}`, globex)).statusCode).toBe(404);
    expect(
      (await call('GET', '/policy/route/acme/00000000-0000-4000-8000-000000000000', owner)).statusCode,
    ).toBe(404);
    const badId = await call('GET', '/policy/route/acme/nope', owner);
    expect(badId.statusCode).toBe(400);
    expect(badId.json().details.map((d: { path: string }) => d.path)).toEqual(['params.id']);
    const badProduct = await call('GET', '/Bad_Product!/cgwsusers', owner);
    expect(badProduct.statusCode).toBe(400);
    expect(badProduct.json().details).toEqual([{ path: 'params.product', message: 'validation.invalid' }]);
    // Another tenant sees none of acme's gateways or tunnels.
    expect((await call('GET', '/ocn/virtsess', globex)).json().items).toEqual([]);
  });

  it('dynamicinfo/cgw: the site gateways with their peers, the device and user behind each key', async () => {
    const res = await call('GET', '/dynamicinfo/cgw', auditor);
    expect(res.statusCode, res.body).toBe(200);
    const { items, isTruncated } = res.json();
    expect(isTruncated).toBe(false);
    expect(items.map((g: { name: string }) => g.name)).toEqual(['Branch Munich']);
    expect(items[0]).toMatchObject({ status: 'online', version: '1.2.0', metrics: METRICS });
    expect(items[0].peers).toEqual([
      {
        publicKey: deviceKey,
        device: { id: expect.any(String), name: 'Tunnel laptop' },
        user: { id: expect.any(String), username: 'tunnel@acme.test' },
        lastHandshakeAt: expect.any(String),
        rxBytes: 10,
        txBytes: 20,
        isActive: true,
      },
    ]);
  });

  it('system/exedgeinfo: the cybernodes by region; ocnconfig: the overlay addressing', async () => {
    const edges = (await call('GET', '/system/exedgeinfo', auditor)).json();
    expect(edges.items.map((g: { name: string }) => g.name)).toEqual(['Frankfurt 1']);
    expect(edges.items[0]).toMatchObject({ serverName: 'fra1', region: 'eu-central', status: 'online' });
    expect(edges.regions).toEqual([{ region: 'eu-central', total: 1, online: 1 }]);

    const ocn = (await call('GET', '/ocnconfig', auditor)).json();
    expect(ocn.deviceNetwork).toBe('100.64.0.0/16');
    const munich = ocn.gateways.find((g: { id: string }) => g.id === site.id);
    expect(munich).toMatchObject({ endpoint: 'munich-gw.example:51820', listenPort: 51820 });
    expect(munich.network).toMatch(/^100\.100\.\d+\.0\/24$/);
    expect(ocn.dns.resolvers).toContain(munich.network.replace('0/24', '1'));
    expect(ocn).toMatchObject({ heartbeatMs: 5000, offlineAfterMs: 15000, bundleMaxWaitSeconds: 60 });
  });

  it('ocn/virtsess lists active tunnels first; cgwsusers names the users behind the site gateways', async () => {
    const sessions = (await call('GET', '/ocn/virtsess', auditor)).json().items;
    expect(
      sessions.map((s: { isActive: boolean; gateway: { name: string } }) => [s.gateway.name, s.isActive]),
    ).toEqual([
      ['Branch Munich', true],
      ['Frankfurt 1', false],
    ]);
    expect(sessions[1].device).toBeNull();
    const users = (await call('GET', '/sase/cgwsusers', auditor)).json().items;
    expect(users).toEqual([
      {
        userId: expect.any(String),
        username: 'tunnel@acme.test',
        devices: 1,
        gateways: [{ id: site.id, name: 'Branch Munich' }],
        lastHandshakeAt: expect.any(String),
        isActive: true,
      },
    ]);
  });

  it('policy/route lists every ROUTE rule in evaluation order, each route with its gateway, and one by id', async () => {
    const printer = await policies.create(owner, {
      type: 'other',
      name: 'Routes user',
      rules: [
        rule({ name: 'DNS only', url: 'x.example' }),
        rule({ name: 'Printer', type: 'ROUTE', url: '10.9.9.9', ports: '631' }),
      ],
    });
    const res = await call('GET', '/policy/route/acme', auditor);
    expect(res.statusCode).toBe(200);
    const { items } = res.json() as {
      items: { policyId: string; ruleName: string; system: boolean; type: string }[];
    };
    expect(items.every((r) => r.type === 'ROUTE')).toBe(true);
    // User policies are evaluated before device (route) policies; system threat-intel IP rules before both.
    const mine = items.filter((r) => !r.system);
    expect(mine.map((r) => r.ruleName)).toEqual(['Printer', 'Munich LAN']);
    const system = items.findIndex((r) => r.system);
    expect(system).toBeGreaterThanOrEqual(0);
    expect(system).toBeLessThan(items.findIndex((r) => r.ruleName === 'Printer'));
    expect(items.find((r) => r.ruleName === 'Printer')).toMatchObject({
      policyId: printer,
      action: 'block',
      ports: '631',
      networks: ['10.9.9.9'],
      gateway: null,
    });
    const route = items.find((r) => r.ruleName === 'Munich LAN');
    expect(route).toEqual({
      policyId: expect.any(String),
      policyName: 'Munich servers',
      ruleId: routeId,
      ruleName: 'Munich LAN',
      type: 'ROUTE',
      action: 'route',
      system: false,
      url: '10.20.0.0/16',
      target: 'munich-gw',
      ports: '',
      networks: ['10.20.0.0/16'],
      isActive: true,
      gateway: { id: site.id, name: 'Branch Munich', status: 'online' },
    });
    expect((await call('GET', `/policy/route/acme/${routeId}`, auditor)).json()).toEqual(route);
  });

  it('shows a route as one device gets it: the engine routes its traffic through the gateway its tunnel reaches', async () => {
    const url = `/policy/route/acme/${routeId}/device/${deviceId}`;
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('GET', url, billing)).statusCode).toBe(403);
    const globex = await f.signIn('admin@globex.test');
    expect((await call('GET', `/policy/route/globex/${routeId}/device/${deviceId}`, globex)).statusCode).toBe(
      404,
    );
    expect(
      (await call('GET', `/policy/route/acme/${routeId}/device/00000000-0000-4000-8000-000000000000`, owner))
        .statusCode,
    ).toBe(404);
    const bad = await call('GET', `/policy/route/acme/${routeId}/device/nope`, owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['params.deviceId']);

    const res = await call('GET', url, auditor);
    expect(res.statusCode, res.body).toBe(200);
    const shown = res.json();
    expect(shown).toMatchObject({
      route: { ruleId: routeId, gateway: { name: 'Branch Munich' } },
      device: { id: deviceId, name: 'Tunnel laptop', user: { username: 'tunnel@acme.test' } },
      destination: '10.20.0.1',
      decision: 'allow',
      gatewayTarget: 'munich-gw',
      decidedBy: { ruleId: routeId },
      isThisRoute: true,
    });
    expect(shown.device.address).toMatch(/^100\.64\.\d+\.\d+\/32$/);
    expect(shown.allowedIps).toContain('10.20.0.0/16');

    // The simulator decides the same for the same device and destination.
    const simulated = await call('POST', '/policy/simulate/acme', auditor, {
      request: { userId: shown.device.user.id, deviceId, destination: '10.20.0.1' },
    });
    expect(simulated.statusCode, simulated.body).toBe(200);
    expect(simulated.json()).toMatchObject({ decision: 'allow', gateway: 'munich-gw' });
  });
});
