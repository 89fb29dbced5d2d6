import {
  SITE_PERFORMANCE_BUCKETS,
  type SitePerformance,
  type SitePerformanceRange,
  sitePerformanceEndpoints,
} from '@palisade/contracts';
import { type FakeApi, fakeApi } from '../../../testing/fake-api';

export const BERLIN_ID = '11111111-1111-4111-8111-111111111111';
export const MUNICH_ID = '22222222-2222-4222-8222-222222222222';

/** Heard from in the range: two points with figures around a point it was not heard from. */
export const BERLIN: SitePerformance = {
  gatewayId: BERLIN_ID,
  name: 'Berlin office',
  kind: 'cgw',
  region: 'Berlin, Alexanderplatz',
  status: 'online',
  summary: { latencyMs: 27, lossPercent: 0.5, throughputBps: 1_500_000, uptimePercent: 66.7 },
  series: [
    {
      at: '2026-03-02T09:00:00.000Z',
      latencyMs: 24,
      lossPercent: 0.5,
      throughputBps: 1_562_500,
      uptimePercent: 100,
    },
    {
      at: '2026-03-02T09:15:00.000Z',
      latencyMs: null,
      lossPercent: null,
      throughputBps: null,
      uptimePercent: 0,
    },
    {
      at: '2026-03-02T09:30:00.000Z',
      latencyMs: 3.25,
      lossPercent: 12.5,
      throughputBps: 250_000,
      uptimePercent: 100,
    },
  ],
};

/** Not heard from in the range at all. */
export const MUNICH: SitePerformance = {
  gatewayId: MUNICH_ID,
  name: 'Munich shop',
  kind: 'cgwr',
  region: 'Munich',
  status: 'offline',
  summary: { latencyMs: null, lossPercent: null, throughputBps: null, uptimePercent: 0 },
  series: BERLIN.series.map((point) => ({
    at: point.at,
    latencyMs: null,
    lossPercent: null,
    throughputBps: null,
    uptimePercent: 0,
  })),
};

/** The answer of `range` for `sites`, as the server gives it. */
export function answerOf(range: SitePerformanceRange, sites: SitePerformance[]) {
  return {
    range,
    from: '2026-03-01T09:45:00.000Z',
    to: '2026-03-02T09:45:00.000Z',
    bucketMs: SITE_PERFORMANCE_BUCKETS[range].bucketMs,
    sites,
  };
}

/** The fake API of the screen: the tenant's `sites`, one of them when the request names it. */
export function fakeSitePerformanceApi(sites: SitePerformance[] = [BERLIN, MUNICH]): FakeApi {
  return fakeApi().on(sitePerformanceEndpoints.getSitePerformance, ({ query }) =>
    answerOf(
      query.range,
      sites.filter((site) => !query.gatewayId || site.gatewayId === query.gatewayId),
    ),
  );
}
