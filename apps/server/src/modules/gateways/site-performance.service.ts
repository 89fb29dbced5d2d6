import {
  GATEWAY_HEARTBEAT_MS,
  GATEWAY_OFFLINE_AFTER_MS,
  type GatewayStatus,
  SITE_PERFORMANCE_BUCKETS,
  type SitePerformance,
  type SitePerformancePoint,
  type SitePerformanceQuery,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import * as metrics from './site-metrics.repository';

/**
 * `/devices/site-performance`: each site gateway's heartbeats over a range, per bucket — latency (the round trip
 * the gateway measured), loss (the heartbeats expected in the complete minutes it was heard from that did not
 * arrive),
 * throughput (the mean the heartbeats reported) and uptime (the share of the bucket's minutes it was heard
 * from, counted from its enrolment; before it, and after now, nothing is expected).
 */

const MINUTE_MS = 60_000;
const BEATS_PER_MINUTE = MINUTE_MS / GATEWAY_HEARTBEAT_MS;

type Totals = Omit<metrics.BucketRow, 'gatewayId' | 'bucket'>;
const EMPTY: Totals = {
  minutes: 0,
  heartbeats: 0,
  completeMinutes: 0,
  completeHeartbeats: 0,
  latencyMsSum: 0,
  latencySamples: 0,
  throughputBpsSum: 0,
};

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The measures of some rolled-up minutes, out of `expectedMinutes` the gateway should have been heard in. */
function measures(totals: Totals, expectedMinutes: number) {
  const heard = totals.minutes > 0;
  return {
    latencyMs: totals.latencySamples > 0 ? round(totals.latencyMsSum / totals.latencySamples) : null,
    // Over complete minutes only: the current one's heartbeats are still arriving.
    lossPercent:
      totals.completeMinutes > 0
        ? round(
            Math.max(0, 100 * (1 - totals.completeHeartbeats / (totals.completeMinutes * BEATS_PER_MINUTE))),
          )
        : null,
    throughputBps: heard ? Math.round(totals.throughputBpsSum / totals.heartbeats) : null,
    // A bucket of only the current minute: heard from in it or not.
    uptimePercent:
      expectedMinutes > 0
        ? round(Math.min(100, (100 * totals.minutes) / expectedMinutes))
        : totals.minutes > 0
          ? 100
          : 0,
  };
}

const add = (a: Totals, b: Totals): Totals => ({
  minutes: a.minutes + b.minutes,
  heartbeats: a.heartbeats + b.heartbeats,
  completeMinutes: a.completeMinutes + b.completeMinutes,
  completeHeartbeats: a.completeHeartbeats + b.completeHeartbeats,
  latencyMsSum: a.latencyMsSum + b.latencyMsSum,
  latencySamples: a.latencySamples + b.latencySamples,
  throughputBpsSum: a.throughputBpsSum + b.throughputBpsSum,
});

/** The whole minutes of [from, to) that lie after `since` (a gateway is expected only once enrolled). */
function expectedMinutes(from: number, to: number, since: number | null): number {
  if (since === null) return 0;
  const start = Math.max(from, Math.ceil(since / MINUTE_MS) * MINUTE_MS);
  return Math.max(0, Math.floor((to - start) / MINUTE_MS));
}

function statusOf(
  site: { enrolled_at: string | null; last_seen_at: string | null },
  now: number,
): GatewayStatus {
  if (!site.enrolled_at) return 'pending';
  const seen = site.last_seen_at ? Date.parse(site.last_seen_at) : null;
  return seen !== null && now - seen <= GATEWAY_OFFLINE_AFTER_MS ? 'online' : 'offline';
}

export async function getSitePerformance(
  database: Database,
  ctx: Ctx,
  query: z.output<typeof SitePerformanceQuery>,
) {
  const { rangeMs, bucketMs } = SITE_PERFORMANCE_BUCKETS[query.range];
  const now = Date.now();
  // Whole buckets, the last one holding now.
  const first = Math.floor((now - rangeMs) / bucketMs) * bucketMs + bucketMs;
  const buckets = Array.from({ length: rangeMs / bucketMs }, (_, i) => first + i * bucketMs);
  const [sites, rows] = await database.tenantTx(ctx.tenant.id, async (tx) => [
    await metrics.siteGateways(tx, ctx.tenant.id, query.gatewayId),
    await metrics.siteBuckets(tx, ctx.tenant.id, new Date(first), bucketMs),
  ]);
  if (query.gatewayId && sites.length === 0) throw notFound('Site gateway');
  const byGateway = new Map<string, Map<number, metrics.BucketRow>>();
  for (const row of rows) {
    const own = byGateway.get(row.gatewayId) ?? new Map<number, metrics.BucketRow>();
    own.set(row.bucket, row);
    byGateway.set(row.gatewayId, own);
  }
  const items: SitePerformance[] = sites.map((site) => {
    const own = byGateway.get(String(site.id)) ?? new Map<number, metrics.BucketRow>();
    // Expected from its enrolment on — or from the first minute it was heard, when that is earlier (a gateway
    // enrolled again after a credential rotation keeps its history).
    const firstHeard = Math.min(...[...own.keys()]);
    const enrolled = site.enrolled_at ? Date.parse(site.enrolled_at) : null;
    const since = own.size > 0 ? Math.min(enrolled ?? firstHeard, firstHeard) : enrolled;
    let total = EMPTY;
    const series: SitePerformancePoint[] = buckets.map((start) => {
      const row = own.get(start) ?? EMPTY;
      total = add(total, row);
      return {
        at: new Date(start).toISOString(),
        ...measures(row, expectedMinutes(start, Math.min(start + bucketMs, now), since)),
      };
    });
    return {
      gatewayId: String(site.id),
      name: site.name,
      kind: site.kind,
      region: site.region,
      status: statusOf(site, now),
      summary: measures(total, expectedMinutes(first, now, since)),
      series,
    };
  });
  return {
    range: query.range,
    from: new Date(first).toISOString(),
    to: new Date(now).toISOString(),
    bucketMs,
    sites: items,
  };
}

/** Writes minutes already rolled up for a site gateway (the demo's history); minutes it has are kept. */
export function importSiteMinutes(
  database: Database,
  tenantId: string,
  gatewayId: string,
  minutes: Parameters<typeof metrics.insertSiteMinutes>[3],
) {
  return database.tenantTx(tenantId, (tx) => metrics.insertSiteMinutes(tx, tenantId, gatewayId, minutes));
}
