import type { EmbedKind } from '@palisade/contracts';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirror of migration 0039's table (the SQL there is the truth); only this module writes it. */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const embedLinks = pgTable('embed_links', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  kinds: text('kinds').array().notNull().$type<EmbedKind[]>(),
  userId: uuid('user_id'),
  creatorTenantId: uuid('creator_tenant_id').notNull(),
  creatorId: uuid('creator_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  prefix: text('prefix').notNull(),
  expiresAt: ts('expires_at').notNull(),
  lastUsedAt: ts('last_used_at'),
  lastUsedIp: text('last_used_ip'),
  revokedAt: ts('revoked_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
