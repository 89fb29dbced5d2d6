import type { DeviceOs, DeviceState, EnrolmentMethod, PostureReport } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle mirrors of the tables of migration 0008 (the SQL there is the truth). They live with the module that
 * owns them; only this module's repository writes them.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type TokenKind = 'link' | 'agentless' | 'rmm';

export const enrolmentTokens = pgTable('enrolment_tokens', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  kind: text('kind').notNull().$type<TokenKind>(),
  userId: uuid('user_id'),
  name: text('name').notNull().default(''),
  tokenHash: text('token_hash').notNull(),
  prefix: text('prefix').notNull(),
  autoGroupIds: uuid('auto_group_ids').array().notNull().default(sql`'{}'`),
  expiresAt: ts('expires_at'),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  usedAt: ts('used_at'),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdBy: uuid('created_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const devices = pgTable('devices', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  userId: uuid('user_id'),
  name: text('name').notNull(),
  os: text('os').notNull().$type<DeviceOs>(),
  connstatus: text('connstatus').notNull().default('never').$type<'connected' | 'disconnected' | 'never'>(),
  enrolledVia: text('enrolled_via').notNull().$type<EnrolmentMethod>(),
  enrolmentId: uuid('enrolment_id'),
  tokenHash: text('token_hash').notNull(),
  /** Its WireGuard public key and tunnel host number (100.64.0.0/16), when it enrolled with a key. */
  wgPublicKey: text('wg_public_key'),
  wgHost: integer('wg_host'),
  /** Migration 0023: approval and disabling, key lifetime, and what the last check-in reported. */
  state: text('state').notNull().default('active').$type<DeviceState>(),
  keyExpiresAt: ts('key_expires_at'),
  agentVersion: text('agent_version'),
  enforcedVersion: text('enforced_version'),
  posture: jsonb('posture').notNull().default({}).$type<PostureReport>(),
  lastIp: text('last_ip'),
  enrolledAt: ts('enrolled_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at'),
  /** Migration 0044: the SHA-256 of the WireGuard configuration last handed out for it, and when. */
  wgConfigFingerprint: text('wg_config_fingerprint'),
  wgConfigDownloadedAt: ts('wg_config_downloaded_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const deviceSettings = pgTable('device_settings', {
  tenantId: uuid('tenant_id').primaryKey(),
  requireApproval: boolean('require_approval').notNull().default(false),
  keyExpiryDays: integer('key_expiry_days'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const deviceSessions = pgTable('device_sessions', {
  tenantId: uuid('tenant_id').notNull(),
  deviceId: uuid('device_id').notNull(),
  startedAt: ts('started_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  ip: text('ip'),
  agentVersion: text('agent_version'),
});
