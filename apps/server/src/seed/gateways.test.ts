import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { users } from '../db/schema';
import type { Ctx } from '../lib/context';
import { seedGateways } from './gateways';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let owner: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const [admin] = await f.database.db.select().from(users).where(eq(users.username, 'admin@acme.test'));
  const ctx: Ctx = {
    tenant: { id: f.acme.id, name: 'acme', kind: 'customer' },
    actor: {
      id: admin.id,
      username: admin.username,
      role: 'owner',
      usertype: 1,
      tenantId: f.acme.id,
      tenantName: 'acme',
      tenantKind: 'customer',
      sessionHash: '',
    },
    ip: null,
  };
  await seedGateways(f.database, ctx);
});

describe('demo gateways', () => {
  it('has cybernodes in several regions and two site gateways, enrolled ones on the current bundle', async () => {
    const list = await f.app.inject({ url: '/api/cybernodes/acme?limit=50', headers: auth(owner) });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Array<{
      name: string;
      kind: string;
      region: string;
      status: string;
      enforcedVersion: string | null;
      currentVersion: string;
    }>;
    const cloud = items.filter((g) => g.kind === 'cybernode');
    expect(new Set(cloud.map((g) => g.region)).size).toBeGreaterThanOrEqual(3);
    expect(
      items
        .filter((g) => ['cgw', 'cgwr', 'lgw'].includes(g.kind))
        .map((g) => g.name)
        .sort(),
    ).toEqual(['Branch Munich', 'HQ Berlin', 'Store Cologne']);
    const enrolled = items.filter((g) => g.status !== 'pending');
    expect(enrolled.length).toBe(6);
    for (const gateway of enrolled) expect(gateway.enforcedVersion).toBe(gateway.currentVersion);
    expect(items.find((g) => g.name === 'Singapore PoP')?.status).toBe('pending');
  });

  it('has the hosts the site gateways see on their LANs, with their vendors', async () => {
    const res = await f.app.inject({
      url: '/api/devices/acme/internal-devices?limit=100&sort=ip',
      headers: auth(owner),
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Array<{
      gatewayName: string;
      hostname: string | null;
      vendor: string | null;
      source: string;
      isActive: boolean;
    }>;
    expect(new Set(items.map((host) => host.gatewayName))).toEqual(
      new Set(['HQ Berlin', 'Branch Munich', 'Store Cologne']),
    );
    expect(items.length).toBeGreaterThanOrEqual(12);
    expect(items.every((host) => host.isActive)).toBe(true);
    const named = (hostname: string) => items.find((host) => host.hostname === hostname);
    expect(named('hq-printer-2og')).toMatchObject({
      gatewayName: 'HQ Berlin',
      vendor: 'HP Inc.',
      source: 'dhcp',
    });
    expect(named('hq-nas')).toMatchObject({ vendor: 'Synology Incorporated' });
    expect(named('cgn-pos-1')).toMatchObject({ gatewayName: 'Store Cologne', vendor: 'Verifone, Inc.' });
    // A phone with a private address has no vendor; an ARP entry no host name.
    expect(named('Pixel-8')).toMatchObject({ vendor: null });
    expect(items.some((host) => host.hostname === null && host.source === 'arp')).toBe(true);
  });

  it('answers to the host name a route names: a route through hq-cybernode goes through HQ Berlin', async () => {
    const created = await f.app.inject({
      method: 'POST',
      url: '/api/policy/acme',
      headers: auth(owner),
      payload: {
        type: 'route',
        name: 'Corporate networks',
        rules: [
          { name: 'Corporate', type: 'ROUTE', action: 'route', url: '10.0.0.0/8', target: 'hq-cybernode' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const routes = await f.app.inject({ url: '/api/policy/route/acme', headers: auth(owner) });
    const corporate = routes.json().items.find((r: { ruleName: string }) => r.ruleName === 'Corporate');
    expect(corporate.gateway).toMatchObject({ name: 'HQ Berlin' });
  });
});
