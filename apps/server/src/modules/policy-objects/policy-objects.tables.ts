import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle mirrors of the object tables of migration 0007 (the SQL there is the truth). They live with the
 * module that owns them; only this module's repository writes them.
 */

export const policyLocations = pgTable('policy_locations', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  networks: text('networks').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyApps = pgTable('policy_apps', {
  tenantId: uuid('tenant_id').notNull(),
  appid: text('appid').notNull(),
  appname: text('appname').notNull(),
  category: text('category').notNull().default('custom'),
  domains: text('domains').array().notNull().default(sql`'{}'`),
  ips: text('ips').array().notNull().default(sql`'{}'`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyBlockedApps = pgTable('policy_blocked_apps', {
  tenantId: uuid('tenant_id').notNull(),
  appid: text('appid').notNull(),
});

export const policyCategories = pgTable('policy_categories', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  domains: text('domains').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyCategoryActions = pgTable('policy_category_actions', {
  tenantId: uuid('tenant_id').notNull(),
  categoryId: text('category_id').notNull(),
  action: text('action').notNull().$type<'allow' | 'block'>(),
});

export const policyFeeds = pgTable('policy_feeds', {
  tenantId: uuid('tenant_id').notNull(),
  id: text('id').notNull(),
  name: text('name').notNull(),
  kind: text('kind').notNull().$type<'builtin' | 'upload' | 'url'>(),
  url: text('url'),
  fileName: text('file_name'),
  refreshMinutes: integer('refresh_minutes'),
  enabled: boolean('enabled').notNull().default(true),
  ips: text('ips').array().notNull().default(sql`'{}'`),
  domains: text('domains').array().notNull().default(sql`'{}'`),
  lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyGeoBlocked = pgTable('policy_geo_blocked', {
  tenantId: uuid('tenant_id').notNull(),
  country: text('country').notNull(),
});
