import { boolean, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Drizzle mirror of the table of migration 0032 (the SQL there is the truth, with its key `(tenant_id, id)`);
 * only this module writes it.
 */
export const reportSchedules = pgTable('report_schedules', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  kind: text('kind', { enum: ['dsb', 'analytics', 'weekly-sase-insights', 'security-compliance'] }).notNull(),
  weekday: smallint('weekday').notNull(),
  hour: smallint('hour').notNull(),
  timezone: text('timezone').notNull(),
  recipients: text('recipients').array().notNull(),
  language: text('language', { enum: ['en', 'de'] })
    .notNull()
    .default('en'),
  enabled: boolean('enabled').notNull().default(true),
  nextRunAt: ts('next_run_at'),
  lastRunAt: ts('last_run_at'),
  lastError: text('last_error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
