import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { groups, userGroups, users } from '../db/schema';
import type { Ctx } from '../lib/context';
import { seedDevices } from './devices';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let owner: string;
let remoteWorkers: string;

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  [{ id: remoteWorkers }] = await f.database.db
    .insert(groups)
    .values({ tenantId: f.acme.id, name: 'Remote workers' })
    .returning({ id: groups.id });
  await f.database.db.insert(users).values(
    Array.from({ length: 14 }, (_, i) => ({
      tenantId: f.acme.id,
      username: `demo${String(i).padStart(2, '0')}@acme.test`,
      email: `demo${String(i).padStart(2, '0')}@acme.test`,
      firstname: `Demo${i}`,
      lastname: 'User',
    })),
  );
  await f.database.db.insert(users).values({
    tenantId: f.acme.id,
    username: 'aaa-first@acme.test',
    email: 'aaa-first@acme.test',
    firstname: 'First',
    lastname: 'User',
  });
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
  await seedDevices(f.database, ctx);
});

describe('demo devices', () => {
  it('enrols devices by link and key, leaves links pending and keeps the Intune key', async () => {
    const list = (
      await f.app.inject({ url: '/api/enrolment/acme/users?limit=100', headers: auth(owner) })
    ).json();
    const states = list.items.map((row: { state: string }) => row.state);
    expect(states.filter((s: string) => s === 'enrolled')).toHaveLength(9);
    expect(states.filter((s: string) => s === 'pending')).toHaveLength(3);
    const devices = list.items.flatMap(
      (row: { devices: { os: string; connstatus: string }[] }) => row.devices,
    );
    expect(new Set(devices.map((d: { os: string }) => d.os)).size).toBeGreaterThanOrEqual(5);
    expect(devices.filter((d: { connstatus: string }) => d.connstatus === 'connected')).toHaveLength(3);
    const agentless = (
      await f.app.inject({
        url: '/api/enrolment/acme/users?method=agentless&filter=with-devices',
        headers: auth(owner),
      })
    ).json();
    expect(agentless.total).toBe(1);
    const keys = (await f.app.inject({ url: '/api/enrolment/acme/keys', headers: auth(owner) })).json();
    expect(keys).toMatchObject([
      { name: 'Intune roll-out', uses: 2, autoGroups: [{ id: remoteWorkers, name: 'Remote workers' }] },
    ]);
    const members = await f.database.db
      .select()
      .from(userGroups)
      .where(eq(userGroups.groupId, remoteWorkers));
    expect(members).toHaveLength(2);
  });
});
