import { doublePrecision, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirror of migration 0027 (the SQL there is the truth); only this module writes it. */
export const siteMetrics = pgTable('site_metrics', {
  tenantId: uuid('tenant_id').notNull(),
  gatewayId: uuid('gateway_id').notNull(),
  minute: timestamp('minute', { withTimezone: true, mode: 'date' }).notNull(),
  heartbeats: integer('heartbeats').notNull().default(0),
  latencyMsSum: doublePrecision('latency_ms_sum').notNull().default(0),
  latencySamples: integer('latency_samples').notNull().default(0),
  throughputBpsSum: doublePrecision('throughput_bps_sum').notNull().default(0),
  activePeersMax: integer('active_peers_max').notNull().default(0),
});
