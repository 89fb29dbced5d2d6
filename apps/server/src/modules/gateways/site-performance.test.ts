import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });
const METRICS = {
  cpuPercent: 5,
  memoryPercent: 20,
  throughputBps: 4_000,
  uptimeSeconds: 100,
  activePeers: 1,
  connectedUsers: 1,
};

let owner: string;
let billing: string;
let globex: string;
let site: { id: string; credential: string };

const get = (url: string, token = owner) =>
  f.app.inject({ method: 'GET', url: `/api${url}`, headers: auth(token) });

const beat = (latencyMs?: number, throughputBps = 4_000) =>
  f.app.inject({
    method: 'POST',
    url: '/api/gw/heartbeat',
    headers: { authorization: `Bearer ${site.credential}` },
    payload: {
      version: '1.0.0',
      enforcedVersion: null,
      metrics: { ...METRICS, throughputBps },
      peers: [],
      ...(latencyMs === undefined ? {} : { latencyMs }),
    },
  });

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  billing = await f.signIn('billing@acme.test');
  globex = await f.signIn('admin@globex.test');
  const created = await f.app.inject({
    method: 'POST',
    url: '/api/cybernodes/acme',
    headers: auth(owner),
    payload: { name: 'Perf site', kind: 'lgw', region: 'Bonn' },
  });
  const enrolled = await f.app.inject({
    method: 'POST',
    url: '/api/gw/enrol',
    payload: {
      token: created.json().enrolmentToken.token,
      publicKey: generateKeyPair().publicKey,
      hostname: 'perf-site',
      version: '1.0.0',
    },
  });
  site = { id: created.json().cybernode.id, credential: enrolled.json().credential };
  // Enrolled two hours ago: the whole last hour is expected.
  await f.database.db.execute(
    sql`update gateways set enrolled_at = now() - interval '2 hours' where id = ${site.id}`,
  );
});

describe('site performance', () => {
  it('answers 401, 403, 404 for another tenant’s gateway, and 400 for a bad range', async () => {
    expect((await f.app.inject({ url: '/api/devices/acme/site-performance' })).statusCode).toBe(401);
    expect((await get('/devices/acme/site-performance', billing)).statusCode).toBe(403);
    expect((await get(`/devices/globex/site-performance?gatewayId=${site.id}`, globex)).statusCode).toBe(404);
    const bad = await get('/devices/acme/site-performance?range=2d');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toEqual(['query.range']);
  });

  it('rolls heartbeats up per minute: latency measured, missing heartbeats as loss, minutes heard as uptime', async () => {
    // Three heartbeats this minute, two with the previous round trip (not across a minute's end).
    const second = new Date().getUTCSeconds();
    if (second >= 55) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    expect((await beat()).statusCode).toBe(200);
    expect((await beat(30, 2_000)).statusCode).toBe(200);
    expect((await beat(50, 6_000)).statusCode).toBe(200);
    // And a full minute half an hour ago.
    await f.database.db.execute(
      sql`insert into site_metrics (tenant_id, gateway_id, minute, heartbeats, latency_ms_sum, latency_samples,
          throughput_bps_sum, active_peers_max)
        values (${f.acme.id}, ${site.id}, date_trunc('minute', now() - interval '30 minutes'), 12, 240, 12,
          120000, 2)`,
    );
    const res = await get(`/devices/acme/site-performance?range=1h&gatewayId=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.bucketMs).toBe(60_000);
    const [perf] = body.sites;
    expect(perf).toMatchObject({ gatewayId: site.id, name: 'Perf site', kind: 'lgw', status: 'online' });
    expect(perf.series).toHaveLength(60);
    const last = perf.series.at(-1);
    // The current minute is still arriving: its heartbeats are no loss yet.
    expect(last).toMatchObject({
      latencyMs: 40,
      throughputBps: 4_000,
      lossPercent: null,
      uptimePercent: 100,
    });
    const older = perf.series.find((point: { latencyMs: number | null }) => point.latencyMs === 20);
    expect(older).toMatchObject({ lossPercent: 0, throughputBps: 10_000, uptimePercent: 100 });
    // Minutes not heard from are gaps, not zeros.
    expect(perf.series.filter((point: { latencyMs: number | null }) => point.latencyMs === null).length).toBe(
      58,
    );
    // Two minutes heard out of the hour's 59 whole minutes so far.
    expect(perf.summary.uptimePercent).toBeCloseTo((100 * 2) / 59, 0);
    expect(perf.summary.latencyMs).toBe(Math.round(((240 + 80) / 14) * 10) / 10);
  });

  it("lists every site gateway of the tenant, not cybernodes, and never another tenant's", async () => {
    const all = (await get('/devices/acme/site-performance?range=7d')).json();
    expect(all.bucketMs).toBe(7_200_000);
    expect(all.sites.map((s: { name: string }) => s.name)).toEqual(['Perf site']);
    expect((await get('/devices/globex/site-performance', globex)).json().sites).toEqual([]);
  });
});
