import { z } from 'zod';
import { Uuid } from './common';
import { endpoint } from './endpoint';
import { GATEWAY_STATUSES, SITE_GATEWAY_KINDS } from './gateways';
import { TenantParams } from './tenants';

/**
 * `/devices/site-performance` (issue 11): per site gateway, over a time range, what its heartbeats say —
 * latency (the round trip the gateway measured for its previous heartbeat), loss (the share of expected
 * heartbeats, one per 5 s, that did not arrive), throughput, and tunnel uptime (the share of minutes it was
 * heard from). Rolled up per minute as heartbeats arrive; the telemetry issue's store deepens it.
 */

export const SITE_PERFORMANCE_RANGES = ['1h', '24h', '7d'] as const;
export type SitePerformanceRange = (typeof SITE_PERFORMANCE_RANGES)[number];
/** The range of each choice and the width of one point of its series. */
export const SITE_PERFORMANCE_BUCKETS: Record<SitePerformanceRange, { rangeMs: number; bucketMs: number }> = {
  '1h': { rangeMs: 3_600_000, bucketMs: 60_000 },
  '24h': { rangeMs: 86_400_000, bucketMs: 900_000 },
  '7d': { rangeMs: 604_800_000, bucketMs: 7_200_000 },
};
/** How long the per-minute rollups are kept. */
export const SITE_METRICS_RETENTION_DAYS = 30;

/** One point of a site's series; the measures are null where the gateway was not heard from at all. */
export const SitePerformancePoint = z.object({
  at: z.string(),
  latencyMs: z.number().nullable(),
  lossPercent: z.number().nullable(),
  throughputBps: z.number().nullable(),
  /** The share of the point's minutes with at least one heartbeat. */
  uptimePercent: z.number(),
});
export type SitePerformancePoint = z.infer<typeof SitePerformancePoint>;

export const SitePerformanceSummary = z.object({
  latencyMs: z.number().nullable(),
  lossPercent: z.number().nullable(),
  throughputBps: z.number().nullable(),
  uptimePercent: z.number(),
});

export const SitePerformance = z.object({
  gatewayId: z.string(),
  name: z.string(),
  kind: z.enum(SITE_GATEWAY_KINDS),
  region: z.string(),
  status: z.enum(GATEWAY_STATUSES),
  summary: SitePerformanceSummary,
  series: z.array(SitePerformancePoint),
});
export type SitePerformance = z.infer<typeof SitePerformance>;

export const SitePerformanceQuery = z.object({
  range: z.enum(SITE_PERFORMANCE_RANGES).default('24h'),
  /** One site only. */
  gatewayId: Uuid.optional(),
});
export type SitePerformanceQuery = z.input<typeof SitePerformanceQuery>;

export const sitePerformanceEndpoints = {
  getSitePerformance: endpoint({
    method: 'GET',
    path: '/devices/:tenant/site-performance',
    access: 'gateways:view',
    summary: "Latency, loss, throughput and tunnel uptime of the tenant's site gateways over a time range",
    tags: ['gateways'],
    params: TenantParams,
    query: SitePerformanceQuery,
    response: z.object({
      range: z.enum(SITE_PERFORMANCE_RANGES),
      from: z.string(),
      to: z.string(),
      bucketMs: z.number().int(),
      sites: z.array(SitePerformance),
    }),
  }),
};
