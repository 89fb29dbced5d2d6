import type { InternalDeviceSource } from '@palisade/contracts';
import { inet, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirror of the table of migration 0026 (the SQL there is the truth); only this module writes it. */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const internalDevices = pgTable('internal_devices', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  gatewayId: uuid('gateway_id').notNull(),
  mac: text('mac').notNull(),
  ip: inet('ip').notNull(),
  hostname: text('hostname'),
  vendor: text('vendor'),
  source: text('source').notNull().$type<InternalDeviceSource>(),
  interface: text('interface'),
  firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
