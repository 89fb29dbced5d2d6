import type { GatewayKind, GatewayMetrics, SiteConfig } from '@palisade/contracts';
import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle mirrors of the tables of migrations 0021 and 0024 (the SQL there is the truth). They live with the
 * module that owns them; only this module's repositories write them.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A tunnel peer as the last heartbeat reported it. */
export interface StoredPeer {
  publicKey: string;
  lastHandshakeAt: string | null;
  rxBytes: number;
  txBytes: number;
}

export const gateways = pgTable('gateways', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  kind: text('kind').notNull().$type<GatewayKind>(),
  region: text('region').notNull(),
  serverUrl: text('server_url'),
  serverName: text('server_name'),
  enrolmentTokenHash: text('enrolment_token_hash'),
  enrolmentExpiresAt: ts('enrolment_expires_at'),
  credentialHash: text('credential_hash'),
  publicKey: text('public_key'),
  hostname: text('hostname'),
  version: text('version'),
  wgAddress: text('wg_address'),
  listenPort: integer('listen_port'),
  /** Where devices reach it (`host:port`), as it said at enrolment. */
  endpoint: text('endpoint'),
  enrolledAt: ts('enrolled_at'),
  lastSeenAt: ts('last_seen_at'),
  enforcedVersion: text('enforced_version'),
  enforcedAt: ts('enforced_at'),
  metrics: jsonb('metrics').$type<GatewayMetrics | null>(),
  peers: jsonb('peers').$type<StoredPeer[]>().notNull().default([]),
  upgrade: jsonb('upgrade').$type<{ targetVersion: string; requestedAt: string } | null>(),
  retiredAt: ts('retired_at'),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const gatewayBundles = pgTable('gateway_bundles', {
  tenantId: uuid('tenant_id').notNull(),
  version: text('version').notNull(),
  policyVersion: bigint('policy_version', { mode: 'number' }).notNull(),
  artefacts: jsonb('artefacts').$type<Record<string, string>>().notNull(),
  policy: jsonb('policy').notNull(),
  skipped: jsonb('skipped').notNull().default([]),
  pinnedAt: ts('pinned_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** A site gateway's configuration (migration 0024), checked by the contract's SiteConfigInput before it is stored. */
export const siteConfigs = pgTable('site_configs', {
  tenantId: uuid('tenant_id').notNull(),
  gatewayId: uuid('gateway_id').notNull(),
  config: jsonb('config').$type<SiteConfig>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});
