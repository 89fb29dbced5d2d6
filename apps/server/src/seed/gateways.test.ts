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
    ).toEqual(['Branch Munich', 'HQ Berlin']);
    const enrolled = items.filter((g) => g.status !== 'pending');
    expect(enrolled.length).toBe(5);
    for (const gateway of enrolled) expect(gateway.enforcedVersion).toBe(gateway.currentVersion);
    expect(items.find((g) => g.name === 'Singapore PoP')?.status).toBe('pending');
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
