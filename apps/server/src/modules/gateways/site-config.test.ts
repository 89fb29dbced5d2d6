import { generateKeyPair } from '@palisade/gateway-config';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { SITE_CONFIG_TOPIC } from './site-config.repository';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

const wireguardPublicKey = () => generateKeyPair().publicKey;

let owner: string;
let auditor: string;
let billing: string;
let globex: string;
/** An enrolled site gateway of acme (its credential), a cybernode of acme, a site gateway of globex. */
let site: { id: string; credential: string };
let cybernodeId: string;
let globexSiteId: string;

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token?: string, payload?: unknown) =>
  f.app.inject({
    method,
    url: `/api${url}`,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const bundle = (credential: string, have?: string, wait = 0) =>
  f.app.inject({
    method: 'GET',
    url: `/api/gw/bundle?wait=${wait}`,
    headers: { authorization: `Bearer ${credential}`, ...(have ? { 'if-none-match': `"${have}"` } : {}) },
  });

async function createGateway(token: string, tenant: string, name: string, kind: string) {
  const res = await call('POST', `/cybernodes/${tenant}`, token, { name, kind, region: 'Berlin' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { cybernode: { id: string }; enrolmentToken: { token: string } };
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  const created = await createGateway(owner, 'acme', 'Branch office', 'cgw');
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.enrolmentToken.token,
      publicKey: wireguardPublicKey(),
      hostname: 'branch.acme.test',
      version: '1.0.0',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  site = { id: created.cybernode.id, credential: enrolled.json().credential };
  cybernodeId = (await createGateway(owner, 'acme', 'Frankfurt PoP', 'cybernode')).cybernode.id;
  globexSiteId = (await createGateway(globex, 'globex', 'Globex branch', 'lgw')).cybernode.id;
});

const LAN = { id: 1, name: 'Office', address: '192.168.1.1', prefix: 24, lanDhcp: false };
const CONFIG = {
  lans: [
    { ...LAN, lanDhcp: true, dhcpStart: '192.168.1.100', dhcpEnd: '192.168.1.200' },
    { id: 2, name: 'Guests', address: '192.168.20.1', prefix: 24, lanDhcp: false },
  ],
  vlans: [{ vlanId: 10, name: 'Voice', lanId: 1, address: '10.10.0.1', prefix: 16 }],
  wan: {
    mode: 'static',
    ips: [{ address: '203.0.113.10', prefix: 28 }],
    gateway: '203.0.113.1',
    dns: ['9.9.9.9'],
  },
  portForwards: [
    { name: 'Web', protocol: 'tcp', ports: '443', ip: '192.168.1.10', toPort: 8443, source: 'any' },
    { name: 'VoIP', protocol: 'udp', ports: '5060-5061', ip: '10.10.0.5', source: '198.51.100.0/24' },
  ],
  trafficFlows: [
    { name: 'SaaS direct', lanId: 1, via: 'wan', destination: '203.0.113.0/24' },
    { name: 'Rest via cybernode', lanId: 1, via: 'tunnel', destination: 'any' },
  ],
};
/** The smallest configuration that passes, with some rows replaced. */
const withRows = (rows: Record<string, unknown>) => ({ lans: [LAN], ...rows });
const url = (id: string, tenant = 'acme') => `/devices/${tenant}/${id}/site-config`;

describe('devices/{tenant}/{id}/site-config: who may', () => {
  it('answers 401 without a session, 403 without the permission, 404 for another tenant or a cybernode', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const body = method === 'PUT' ? CONFIG : undefined;
      expect((await call(method, url(site.id), undefined, body)).statusCode, method).toBe(401);
      // The billing administrator holds no gateway permission; the auditor views but does not change.
      expect((await call(method, url(site.id), billing, body)).statusCode, method).toBe(403);
      if (method === 'PUT') expect((await call(method, url(site.id), auditor, body)).statusCode).toBe(403);
      // Another tenant's gateway: through its tenant's path, and as an id of one's own tenant.
      expect((await call(method, url(site.id, 'globex'), owner, body)).statusCode, method).toBe(404);
      expect((await call(method, url(globexSiteId), owner, body)).statusCode, method).toBe(404);
      expect((await call(method, url(site.id, 'globex'), globex, body)).statusCode, method).toBe(404);
      // A cybernode has no site configuration.
      const pop = await call(method, url(cybernodeId), owner, body);
      expect(pop.statusCode, method).toBe(404);
      expect(pop.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await call('GET', url(site.id), auditor)).statusCode).toBe(200);
  });

  it('shows the empty configuration before the first save', async () => {
    const res = await call('GET', url(globexSiteId, 'globex'), globex);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      gatewayId: globexSiteId,
      kind: 'lgw',
      status: 'pending',
      lans: [],
      vlans: [],
      wan: { mode: 'dhcp', ips: [], dns: [] },
      portForwards: [],
      trafficFlows: [],
      updatedAt: null,
      appliedVersion: null,
      isApplied: false,
    });
  });
});

describe('devices/{tenant}/{id}/site-config: bad input', () => {
  const put = (body: unknown) => call('PUT', url(site.id), owner, body);
  const detailsOf = async (body: unknown) => {
    const res = await put(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errcode: 2, code: 'validation_failed' });
    return res.json().details as { path: string; message: string; values?: Record<string, string> }[];
  };

  it('refuses more than 10 LANs', async () => {
    const lans = Array.from({ length: 11 }, (_, i) => ({
      id: (i % 10) + 1,
      name: `LAN ${i}`,
      address: `192.168.${i}.1`,
      prefix: 24,
      lanDhcp: false,
    }));
    expect(await detailsOf({ lans })).toContainEqual({ path: 'body.lans', message: 'validation.maxLans' });
  });

  it('refuses VLAN id 4095, port 70000 and a bad source, each on its field', async () => {
    expect(
      await detailsOf(
        withRows({ vlans: [{ vlanId: 4095, name: 'V', lanId: 1, address: '10.1.0.1', prefix: 24 }] }),
      ),
    ).toContainEqual({ path: 'body.vlans.0.vlanId', message: 'validation.vlanId' });
    const forward = { name: 'F', protocol: 'tcp', ports: '70000', ip: '192.168.1.10', source: 'any' };
    expect(await detailsOf(withRows({ portForwards: [forward] }))).toContainEqual({
      path: 'body.portForwards.0.ports',
      message: 'validation.portList',
    });
    expect(
      await detailsOf(withRows({ portForwards: [{ ...forward, ports: '80', source: 'everyone' }] })),
    ).toContainEqual({ path: 'body.portForwards.0.source', message: 'validation.cidrOrAny' });
  });

  it('refuses a forward to a host outside the LANs and VLANs', async () => {
    const forwards = [
      { name: 'Inside', protocol: 'tcp', ports: '22', ip: '192.168.1.20', source: 'any' },
      { name: 'Outside', protocol: 'tcp', ports: '80', ip: '172.16.0.9', source: 'any' },
    ];
    expect(await detailsOf(withRows({ portForwards: forwards }))).toEqual([
      { path: 'body.portForwards.1.ip', message: 'validation.forwardOutsideLan' },
    ]);
  });

  it('names the ip and both sources of an ip/source duplicate, and a port forwarded twice', async () => {
    const forwards = [
      { name: 'Web', protocol: 'tcp', ports: '443', ip: '192.168.1.10', source: '198.51.100.0/24' },
      // Another source that does not overlap: fine.
      { name: 'Web 2', protocol: 'tcp', ports: '8443', ip: '192.168.1.10', source: '203.0.113.0/24' },
      // Overlaps the first one's source.
      { name: 'SSH', protocol: 'tcp', ports: '22', ip: '192.168.1.10', source: '198.51.100.128/25' },
      // Another host, but the first one's port.
      { name: 'Other web', protocol: 'tcp', ports: '400-500', ip: '192.168.1.11', source: 'any' },
    ];
    expect(await detailsOf(withRows({ portForwards: forwards }))).toEqual([
      {
        path: 'body.portForwards.2.ip',
        message: 'validation.ipSourceConflict',
        values: { ip: '192.168.1.10', source: '198.51.100.0/24', otherSource: '198.51.100.128/25' },
      },
      { path: 'body.portForwards.3.ports', message: 'validation.portForwarded', values: { name: 'Web' } },
    ]);
  });

  it('checks LAN networks, DHCP ranges, VLAN parents, the static WAN and flows', async () => {
    const details = await detailsOf({
      lans: [
        { ...LAN, lanDhcp: true },
        { id: 2, name: 'Public', address: '8.8.8.1', prefix: 24, lanDhcp: false },
        {
          id: 3,
          name: 'Range',
          address: '10.0.0.1',
          prefix: 24,
          lanDhcp: true,
          dhcpStart: '10.0.0.50',
          dhcpEnd: '10.0.0.20',
        },
        {
          id: 3,
          name: 'Twice',
          address: '10.0.1.1',
          prefix: 24,
          lanDhcp: true,
          dhcpStart: '10.0.1.1',
          dhcpEnd: '10.0.1.9',
        },
      ],
      vlans: [
        { vlanId: 5, name: 'Orphan', lanId: 9, address: '10.50.0.1', prefix: 24 },
        { vlanId: 6, name: 'Overlap', lanId: 1, address: '192.168.1.129', prefix: 25 },
      ],
      wan: {
        mode: 'static',
        ips: [{ address: '203.0.113.7', prefix: 29 }],
        gateway: '198.51.100.1',
        dns: [],
      },
      trafficFlows: [{ name: 'F', lanId: 7, via: 'wan', destination: 'any' }],
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'body.lans.0.dhcpStart', message: 'validation.required' },
        { path: 'body.lans.0.dhcpEnd', message: 'validation.required' },
        { path: 'body.lans.1.address', message: 'validation.privateRange' },
        { path: 'body.lans.2.dhcpEnd', message: 'validation.dhcpOrder' },
        { path: 'body.lans.3.id', message: 'validation.duplicate' },
        { path: 'body.lans.3.dhcpStart', message: 'validation.dhcpIncludesAddress' },
        { path: 'body.vlans.0.lanId', message: 'validation.unknownLan' },
        { path: 'body.vlans.1.address', message: 'validation.networkOverlap' },
        { path: 'body.wan.gateway', message: 'validation.gatewayOutside' },
        { path: 'body.trafficFlows.0.lanId', message: 'validation.unknownLan' },
      ]),
    );
    expect(await detailsOf(withRows({ wan: { mode: 'static', ips: [], dns: [] } }))).toContainEqual({
      path: 'body.wan.ips',
      message: 'validation.required',
    });
  });

  it('saves nothing when refused', async () => {
    await detailsOf(
      withRows({ vlans: [{ vlanId: 0, name: 'V', lanId: 1, address: '10.1.0.1', prefix: 24 }] }),
    );
    const logged = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.objectId, site.id), eq(adminEvents.action, 'gateway.siteConfig')));
    expect(logged).toEqual([]);
  });
});

describe('devices/{tenant}/{id}/site-config: saving', () => {
  it('round-trips, logs the change, and the gateway gets a new bundle with its DNAT rule at once', async () => {
    const before = (await bundle(site.credential)).json();
    expect(before.artefacts.site).toBeUndefined();

    const heard: (string | null)[] = [];
    const unsubscribe = f.changes.subscribe(SITE_CONFIG_TOPIC, (message) => heard.push(message));
    const waiting = bundle(site.credential, before.version, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const saved = await call('PUT', url(site.id), owner, CONFIG);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ...CONFIG, gatewayId: site.id, kind: 'cgw', name: 'Branch office' });
    expect(saved.json().updatedAt).toEqual(expect.any(String));

    // The held long-poll answers with the new version, its site artefacts carrying the configuration.
    const changed = await waiting;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(changed.statusCode).toBe(200);
    const next = changed.json();
    expect(next.version).not.toBe(before.version);
    // The tenant's part of the version is the same: only this gateway's own hash moved.
    expect(next.version.split('.')[0]).toBe(before.version.split('.')[0]);
    expect(next.artefacts.nftables).toBe(before.artefacts.nftables);
    expect(next.artefacts.site.nftables).toContain('table inet palisade_site');
    expect(next.artefacts.site.nftables).toContain(
      'iifname "wan0" tcp dport 443 dnat ip to 192.168.1.10:8443 comment "forward 1 Web"',
    );
    expect(next.artefacts.site.nftables).toContain(
      'iifname "wan0" ip saddr 198.51.100.0/24 udp dport 5060-5061 dnat ip to 10.10.0.5',
    );
    expect(next.artefacts.site.interfaces).toContain('ip link add link lan0 name lan0.10 type vlan id 10');
    expect(heard).toContain(`${f.acme.id}:${site.id}`);
    unsubscribe();

    // The version the screens and the heartbeat name is the bundle's.
    expect(saved.json().currentVersion).toBe(next.version);
    expect((await call('GET', `/cybernodes/acme/${site.id}`, owner)).json().currentVersion).toBe(
      next.version,
    );
    const beat = await f.app.inject({
      method: 'POST',
      url: '/api/gw/heartbeat',
      headers: { authorization: `Bearer ${site.credential}` },
      payload: {
        version: '1.0.0',
        enforcedVersion: next.version,
        metrics: {
          cpuPercent: 1,
          memoryPercent: 1,
          throughputBps: 0,
          uptimeSeconds: 1,
          activePeers: 0,
          connectedUsers: 0,
        },
        peers: [],
      },
    });
    expect(beat.json().currentVersion).toBe(next.version);

    // Read back: the same configuration, now enforced.
    const read = await call('GET', url(site.id), auditor);
    expect(read.json()).toMatchObject({
      ...CONFIG,
      currentVersion: next.version,
      appliedVersion: next.version,
      isApplied: true,
      status: 'online',
    });
    expect((await bundle(site.credential, next.version, 0)).statusCode).toBe(304);

    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.objectId, site.id), eq(adminEvents.action, 'gateway.siteConfig')));
    expect(event).toMatchObject({
      objectType: 'gateway',
      objectName: 'Branch office',
      actorName: 'admin@acme.test',
      before: { lans: [], portForwards: [] },
      after: { lans: CONFIG.lans, portForwards: CONFIG.portForwards },
    });

    // Saving the same configuration again keeps the version; another one moves it again.
    expect((await call('PUT', url(site.id), owner, CONFIG)).json().currentVersion).toBe(next.version);
    const fewer = await call('PUT', url(site.id), owner, { ...CONFIG, portForwards: [] });
    expect(fewer.json().currentVersion).not.toBe(next.version);
    expect((await bundle(site.credential)).json().artefacts.site.nftables).not.toContain('dnat ip to');
  });

  it('leaves cybernodes and other gateways without site artefacts', async () => {
    const other = await createGateway(owner, 'acme', 'Second branch', 'cgwr');
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/gw/enrol',
      payload: {
        token: other.enrolmentToken.token,
        publicKey: wireguardPublicKey(),
        hostname: 'second.acme.test',
        version: '1.0.0',
      },
    });
    const got = (await bundle(enrolled.json().credential)).json();
    expect(got.artefacts.site).toBeUndefined();
    expect(got.artefacts.wireguard).toContain('[Interface]');
  });

  it('refuses to configure a retired gateway (409)', async () => {
    const { cybernode } = await createGateway(owner, 'acme', 'Closed branch', 'cgw');
    const retired = await f.app.inject({
      method: 'DELETE',
      url: `/api/cybernodes/acme/${cybernode.id}`,
      headers: auth(owner),
    });
    expect(retired.statusCode).toBe(200);
    const res = await call('PUT', url(cybernode.id), owner, withRows({}));
    expect(res.statusCode).toBe(409);
    expect(res.json().details).toEqual([{ path: 'params.id', message: 'validation.gatewayRetired' }]);
  });
});
