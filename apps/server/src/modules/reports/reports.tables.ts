import { boolean, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Drizzle mirrors of the tables of migrations 0032 and 0041 (the SQL there is the truth, with its keys
 * `(tenant_id, id)` and `(tenant_id, email)`); only this module writes them.
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
  lastErrorCode: text('last_error_code', {
    enum: ['report_mail_quota', 'report_recipients_unverified'],
  }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Outside addresses named by a tenant's schedules, and whether each confirmed its mailed link (0041). */
export const reportRecipients = pgTable('report_recipients', {
  tenantId: uuid('tenant_id').notNull(),
  email: text('email').notNull(),
  language: text('language', { enum: ['en', 'de'] })
    .notNull()
    .default('en'),
  tokenHash: text('token_hash'),
  tokenExpiresAt: ts('token_expires_at'),
  mailedAt: ts('mailed_at'),
  verifiedAt: ts('verified_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The mails the reports sent, per tenant, counted for its quota (0041). */
export const reportMails = pgTable('report_mails', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  kind: text('kind', { enum: ['report', 'verification'] }).notNull(),
  sentAt: ts('sent_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
