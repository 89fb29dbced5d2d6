import type { LocalControls } from '@palisade/contracts';
import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirror of migration 0028 (the SQL there is the truth); only this module writes it. */
export const localControls = pgTable('local_controls', {
  tenantId: uuid('tenant_id').notNull(),
  gatewayId: uuid('gateway_id').notNull(),
  controls: jsonb('controls').$type<LocalControls>().notNull(),
  updatedBy: uuid('updated_by'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
