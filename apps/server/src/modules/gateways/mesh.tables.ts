import { boolean, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirror of the table of migration 0029 (the SQL there is the truth); only this module writes it. */
export const deviceMesh = pgTable('device_mesh', {
  tenantId: uuid('tenant_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  hubId: uuid('hub_id'),
  siteIds: uuid('site_ids').array().notNull().default([]),
  userIds: uuid('user_ids').array().notNull().default([]),
  groupIds: uuid('group_ids').array().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
