import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirrors of the tables of migration 0025 (the SQL there is the truth); only this module writes them. */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

const entry = {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  gatewayId: uuid('gateway_id').notNull(),
  userIds: uuid('user_ids').array().notNull().default([]),
  groupIds: uuid('group_ids').array().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
};

export const privateServices = pgTable('private_services', {
  ...entry,
  address: text('address').notNull(),
  protocol: text('protocol').notNull().$type<'tcp' | 'udp'>(),
  ports: text('ports').notNull(),
});

export const ztnaRules = pgTable('ztna_rules', {
  ...entry,
  destination: text('destination').notNull(),
  protocol: text('protocol').notNull().$type<'tcp' | 'udp' | 'any'>(),
  ports: text('ports'),
});
