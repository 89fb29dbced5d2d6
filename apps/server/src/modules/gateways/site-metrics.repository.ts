import { SITE_GATEWAY_KINDS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';

/** Site gateways' heartbeats rolled up per minute (migration 0027), and the series the performance screen reads. */

export interface SiteSample {
  /** The round trip of the gateway's previous heartbeat, when it measured one. */
  latencyMs: number | null;
  throughputBps: number;
  activePeers: number;
}

/** Counts one heartbeat into its minute (`at`: now, or a past time for the demo's history). */
export async function recordSiteSample(
  tx: Tx,
  tenantId: string,
  gatewayId: string,
  sample: SiteSample,
  at: Date | null = null,
) {
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  await tx.execute(
    sql`insert into site_metrics (tenant_id, gateway_id, minute, heartbeats, latency_ms_sum, latency_samples,
        throughput_bps_sum, active_peers_max)
      values (${tenantId}, ${gatewayId}, date_trunc('minute', ${when}), 1, ${sample.latencyMs ?? 0},
        ${sample.latencyMs === null ? 0 : 1}, ${sample.throughputBps}, ${sample.activePeers})
      on conflict (tenant_id, gateway_id, minute) do update set
        heartbeats = site_metrics.heartbeats + 1,
        latency_ms_sum = site_metrics.latency_ms_sum + excluded.latency_ms_sum,
        latency_samples = site_metrics.latency_samples + excluded.latency_samples,
        throughput_bps_sum = site_metrics.throughput_bps_sum + excluded.throughput_bps_sum,
        active_peers_max = greatest(site_metrics.active_peers_max, excluded.active_peers_max)`,
  );
}

/** Minutes already rolled up, written at once (the demo's week of history; a gateway replaying what it kept). */
export async function insertSiteMinutes(
  tx: Tx,
  tenantId: string,
  gatewayId: string,
  minutes: {
    minute: Date;
    heartbeats: number;
    latencyMs: number;
    throughputBps: number;
    activePeers: number;
  }[],
) {
  for (let i = 0; i < minutes.length; i += 1000) {
    const chunk = minutes.slice(i, i + 1000);
    await tx.execute(
      sql`insert into site_metrics (tenant_id, gateway_id, minute, heartbeats, latency_ms_sum, latency_samples,
          throughput_bps_sum, active_peers_max)
        values ${sql.join(
          chunk.map(
            (m) =>
              sql`(${tenantId}, ${gatewayId}, date_trunc('minute', ${m.minute.toISOString()}::timestamptz),
                ${m.heartbeats}, ${m.latencyMs * m.heartbeats}, ${m.heartbeats}, ${m.throughputBps * m.heartbeats},
                ${m.activePeers})`,
          ),
          sql`, `,
        )}
        on conflict (tenant_id, gateway_id, minute) do nothing`,
    );
  }
}

/** The tenant's site gateways (retired ones left out), by name. */
export function siteGateways(tx: Tx, tenantId: string, gatewayId?: string) {
  return queryRows<{
    id: string;
    name: string;
    kind: (typeof SITE_GATEWAY_KINDS)[number];
    region: string;
    enrolled_at: string | null;
    last_seen_at: string | null;
  }>(
    tx,
    sql`select id, name, kind, region, enrolled_at, last_seen_at from gateways
      where tenant_id = ${tenantId} and retired_at is null
        and kind in (${sql.join(
          SITE_GATEWAY_KINDS.map((kind) => sql`${kind}`),
          sql`, `,
        )})
        ${gatewayId ? sql`and id = ${gatewayId}` : sql``}
      order by lower(name), id`,
  );
}

export interface BucketRow {
  gatewayId: string;
  /** The bucket's start, epoch milliseconds. */
  bucket: number;
  minutes: number;
  heartbeats: number;
  /** The minutes and heartbeats of the bucket's complete minutes (the current one is still arriving). */
  completeMinutes: number;
  completeHeartbeats: number;
  latencyMsSum: number;
  latencySamples: number;
  throughputBpsSum: number;
}

/** The rollups since `from`, summed per gateway and bucket of `bucketMs`. */
export async function siteBuckets(
  tx: Tx,
  tenantId: string,
  from: Date,
  bucketMs: number,
): Promise<BucketRow[]> {
  const seconds = bucketMs / 1000;
  const rows = await queryRows<Record<string, string | number>>(
    tx,
    sql`select gateway_id, floor(extract(epoch from minute) / ${seconds}) * ${seconds} * 1000 as bucket,
        count(*) as minutes, sum(heartbeats) as heartbeats,
        count(*) filter (where minute < date_trunc('minute', now())) as complete_minutes,
        coalesce(sum(heartbeats) filter (where minute < date_trunc('minute', now())), 0) as complete_heartbeats,
        sum(latency_ms_sum) as latency_ms_sum,
        sum(latency_samples) as latency_samples, sum(throughput_bps_sum) as throughput_bps_sum
      from site_metrics
      where tenant_id = ${tenantId} and minute >= ${from.toISOString()}::timestamptz
      group by 1, 2 order by 1, 2`,
  );
  return rows.map((row) => ({
    gatewayId: String(row.gateway_id),
    bucket: Number(row.bucket),
    minutes: Number(row.minutes),
    heartbeats: Number(row.heartbeats),
    completeMinutes: Number(row.complete_minutes),
    completeHeartbeats: Number(row.complete_heartbeats),
    latencyMsSum: Number(row.latency_ms_sum),
    latencySamples: Number(row.latency_samples),
    throughputBpsSum: Number(row.throughput_bps_sum),
  }));
}

/** Deletes rollups older than `days`, across tenants (the owner connection); answers how many. */
export async function deleteSiteMetricsOlderThan(db: Db, days: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from site_metrics where minute < now() - make_interval(days => ${days}) returning 1)
      select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
}
