import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let auditor: string;
let billing: string;
let globex: string;
let site: { id: string; credential: string };
let cybernodeId: string;
let user: { id: string; deviceToken: string; address: string };

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundleOf = async (credential: string) =>
  (
    await f.app.inject({
      method: 'GET',
      url: '/api/gw/bundle?wait=0',
      headers: { authorization: `Bearer ${credential}` },
    })
  ).json();

const checkin = async (deviceToken: string) =>
  (
    await f.app.inject({
      method: 'POST',
      url: '/api/device/checkin',
      headers: { authorization: `Bearer ${deviceToken}` },
      payload: { agentVersion: '1.0.0' },
    })
  ).json();

async function enrolledGateway(name: string, kind: string) {
  const created = await call('POST', '/cybernodes/acme', owner, { name, kind, region: 'Berlin' });
  expect(created.statusCode, created.body).toBe(201);
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: wireguardPublicKey(),
      hostname: `${name.toLowerCase().replace(/\W/g, '-')}.acme.test`,
      version: '1.0.0',
      endpoint: '198.51.100.9:51820',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
}

/** An end user of acme with a device enrolled through their link with a WireGuard key. */
async function userWithDevice(name: string) {
  const created = await call('POST', '/subscriber/user/acme', owner, {
    username: `${name}@acme.test`,
    firstname: name,
    lastname: 'Remote',
  });
  expect(created.statusCode, created.body).toBe(201);
  const link = await call('POST', `/enrolment/acme/users/${created.json().id}/link`, owner, {});
  const enrolled = await call('POST', '/enrol', undefined, {
    token: link.json().token,
    device: { name: `${name} laptop`, os: 'linux' },
    publicKey: wireguardPublicKey(),
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return {
    id: created.json().id as string,
    deviceToken: enrolled.json().deviceToken as string,
    address: (enrolled.json().wireguard.address as string).replace('/32', ''),
  };
}

const service = (overrides: Record<string, unknown> = {}) => ({
  name: 'Wiki',
  gatewayId: site.id,
  address: '10.99.0.2',
  protocol: 'tcp',
  ports: '8080',
  userIds: [user.id],
  ...overrides,
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  site = await enrolledGateway('Branch Lab', 'cgw');
  cybernodeId = (await enrolledGateway('Cloud Lab', 'cybernode')).id;
  const saved = await call('PUT', `/devices/acme/${site.id}/site-config`, owner, {
    lans: [{ id: 1, name: 'Office', address: '10.99.0.1', prefix: 24, lanDhcp: false }],
  });
  expect(saved.statusCode, saved.body).toBe(200);
  user = await userWithDevice('wiki-reader');
});

describe('private services', () => {
  it('answers 401, 403 and 404 in that order', async () => {
    expect((await call('GET', '/devices/acme/spa/services')).statusCode).toBe(401);
    expect((await call('GET', '/devices/acme/spa/services', billing)).statusCode).toBe(403);
    expect((await call('POST', '/devices/acme/spa/services', auditor, service())).statusCode).toBe(403);
    expect((await call('PUT', `/devices/acme/spa/services/${UNKNOWN_ID}`, owner, service())).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/devices/acme/spa/services/${UNKNOWN_ID}`, owner)).statusCode).toBe(404);
  });

  it('refuses what it cannot publish, with the fields, and saves nothing', async () => {
    const bad = await call('POST', '/devices/acme/spa/services', owner, {
      ...service(),
      address: '10.98.0.2',
      ports: '70000',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['body.ports']);
    const outside = await call(
      'POST',
      '/devices/acme/spa/services',
      owner,
      service({ address: '10.98.0.2' }),
    );
    expect(outside.json().details).toEqual([
      { path: 'body.address', message: 'validation.forwardOutsideLan' },
    ]);
    const cloud = await call(
      'POST',
      '/devices/acme/spa/services',
      owner,
      service({ gatewayId: cybernodeId, userIds: [UNKNOWN_ID] }),
    );
    expect(cloud.json().details).toEqual([
      { path: 'body.gatewayId', message: 'validation.siteGateway' },
      { path: 'body.userIds.0', message: 'validation.unknownUser' },
    ]);
    expect((await call('GET', '/devices/acme/spa/services', owner)).json().items).toEqual([]);
  });

  it("guards the host at its site gateway, lets the user's device in on its port, and routes it there", async () => {
    const created = await call('POST', '/devices/acme/spa/services', owner, service());
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Wiki',
      gatewayName: 'Branch Lab',
      users: [{ id: user.id, name: 'wiki-reader@acme.test' }],
      groups: [],
    });
    const { artefacts } = await bundleOf(site.credential);
    expect(artefacts.ztna).toContain('elements = { 10.99.0.2 }');
    expect(artefacts.ztna).toContain(
      `ip saddr { ${user.address} } ip daddr { 10.99.0.2 } tcp dport { 8080 } accept`,
    );
    // The device routes the host through the site gateway.
    const answer = await checkin(user.deviceToken);
    const peer = answer.wireguard.peers.find((p: { gatewayId: string }) => p.gatewayId === site.id);
    expect(peer.allowedIps).toContain('10.99.0.2/32');
    const events = await f.database.db
      .select()
      .from(adminEvents)
      .where(
        and(eq(adminEvents.action, 'privateService.create'), eq(adminEvents.objectId, created.json().id)),
      );
    expect(events).toHaveLength(1);

    // Disabled: nothing guarded, nothing routed.
    const disabled = await call('PUT', `/devices/acme/spa/services/${created.json().id}`, owner, {
      ...service(),
      enabled: false,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await bundleOf(site.credential)).artefacts.ztna).toContain('# nothing guarded');
    const after = await checkin(user.deviceToken);
    expect(
      after.wireguard.peers.find((p: { gatewayId: string }) => p.gatewayId === site.id).allowedIps,
    ).not.toContain('10.99.0.2/32');
    expect((await call('DELETE', `/devices/acme/spa/services/${created.json().id}`, owner)).json()).toEqual({
      ok: true,
    });
  });

  it("keeps another tenant's services apart", async () => {
    const created = await call('POST', '/devices/acme/spa/services', owner, service({ name: 'Acme only' }));
    expect(created.statusCode).toBe(201);
    expect((await call('GET', '/devices/globex/spa/services', globex)).json().items).toEqual([]);
    const id = created.json().id;
    expect((await call('PUT', `/devices/globex/spa/services/${id}`, globex, service())).statusCode).toBe(404);
    expect((await call('DELETE', `/devices/globex/spa/services/${id}`, globex)).statusCode).toBe(404);
    expect((await call('GET', '/devices/acme/spa/services', globex)).statusCode).toBe(404);
    await call('DELETE', `/devices/acme/spa/services/${id}`, owner);
  });
});

describe('the ZTNA firewall', () => {
  it('answers 401 and 403, and refuses ports without a protocol', async () => {
    expect((await call('GET', '/devices/acme/ztna-firewall')).statusCode).toBe(401);
    expect((await call('GET', '/devices/acme/ztna-firewall', billing)).statusCode).toBe(403);
    const bad = await call('POST', '/devices/acme/ztna-firewall', owner, {
      name: 'SSH',
      gatewayId: site.id,
      destination: '10.99.0.0/24',
      protocol: 'any',
      ports: '22',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'body.ports', message: 'validation.portsNeedProtocol' }]);
  });

  it("lets a group's members' devices reach a network, and refuses a duplicate name", async () => {
    const group = await call('POST', '/groups/acme', owner, { name: 'Lab admins' });
    expect(group.statusCode, group.body).toBe(201);
    const member = await userWithDevice('lab-admin');
    const added = await call('POST', `/groups/acme/${group.json().id}/members`, owner, {
      userIds: [member.id],
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const rule = {
      name: 'Lab SSH',
      gatewayId: site.id,
      destination: '10.99.0.0/25',
      protocol: 'tcp',
      ports: '22',
      groupIds: [group.json().id],
    };
    const created = await call('POST', '/devices/acme/ztna-firewall', owner, rule);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().groups).toEqual([{ id: group.json().id, name: 'Lab admins' }]);
    const { artefacts } = await bundleOf(site.credential);
    expect(artefacts.ztna).toContain(
      `ip saddr { ${member.address} } ip daddr { 10.99.0.0/25 } tcp dport { 22 } accept`,
    );
    const answer = await checkin(member.deviceToken);
    expect(
      answer.wireguard.peers.find((p: { gatewayId: string }) => p.gatewayId === site.id).allowedIps,
    ).toContain('10.99.0.0/25');
    const again = await call('POST', '/devices/acme/ztna-firewall', owner, { ...rule, name: 'lab ssh' });
    expect(again.json().details).toEqual([{ path: 'body.name', message: 'validation.nameTaken' }]);
    expect((await call('GET', '/devices/acme/ztna-firewall', owner)).json().items).toHaveLength(1);
  });
});
