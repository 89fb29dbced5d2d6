import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../test/helper';
import { groups, userGroups, users } from '../db/schema';
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
  const ctx = await acmeOwnerCtx(f);
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
    expect(devices.filter((d: { connstatus: string }) => d.connstatus === 'connected')).toHaveLength(5);
    const agentless = (
      await f.app.inject({
        url: '/api/enrolment/acme/users?method=agentless&filter=with-devices',
        headers: auth(owner),
      })
    ).json();
    expect(agentless.total).toBe(1);
    const keys = (await f.app.inject({ url: '/api/enrolment/acme/keys', headers: auth(owner) })).json();
    expect(keys).toMatchObject([
      { name: 'Intune roll-out', uses: 4, autoGroups: [{ id: remoteWorkers, name: 'Remote workers' }] },
    ]);
    const members = await f.database.db
      .select()
      .from(userGroups)
      .where(eq(userGroups.groupId, remoteWorkers));
    expect(members).toHaveLength(2);
  });

  it('fills the device inventory: every endpoint OS, check-ins with posture, one waiting and one disabled', async () => {
    const list = (await f.app.inject({ url: '/api/devices/acme?limit=100', headers: auth(owner) })).json();
    const items = list.items as { os: string; state: string; posture: string; agentVersion: string | null }[];
    expect(new Set(items.map((d) => d.os))).toEqual(
      new Set(['windows', 'mac', 'linux', 'ios', 'android', 'chrome', 'none']),
    );
    expect(items.filter((d) => d.state === 'pending')).toHaveLength(1);
    expect(items.filter((d) => d.state === 'disabled')).toHaveLength(1);
    expect(new Set(items.map((d) => d.posture))).toEqual(new Set(['compliant', 'failing', 'unknown']));
    expect(items.filter((d) => d.agentVersion !== null)).toHaveLength(5);
  });
});
