import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Drizzle mirror of the table of migration 0036 (the SQL there is the truth): the flags a tenant's partner (or
 * the platform) and its administrators set; only this module writes it.
 */
export const tenantFeatures = pgTable('tenant_features', {
  tenantId: uuid('tenant_id').primaryKey(),
  features: jsonb('features').$type<Record<string, boolean>>().notNull().default({}),
  configurations: jsonb('configurations').$type<Record<string, boolean>>().notNull().default({}),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
