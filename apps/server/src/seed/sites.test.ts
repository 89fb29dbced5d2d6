import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../test/helper';
import { seedGateways } from './gateways';
import { seedSites } from './sites';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let owner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  // The fixture has Engineering; the demo's Support group too.
  const support = await f.app.inject({
    method: 'POST',
    url: '/api/groups/acme',
    headers: auth(owner),
    payload: { name: 'Support' },
  });
  expect(support.statusCode).toBe(201);
  const ctx = await acmeOwnerCtx(f);
  await seedGateways(f.database, ctx);
  await seedSites(f.database, ctx);
});

const get = async (url: string) => {
  const res = await f.app.inject({ url: `/api${url}`, headers: auth(owner) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('demo sites', () => {
  it('configures two site gateways, each with its LANs and VLANs, pushed in its bundle', async () => {
    const sites = (await get('/devices/acme?kind=site&limit=10')).items as { id: string; name: string }[];
    const configured = [];
    for (const site of sites) {
      const config = await get(`/devices/acme/${site.id}/site-config`);
      if (config.lans.length > 0) configured.push({ name: site.name, config });
    }
    expect(configured.map((site) => site.name).sort()).toEqual(['Branch Munich', 'HQ Berlin']);
    const hq = configured.find((site) => site.name === 'HQ Berlin')?.config;
    expect(hq.lans.map((lan: { name: string }) => lan.name)).toEqual(['Office', 'Servers']);
    expect(hq.vlans).toMatchObject([{ vlanId: 20, name: 'Guests' }]);
    expect(hq.portForwards).toHaveLength(2);
    expect(hq.currentVersion).not.toBe(hq.appliedVersion);
  });

  it('publishes the intranet to Engineering and lets Support reach the servers’ SSH', async () => {
    const services = (await get('/devices/acme/spa/services')).items;
    expect(services).toMatchObject([
      {
        name: 'Intranet',
        gatewayName: 'HQ Berlin',
        address: '192.168.10.20',
        groups: [{ name: 'Engineering' }],
      },
    ]);
    const rules = (await get('/devices/acme/ztna-firewall')).items;
    expect(rules).toMatchObject([
      { destination: '10.10.0.0/24', ports: '22', groups: [{ name: 'Support' }] },
    ]);
  });

  it('meshes HQ Berlin and Branch Munich, with the Frankfurt PoP as the hub for Engineering', async () => {
    const mesh = await get('/devices/acme/spa/mesh');
    expect(mesh).toMatchObject({
      enabled: true,
      hub: { name: 'Frankfurt PoP' },
      sites: [{ name: 'Branch Munich' }, { name: 'HQ Berlin' }],
      groups: [{ name: 'Engineering' }],
      issues: [],
    });
    const [hub, munich, berlin] = mesh.nodes;
    expect(hub.peers.map((peer: { name: string }) => peer.name)).toEqual(['Branch Munich', 'HQ Berlin']);
    expect(berlin.takesDevices).toBe(false);
    // HQ Berlin's offices and servers are reached there, from the hub and from Munich.
    expect(berlin.networks).toEqual(expect.arrayContaining(['10.10.0.0/16', '192.168.10.0/24']));
    // The intranet's host is inside the office LAN: routed with it, not listed again.
    expect(berlin.networks).not.toContain('192.168.10.20/32');
    expect(munich.peers.map((peer: { name: string }) => peer.name)).toEqual(['Frankfurt PoP', 'HQ Berlin']);
  });

  it('has Store Cologne enforce local controls for its shop network', async () => {
    const { items } = await get('/devices/acme/local-controls');
    const store = items.find((item: { name: string }) => item.name === 'Store Cologne');
    expect(store).toMatchObject({ categories: ['games', 'streaming-media'], countries: ['KP'] });
  });
});
