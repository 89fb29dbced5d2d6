import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Drizzle mirror of migration 0043 (the SQL there is the truth, keyed `(tenant_id, id)`); only this module writes it. */
export const accessRequests = pgTable('access_requests', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  reference: text('reference').notNull(),
  status: text('status', { enum: ['pending', 'approved', 'declined', 'expired'] })
    .notNull()
    .default('pending'),
  blockType: text('block_type').notNull(),
  ruleId: text('rule_id').notNull(),
  ruleKind: text('rule_kind'),
  host: text('host').notNull(),
  url: text('url'),
  client: text('client'),
  sourceKey: text('source_key').notNull(),
  userId: uuid('user_id'),
  deviceId: uuid('device_id'),
  reason: text('reason').notNull(),
  decidedAt: ts('decided_at'),
  decidedBy: text('decided_by'),
  expiresAt: ts('expires_at'),
  note: text('note'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
