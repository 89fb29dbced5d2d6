import { generateKeyPairSync } from 'node:crypto';
import { MAX_LAN_NEIGHBOURS } from '@palisade/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { adminEvents } from '../../db/schema';
import { mergeNeighbours } from './internal-devices.service';
import { macVendor } from './mac-vendor';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

function wireguardPublicKey(): string {
  const der = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

let owner: string;
let auditor: string;
let billing: string;
let globex: string;
let berlin: { id: string; credential: string };
let munich: { id: string; credential: string };
let cloud: { id: string; credential: string };
let globexSite: { id: string; credential: string };

const call = (method: 'GET' | 'DELETE', url: string, token?: string) =>
  f.app.inject({ method, url: `/api${url}`, headers: token ? auth(token) : {} });

interface Neighbour {
  mac: string;
  ip: string;
  hostname?: string | null;
  source: 'dhcp' | 'arp';
  interface?: string;
}

const METRICS = {
  cpuPercent: 5,
  memoryPercent: 20,
  throughputBps: 0,
  uptimeSeconds: 60,
  activePeers: 0,
  connectedUsers: 0,
};

const heartbeat = (gateway: { credential: string }, neighbours?: unknown[]) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/heartbeat',
    headers: { authorization: `Bearer ${gateway.credential}` },
    payload: {
      version: '1.0.0',
      enforcedVersion: null,
      metrics: METRICS,
      peers: [],
      ...(neighbours ? { lan: { neighbours } } : {}),
    },
  });

async function enrolledGateway(token: string, tenant: string, name: string, kind: string) {
  const created = await f.app.inject({
    method: 'POST',
    url: `/api/cybernodes/${tenant}`,
    headers: auth(token),
    payload: { name, kind, region: 'Berlin' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: wireguardPublicKey(),
      hostname: `${name.toLowerCase().replace(/\W/g, '-')}.${tenant}.test`,
      version: '1.0.0',
    },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  return { id: created.json().cybernode.id as string, credential: enrolled.json().credential as string };
}

type Listed = {
  id: string;
  gatewayId: string;
  gatewayName: string;
  mac: string;
  ip: string;
  hostname: string | null;
  vendor: string | null;
  source: string;
  interface: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  isActive: boolean;
};

async function list(query = '', token = owner) {
  const res = await call('GET', `/devices/acme/internal-devices${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Listed[]; total: number | null; nextCursor: string | null };
}

const byMac = async (mac: string) => (await list('?limit=100')).items.find((item) => item.mac === mac);

// Real vendors' OUIs (IEEE MA-L): HP Inc. 50:81:40, Synology 00:11:32, Verifone 00:0b:4f.
const PRINTER = '50:81:40:12:34:56';
const NAS = '00:11:32:ab:cd:ef';
const POS = '00:0b:4f:00:00:01';
/** A phone's private (locally administered) address: no vendor. */
const PHONE = 'da:a1:19:01:02:03';

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  berlin = await enrolledGateway(owner, 'acme', 'Berlin Office', 'cgw');
  munich = await enrolledGateway(owner, 'acme', 'Munich Shop', 'lgw');
  cloud = await enrolledGateway(owner, 'acme', 'Cloud Edge', 'cybernode');
  globexSite = await enrolledGateway(globex, 'globex', 'Globex Site', 'cgwr');

  const first = await heartbeat(berlin, [
    // Leased and in the ARP table: one host, named by its lease, at the address it uses now.
    { mac: '50-81-40-12-34-56', ip: '10.1.0.20', hostname: 'printer-2og', source: 'dhcp', interface: 'eth1' },
    { mac: PRINTER.toUpperCase(), ip: '10.1.0.21', source: 'arp', interface: 'eth1' },
    { mac: NAS, ip: '10.1.0.5', hostname: 'nas', source: 'dhcp', interface: 'eth1' },
    { mac: PHONE, ip: '10.1.0.100', hostname: 'Pixel-8', source: 'dhcp', interface: 'eth1' },
  ] satisfies Neighbour[]);
  expect(first.statusCode, first.body).toBe(200);
  const munichBeat = await heartbeat(munich, [
    { mac: POS, ip: '10.2.0.9', hostname: null, source: 'arp', interface: 'br-lan' },
  ] satisfies Neighbour[]);
  expect(munichBeat.statusCode, munichBeat.body).toBe(200);
  expect(
    (await heartbeat(globexSite, [{ mac: '00:11:32:00:00:99', ip: '192.168.1.2', source: 'arp' }]))
      .statusCode,
  ).toBe(200);
});

describe('internal devices: access', () => {
  it('answers 401 without a session, 404 for another tenant, 403 without the permission', async () => {
    const some = (await list()).items[0];
    expect((await call('GET', '/devices/acme/internal-devices')).statusCode).toBe(401);
    expect((await call('GET', `/devices/acme/internal-devices/${some.id}`)).statusCode).toBe(401);
    expect((await call('DELETE', `/devices/acme/internal-devices/${some.id}`)).statusCode).toBe(401);

    expect((await call('GET', '/devices/globex/internal-devices', owner)).statusCode).toBe(404);
    expect((await call('GET', `/devices/globex/internal-devices/${some.id}`, owner)).statusCode).toBe(404);

    expect((await call('GET', '/devices/acme/internal-devices', billing)).statusCode).toBe(403);
    expect((await call('GET', `/devices/acme/internal-devices/${some.id}`, billing)).statusCode).toBe(403);
    expect((await call('DELETE', `/devices/acme/internal-devices/${some.id}`, auditor)).statusCode).toBe(403);
    // The auditor may look.
    expect((await call('GET', `/devices/acme/internal-devices/${some.id}`, auditor)).statusCode).toBe(200);
  });

  it("answers 404 for an id of another tenant's host, or an unknown one, and never lists another tenant's", async () => {
    const theirs = await call('GET', '/devices/globex/internal-devices', globex);
    expect(theirs.statusCode).toBe(200);
    const [globexHost] = theirs.json().items as Listed[];
    expect(globexHost).toMatchObject({ gatewayName: 'Globex Site', vendor: 'Synology Incorporated' });
    expect((await call('GET', `/devices/acme/internal-devices/${globexHost.id}`, owner)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/devices/acme/internal-devices/${globexHost.id}`, owner)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/devices/acme/internal-devices/${UNKNOWN_ID}`, owner)).statusCode).toBe(404);
    expect((await list('?limit=100')).items.map((item) => item.gatewayName)).not.toContain('Globex Site');
  });
});

describe('internal devices: input', () => {
  it('refuses a bad list query with the fields', async () => {
    const res = await call(
      'GET',
      '/devices/acme/internal-devices?sort=vendor&gatewayId=nope&limit=0&cursor=%21',
      owner,
    );
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.cursor', 'query.gatewayId', 'query.limit', 'query.sort']);
    const foreignCursor = await call(
      'GET',
      `/devices/acme/internal-devices?sort=ip&cursor=${Buffer.from('["hostname","asc","0","x","y"]').toString('base64url')}`,
      owner,
    );
    expect(foreignCursor.statusCode).toBe(400);
    expect(foreignCursor.json().details).toEqual([{ path: 'query.cursor', message: 'validation.invalid' }]);
  });

  it('refuses a heartbeat with a bad neighbour, naming the field, and keeps nothing of it', async () => {
    const bad = await heartbeat(berlin, [
      { mac: '00:11:32:00:00:01', ip: '10.1.0.30', source: 'arp' },
      { mac: '00:11:32:00:00', ip: '10.1.0.31', source: 'arp' },
      { mac: '00:11:32:00:00:02', ip: '10.1.0.999', source: 'mdns' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([
      { path: 'body.lan.neighbours.1.mac', message: 'validation.mac' },
      { path: 'body.lan.neighbours.2.ip', message: 'validation.ip' },
      { path: 'body.lan.neighbours.2.source', message: 'validation.choice' },
    ]);
    expect(await byMac('00:11:32:00:00:01')).toBeUndefined();

    const tooMany = Array.from({ length: MAX_LAN_NEIGHBOURS + 1 }, (_, i) => ({
      mac: `02:00:00:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
      ip: '10.1.0.1',
      source: 'arp',
    }));
    const flood = await heartbeat(berlin, tooMany);
    expect(flood.statusCode).toBe(400);
    expect(flood.json().details).toEqual([{ path: 'body.lan.neighbours', message: 'validation.tooMany' }]);
  });
});

describe('internal devices: from heartbeats', () => {
  it('lists the hosts a site gateway reports, with their vendor from the MAC', async () => {
    const printer = await byMac(PRINTER);
    expect(printer).toMatchObject({
      gatewayId: berlin.id,
      gatewayName: 'Berlin Office',
      ip: '10.1.0.21',
      hostname: 'printer-2og',
      vendor: 'HP Inc.',
      source: 'dhcp',
      interface: 'eth1',
      isActive: true,
    });
    expect(printer?.firstSeenAt).toBe(printer?.lastSeenAt);
    expect(await byMac(NAS)).toMatchObject({ vendor: 'Synology Incorporated', hostname: 'nas' });
    expect(await byMac(PHONE)).toMatchObject({ vendor: null, hostname: 'Pixel-8' });
    expect(await byMac(POS)).toMatchObject({
      gatewayName: 'Munich Shop',
      hostname: null,
      vendor: 'Verifone, Inc.',
      source: 'arp',
      interface: 'br-lan',
    });
    const detail = await call('GET', `/devices/acme/internal-devices/${printer?.id}`, owner);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toEqual(printer);
  });

  it('keeps first seen, moves last seen, and keeps a DHCP name an ARP report lacks', async () => {
    // Seen an hour ago; reported again now, from ARP only, at a new address.
    await f.database.db.execute(
      sql`update internal_devices set first_seen_at = now() - interval '2 hours',
            last_seen_at = now() - interval '1 hour' where mac = ${NAS}`,
    );
    const before = await byMac(NAS);
    expect(before?.isActive).toBe(false);
    const res = await heartbeat(berlin, [{ mac: NAS, ip: '10.1.0.6', source: 'arp', interface: 'eth1' }]);
    expect(res.statusCode, res.body).toBe(200);
    const after = await byMac(NAS);
    expect(after).toMatchObject({
      id: before?.id,
      ip: '10.1.0.6',
      hostname: 'nas',
      source: 'arp',
      isActive: true,
    });
    expect(after?.firstSeenAt).toBe(before?.firstSeenAt);
    expect(Date.parse(after?.lastSeenAt ?? '')).toBeGreaterThan(Date.parse(before?.lastSeenAt ?? ''));
    expect(Date.now() - Date.parse(after?.lastSeenAt ?? '')).toBeLessThan(60_000);
  });

  it('does not rewrite an unchanged host reported again within a minute, but does a changed one', async () => {
    const before = await byMac(NAS);
    await heartbeat(berlin, [{ mac: NAS, ip: '10.1.0.6', source: 'arp', interface: 'eth1' }]);
    expect((await byMac(NAS))?.lastSeenAt).toBe(before?.lastSeenAt);
    await heartbeat(berlin, [
      { mac: NAS, ip: '10.1.0.6', hostname: 'nas-2', source: 'dhcp', interface: 'eth1' },
    ]);
    const renamed = await byMac(NAS);
    expect(renamed).toMatchObject({ hostname: 'nas-2', source: 'dhcp', firstSeenAt: before?.firstSeenAt });
    expect(Date.parse(renamed?.lastSeenAt ?? '')).toBeGreaterThan(Date.parse(before?.lastSeenAt ?? ''));
    await heartbeat(berlin, [
      { mac: NAS, ip: '10.1.0.6', hostname: 'nas', source: 'dhcp', interface: 'eth1' },
    ]);
  });

  it("ignores a cybernode's LAN", async () => {
    const res = await heartbeat(cloud, [{ mac: '00:11:32:77:77:77', ip: '10.9.0.2', source: 'arp' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await byMac('00:11:32:77:77:77')).toBeUndefined();
  });

  it('pages with a cursor, filters by gateway and search, and sorts by host name and address', async () => {
    const all = await list('?sort=ip');
    expect(all.items.map((item) => item.ip)).toEqual(['10.1.0.6', '10.1.0.21', '10.1.0.100', '10.2.0.9']);
    expect(all.total).toBe(4);

    const first = await list('?sort=ip&limit=3');
    expect(first.items.map((item) => item.ip)).toEqual(['10.1.0.6', '10.1.0.21', '10.1.0.100']);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`?sort=ip&limit=3&cursor=${first.nextCursor}`);
    expect(second.items.map((item) => item.ip)).toEqual(['10.2.0.9']);
    expect(second.nextCursor).toBeNull();
    const offset = await list('?sort=ip&limit=3&offset=3');
    expect(offset.items.map((item) => item.ip)).toEqual(['10.2.0.9']);

    const names = await list('?sort=hostname');
    expect(names.items.map((item) => item.hostname)).toEqual(['nas', 'Pixel-8', 'printer-2og', null]);
    const namesDesc = await list('?sort=hostname&order=desc&limit=2');
    expect(namesDesc.items.map((item) => item.hostname)).toEqual([null, 'printer-2og']);
    const namesDescNext = await list(`?sort=hostname&order=desc&limit=2&cursor=${namesDesc.nextCursor}`);
    expect(namesDescNext.items.map((item) => item.hostname)).toEqual(['Pixel-8', 'nas']);

    expect((await list(`?gatewayId=${munich.id}`)).items.map((item) => item.mac)).toEqual([POS]);
    expect((await list('?q=synology')).items.map((item) => item.mac)).toEqual([NAS]);
    expect((await list('?q=50-81-40')).items.map((item) => item.mac)).toEqual([PRINTER]);
    expect((await list('?q=10.2.0')).items.map((item) => item.mac)).toEqual([POS]);
    expect((await list('?q=PIXEL')).items.map((item) => item.mac)).toEqual([PHONE]);
    expect((await list(`?q=pixel&gatewayId=${munich.id}`)).items).toEqual([]);
    expect((await list('?q=100%25')).total).toBe(0);

    // Last seen, latest first: the NAS was seen last.
    expect((await list('?sort=lastSeenAt&order=desc&limit=1')).items[0].mac).toBe(NAS);
  });

  it('forgets a host, logged; the gateway seeing it again lists it as new', async () => {
    const phone = await byMac(PHONE);
    const res = await call('DELETE', `/devices/acme/internal-devices/${phone?.id}`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('GET', `/devices/acme/internal-devices/${phone?.id}`, owner)).statusCode).toBe(404);
    expect((await call('DELETE', `/devices/acme/internal-devices/${phone?.id}`, owner)).statusCode).toBe(404);
    const [event] = await f.database.db
      .select()
      .from(adminEvents)
      .where(and(eq(adminEvents.action, 'internalDevice.forget'), eq(adminEvents.objectId, phone?.id ?? '')));
    expect(event).toMatchObject({ objectType: 'internalDevice', objectName: 'Pixel-8' });
    expect(event.before).toMatchObject({ mac: PHONE, ip: '10.1.0.100', gatewayName: 'Berlin Office' });

    await heartbeat(berlin, [{ mac: PHONE, ip: '10.1.0.101', source: 'arp' }]);
    const again = await byMac(PHONE);
    expect(again?.id).not.toBe(phone?.id);
    expect(again).toMatchObject({ hostname: null, ip: '10.1.0.101' });
  });

  it('goes away with its gateway', async () => {
    await f.database.db.execute(sql`delete from gateways where id = ${munich.id}`);
    expect(await byMac(POS)).toBeUndefined();
  });
});

describe('the API description', () => {
  it('documents the calls and the heartbeat’s LAN report', async () => {
    const res = await f.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/devices/{tenant}/internal-devices',
        '/devices/{tenant}/internal-devices/{id}',
      ]),
    );
    expect(JSON.stringify(doc.paths['/gw/heartbeat'])).toContain('neighbours');
  });
});

describe('merging a report', () => {
  it('makes one host per MAC: the lease names it, the ARP entry gives its address', () => {
    expect(
      mergeNeighbours([
        { mac: NAS, ip: '10.0.0.9', source: 'arp', hostname: null },
        { mac: NAS, ip: '10.0.0.5', source: 'dhcp', hostname: 'nas', interface: 'eth1' },
        { mac: PRINTER, ip: '10.0.0.7', source: 'dhcp', hostname: '' },
      ]),
    ).toEqual([
      {
        mac: NAS,
        ip: '10.0.0.9',
        hostname: 'nas',
        vendor: 'Synology Incorporated',
        source: 'dhcp',
        interface: 'eth1',
      },
      { mac: PRINTER, ip: '10.0.0.7', hostname: null, vendor: 'HP Inc.', source: 'dhcp', interface: null },
    ]);
  });

  it('finds vendors by the longest registered prefix, none for private or group addresses', () => {
    expect(macVendor('00:0B:4F:12:34:56')).toBe('Verifone, Inc.');
    // 10:06:48 is an MA-L block of the IEEE Registration Authority, split into MA-M blocks (7 hex digits).
    expect(macVendor('10-06-48-1a-bc-de')).toBe('KYTRONICS');
    // 00:1b:c5 is split into MA-S blocks (9 hex digits).
    expect(macVendor('00:1b:c5:00:1f:ff')).toBe('OpenRB.com, Direct SIA');
    expect(macVendor('da:a1:19:01:02:03')).toBeNull();
    expect(macVendor('01:00:5e:00:00:fb')).toBeNull();
    expect(macVendor('not a mac')).toBeNull();
  });
});
