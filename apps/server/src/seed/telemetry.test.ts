import { beforeAll, describe, expect, it } from 'vitest';
import { acmeOwnerCtx, useFixture } from '../../test/helper';
import { seedDevices } from './devices';
import { seedGateways } from './gateways';
import { seedTelemetry } from './telemetry';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
let owner: string;
const now = Date.now();

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const ctx = await acmeOwnerCtx(f);
  await seedDevices(f.database, ctx);
  await seedGateways(f.database, ctx);
  await seedTelemetry(f.database, ctx, now);
}, 120_000);

const get = async (url: string) => {
  const res = await f.app.inject({ url: `/api${url}`, headers: auth(owner) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const week = `from=${new Date(now - 7 * 86_400_000).toISOString()}&to=${new Date(now).toISOString()}`;

describe('the demo telemetry', () => {
  it('has a week of decisions, by day and night, allowed and blocked, through the ingest path', async () => {
    const overview = await get(`/telemetry/acme/overview?${week}`);
    expect(overview.bucket).toBe('hour');
    expect(overview.totals.decisions).toBeGreaterThan(15_000);
    expect(overview.totals.blocked).toBeGreaterThan(0);
    expect(overview.totals.connections).toBeGreaterThan(0);
    // A working rhythm: the busiest hour far above the quietest.
    const perHour = overview.series.map((p: { allowed: number; blocked: number }) => p.allowed + p.blocked);
    expect(Math.max(...perHour)).toBeGreaterThan(5 * Math.max(1, Math.min(...perHour)));
    expect(overview.layers.map((l: { allowed: number }) => l.allowed > 0)).toEqual([true, true, true]);
  });

  it('names the users and categories behind the decisions', async () => {
    const categories = await get(`/telemetry/acme/top?dimension=category&${week}`);
    expect(categories.items.length).toBeGreaterThan(3);
    const users = await get(`/telemetry/acme/top?dimension=user&${week}`);
    expect(users.items.length).toBeGreaterThan(0);
    expect(users.items[0].label).toMatch(/@/);
    const connections = await get('/events/connections/acme?limit=5');
    expect(connections.items[0]).toMatchObject({ device: { name: expect.any(String) } });
  });
});
