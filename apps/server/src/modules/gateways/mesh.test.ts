import { generateKeyPair } from '@palisade/gateway-config';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';

const f = useFixture();
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let owner: string;
let auditor: string;
let billing: string;
let globex: string;
let hub: Gateway;
let berlin: Gateway;
let munich: Gateway;
let cologne: Gateway;
let member: { id: string; deviceToken: string; address: string };
let outsider: { id: string; deviceToken: string; address: string };

interface Gateway {
  id: string;
  credential: string;
  publicKey: string;
  address: string;
}
interface Peer {
  publicKey: string;
  allowedIps: string[];
  endpoint?: string | null;
  gatewayId?: string;
}

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? { 'x-auth-token': token } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** The `[Peer]` sections of a WireGuard configuration: key, AllowedIPs and endpoint. */
function peersOf(config: string): Peer[] {
  return config
    .split('[Peer]')
    .slice(1)
    .map((section) => ({
      publicKey: /PublicKey = (\S+)/.exec(section)?.[1] as string,
      allowedIps: (/AllowedIPs = (.*)/.exec(section)?.[1] ?? '')
        .split(', ')
        .filter(Boolean)
        .map((ip) => (ip.includes('/') ? ip : `${ip}/32`)),
      endpoint: /Endpoint = (\S+)/.exec(section)?.[1] ?? null,
    }));
}

const wireguardOf = async (gateway: Gateway) => {
  const r = await f.app.inject({
    method: 'GET',
    url: '/api/gw/bundle?wait=0',
    headers: { authorization: `Bearer ${gateway.credential}` },
  });
  expect(r.statusCode, r.body).toBe(200);
  return peersOf(r.json().artefacts.wireguard as string);
};

const checkin = async (deviceToken: string) => {
  const r = await f.app.inject({
    method: 'POST',
    url: '/api/device/checkin',
    headers: { authorization: `Bearer ${deviceToken}` },
    payload: { agentVersion: '1.0.0' },
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().wireguard as { peers: (Peer & { gatewayId: string })[]; config: string };
};

async function enrolledGateway(name: string, kind: string, endpoint: string | null): Promise<Gateway> {
  const created = await call('POST', '/cybernodes/acme', owner, { name, kind, region: 'Lab' });
  expect(created.statusCode, created.body).toBe(201);
  const { publicKey } = generateKeyPair();
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey,
      hostname: `${name.toLowerCase().replace(/\W/g, '-')}.mesh.test`,
      version: '1.0.0',
      ...(endpoint ? { endpoint } : {}),
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  const shown = await call('GET', `/cybernodes/acme/${created.json().cybernode.id}`, owner);
  return {
    id: created.json().cybernode.id,
    credential: enrolled.json().credential,
    publicKey,
    address: shown.json().address,
  };
}

async function userWithDevice(name: string) {
  const created = await call('POST', '/subscriber/user/acme', owner, {
    username: `${name}@acme.test`,
    firstname: name,
    lastname: 'Mesh',
  });
  expect(created.statusCode, created.body).toBe(201);
  const link = await call('POST', `/enrolment/acme/users/${created.json().id}/link`, owner, {});
  const enrolled = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name: `${name} laptop`, os: 'linux' },
    publicKey: generateKeyPair().publicKey,
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return {
    id: created.json().id as string,
    deviceToken: enrolled.json().deviceToken as string,
    address: (enrolled.json().wireguard.address as string).replace('/32', ''),
  };
}

const host = (address: string) => `${address.split('/')[0]}/32`;
const lan = (address: string) => ({
  lans: [{ id: 1, name: 'Office', address, prefix: 24, lanDhcp: false }],
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  hub = await enrolledGateway('Hub Frankfurt', 'cybernode', '203.0.113.1:51820');
  berlin = await enrolledGateway('Mesh Berlin', 'cgw', '198.51.100.20:51820');
  munich = await enrolledGateway('Mesh Munich', 'cgw', null);
  cologne = await enrolledGateway('Mesh Cologne', 'lgw', null);
  for (const [site, address] of [
    [berlin, '10.20.0.1'],
    [munich, '10.30.0.1'],
    [cologne, '10.40.0.1'],
  ] as const) {
    const saved = await call('PUT', `/devices/acme/${site.id}/site-config`, owner, lan(address));
    expect(saved.statusCode, saved.body).toBe(200);
  }
  member = await userWithDevice('mesh-member');
  outsider = await userWithDevice('mesh-outsider');
});

const settings = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  hubId: hub.id,
  siteIds: [berlin.id, munich.id, cologne.id],
  userIds: [member.id],
  groupIds: [],
  ...overrides,
});

describe('the private-access mesh', () => {
  it('answers 401, 403 and 404 in that order', async () => {
    expect((await call('GET', '/devices/acme/spa/mesh')).statusCode).toBe(401);
    expect((await call('PUT', '/devices/acme/spa/mesh', undefined, settings())).statusCode).toBe(401);
    expect((await call('GET', '/devices/acme/spa/mesh', billing)).statusCode).toBe(403);
    expect((await call('PUT', '/devices/acme/spa/mesh', auditor, settings())).statusCode).toBe(403);
    expect((await call('GET', '/devices/acme/spa/mesh', globex)).statusCode).toBe(404);
    expect((await call('PUT', '/devices/acme/spa/mesh', globex, settings())).statusCode).toBe(404);
  });

  it('is off until saved, and the auditor may look', async () => {
    const shown = await call('GET', '/devices/acme/spa/mesh', auditor);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ enabled: false, hub: null, sites: [], nodes: [], issues: [] });
  });

  it('refuses what it cannot mesh, with the fields, and saves nothing', async () => {
    const globexHub = await call('POST', '/cybernodes/globex', globex, {
      name: 'Globex hub',
      kind: 'cybernode',
      region: 'Lab',
    });
    expect(globexHub.statusCode).toBe(201);
    const bad = await call(
      'PUT',
      '/devices/acme/spa/mesh',
      owner,
      settings({
        hubId: berlin.id,
        siteIds: [hub.id, globexHub.json().cybernode.id],
        userIds: [UNKNOWN_ID],
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([
      { path: 'body.hubId', message: 'validation.meshHub' },
      { path: 'body.siteIds.0', message: 'validation.meshSite' },
      { path: 'body.siteIds.1', message: 'validation.meshSite' },
      { path: 'body.userIds.0', message: 'validation.unknownUser' },
    ]);
    const empty = await call('PUT', '/devices/acme/spa/mesh', owner, settings({ siteIds: [] }));
    expect(empty.json().details).toEqual([{ path: 'body.siteIds', message: 'validation.required' }]);
    const malformed = await call('PUT', '/devices/acme/spa/mesh', owner, { enabled: 'yes', hubId: 'x' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['body.enabled', 'body.hubId']),
    );
    expect((await call('GET', '/devices/acme/spa/mesh', owner)).json().enabled).toBe(false);
  });

  it('peers the hub with every site and the sites with each other, and routes the devices through the hub', async () => {
    const before = await checkin(member.deviceToken);
    expect(before.peers.map((p) => p.gatewayId)).toEqual(expect.arrayContaining([berlin.id, munich.id]));

    const saved = await call('PUT', '/devices/acme/spa/mesh', owner, settings());
    expect(saved.statusCode, saved.body).toBe(200);
    const mesh = saved.json();
    expect(mesh).toMatchObject({
      enabled: true,
      hub: { id: hub.id, name: 'Hub Frankfurt' },
      sites: [
        { id: berlin.id, name: 'Mesh Berlin' },
        { id: cologne.id, name: 'Mesh Cologne' },
        { id: munich.id, name: 'Mesh Munich' },
      ],
      users: [{ id: member.id, name: 'mesh-member@acme.test' }],
      members: { users: 1, devices: 1 },
      issues: [],
    });
    expect(mesh.nodes.map((n: { name: string }) => n.name)).toEqual([
      'Hub Frankfurt',
      'Mesh Berlin',
      'Mesh Cologne',
      'Mesh Munich',
    ]);

    // The hub: every device as before, and each site with its tunnel address and LAN.
    const hubPeers = await wireguardOf(hub);
    expect(hubPeers).toContainEqual({
      publicKey: berlin.publicKey,
      allowedIps: ['10.20.0.0/24', host(berlin.address)],
      endpoint: '198.51.100.20:51820',
    });
    expect(hubPeers).toContainEqual({
      publicKey: munich.publicKey,
      allowedIps: ['10.30.0.0/24', host(munich.address)],
      endpoint: null,
    });
    expect(hubPeers.map((p) => p.allowedIps)).toContainEqual([`${member.address}/32`]);

    // Berlin (an endpoint): the hub (the devices behind it) and both other sites directly.
    const berlinPeers = await wireguardOf(berlin);
    expect(berlinPeers.map((p) => p.publicKey).sort()).toEqual(
      [hub.publicKey, munich.publicKey, cologne.publicKey].sort(),
    );
    expect(berlinPeers.find((p) => p.publicKey === hub.publicKey)).toEqual({
      publicKey: hub.publicKey,
      allowedIps: ['100.64.0.0/16', host(hub.address)],
      endpoint: '203.0.113.1:51820',
    });
    // Munich and Cologne (no endpoints): each other through the hub, Berlin directly; no device peers.
    const munichPeers = await wireguardOf(munich);
    expect(munichPeers.map((p) => p.publicKey).sort()).toEqual([hub.publicKey, berlin.publicKey].sort());
    expect(munichPeers.find((p) => p.publicKey === hub.publicKey)?.allowedIps).toEqual([
      '10.40.0.0/24',
      '100.64.0.0/16',
      host(hub.address),
      host(cologne.address),
    ]);
    expect(munichPeers.find((p) => p.publicKey === berlin.publicKey)).toMatchObject({
      allowedIps: ['10.20.0.0/24', host(berlin.address)],
      endpoint: '198.51.100.20:51820',
    });

    // The member's device: no site as a peer, the sites' tunnels and LANs (and the other devices) via the hub.
    const tunnel = await checkin(member.deviceToken);
    expect(tunnel.peers.map((p) => p.gatewayId)).not.toContain(berlin.id);
    expect(tunnel.peers.map((p) => p.gatewayId)).not.toContain(munich.id);
    const viaHub = tunnel.peers.find((p) => p.gatewayId === hub.id) as Peer;
    expect(viaHub.allowedIps).toEqual(
      expect.arrayContaining([
        '10.20.0.0/24',
        '10.30.0.0/24',
        '10.40.0.0/24',
        host(berlin.address),
        '100.64.0.0/16',
      ]),
    );
    expect(
      mesh.members.allowedIps.find((a: { gatewayId: string }) => a.gatewayId === hub.id).allowedIps,
    ).toEqual(viaHub.allowedIps);
    // Someone else's device reaches the sites' tunnels through the hub, but none of their networks.
    const other = (await checkin(outsider.deviceToken)).peers.find((p) => p.gatewayId === hub.id) as Peer;
    expect(other.allowedIps).toContain(host(munich.address));
    expect(other.allowedIps).not.toContain('10.30.0.0/24');
    expect(other.allowedIps).not.toContain('100.64.0.0/16');

    const recorded = await f.database.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.action, 'mesh.update'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0].after).toMatchObject({ enabled: true, hub: 'Hub Frankfurt' });
  });

  it('keeps a network two sites claim at the first, and reports it', async () => {
    await call('PUT', `/devices/acme/${cologne.id}/site-config`, owner, lan('10.20.0.1'));
    const mesh = (await call('GET', '/devices/acme/spa/mesh', owner)).json();
    expect(mesh.issues).toEqual([
      {
        code: 'conflict',
        gateways: [
          { id: berlin.id, name: 'Mesh Berlin' },
          { id: cologne.id, name: 'Mesh Cologne' },
        ],
        network: '10.20.0.0/24',
      },
    ]);
    // The hub took the change with the site's configuration (the mesh site's save moves the policy version).
    const cologneAtHub = (await wireguardOf(hub)).find((p) => p.publicKey === cologne.publicKey);
    expect(cologneAtHub?.allowedIps).toEqual([host(cologne.address)]);
    expect(cologneAtHub?.endpoint).toBeNull();
    const back = await call('PUT', `/devices/acme/${cologne.id}/site-config`, owner, lan('10.40.0.1'));
    expect(back.statusCode, back.body).toBe(200);
  });

  it('without a hub: devices reach the sites directly, and sites without endpoints cannot meet', async () => {
    const saved = await call('PUT', '/devices/acme/spa/mesh', owner, settings({ hubId: null }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().issues).toEqual([
      {
        code: 'unreachable',
        gateways: [
          { id: cologne.id, name: 'Mesh Cologne' },
          { id: munich.id, name: 'Mesh Munich' },
        ],
        network: null,
      },
    ]);
    const munichPeers = await wireguardOf(munich);
    expect(munichPeers.map((p) => p.allowedIps)).toContainEqual([`${member.address}/32`]);
    const tunnel = await checkin(member.deviceToken);
    expect(tunnel.peers.find((p) => p.gatewayId === munich.id)?.allowedIps).toContain('10.30.0.0/24');
    expect(
      (await checkin(outsider.deviceToken)).peers.find((p) => p.gatewayId === munich.id)?.allowedIps,
    ).not.toContain('10.30.0.0/24');
  });

  it('turned off, every gateway is as before', async () => {
    const saved = await call('PUT', '/devices/acme/spa/mesh', owner, settings({ enabled: false }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().nodes).toEqual([]);
    expect((await wireguardOf(hub)).map((p) => p.publicKey)).not.toContain(berlin.publicKey);
    expect((await wireguardOf(berlin)).map((p) => p.publicKey)).not.toContain(hub.publicKey);
    const tunnel = await checkin(member.deviceToken);
    expect(tunnel.peers.find((p) => p.gatewayId === berlin.id)?.allowedIps).not.toContain('10.20.0.0/24');
  });
});
