import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirrors of the tables in migrations/*.sql (the SQL files are the source of truth). */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  displayName: text('display_name').notNull(),
  kind: text('kind', { enum: ['platform', 'partner', 'customer'] }).notNull(),
  parentId: uuid('parent_id'),
  themevalue: text('themevalue').notNull(),
  palette: text('palette').notNull(),
  primaryColor: text('primary_color'),
  logo: text('logo'),
  eventRetentionDays: integer('event_retention_days').notNull().default(365),
  /** Set while the tenant is suspended by its partner or the platform (migration 0034). */
  suspendedAt: ts('suspended_at'),
  /** A scheduled deletion: when the tenant is purged (migration 0037); it is suspended meanwhile. */
  deletionDueAt: ts('deletion_due_at'),
  /** Whether the deletion suspended it (a restore resumes it then; else it stays suspended as it was). */
  deletionSuspended: boolean('deletion_suspended').notNull().default(false),
  /** Partner settings (migration 0037): the second brand colour and the support contact. */
  accentColor: text('accent_color'),
  supportEmail: text('support_email'),
  supportPhone: text('support_phone'),
  supportUrl: text('support_url'),
  supportHours: text('support_hours'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const users = pgTable('users', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  username: text('username').notNull(),
  firstname: text('firstname').notNull(),
  lastname: text('lastname').notNull(),
  email: text('email').notNull(),
  usertype: smallint('usertype').notNull().default(0),
  role: text('role').notNull().default('user'),
  passwordHash: text('password_hash'),
  totpSecret: text('totp_secret'),
  totpPendingSecret: text('totp_pending_secret'),
  isTotpEnabled: boolean('is_totp_enabled').notNull().default(false),
  isEmailVerified: boolean('is_email_verified').notNull().default(false),
  connstatus: text('connstatus').notNull().default('never'),
  isprvaccess: boolean('isprvaccess').notNull().default(false),
  issiauser: boolean('issiauser').notNull().default(false),
  isxdrenabled: boolean('isxdrenabled').notNull().default(false),
  suci: text('suci'),
  customRoleId: uuid('custom_role_id'),
  isSuspended: boolean('is_suspended').notNull().default(false),
  /** Why the account was last disabled or enabled, by whom (the event log's actor name) and when. */
  statusReason: text('status_reason'),
  statusChangedBy: text('status_changed_by'),
  statusChangedAt: ts('status_changed_at'),
  language: text('language'),
  theme: text('theme'),
  palette: text('palette'),
  /** Wrong second-factor codes in a row (across password steps); the fifth sets `lockedUntil`. */
  totpFailures: integer('totp_failures').notNull().default(0),
  /** Until when the account refuses sign-in and second-factor changes (set by wrong codes). */
  lockedUntil: ts('locked_until'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  search: text('search').generatedAlwaysAs(
    sql`lower(username || ' ' || firstname || ' ' || lastname || ' ' || email)`,
  ),
});

export const groups = pgTable('groups', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const userGroups = pgTable('user_groups', {
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  groupId: uuid('group_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  /** The managed tenant a partner's session opened, and in which mode (migration 0034). */
  targetTenantId: uuid('target_tenant_id'),
  targetEdit: boolean('target_edit'),
});

/** Per-administrator API tokens (0002_api_tokens.sql): only the SHA-256 of the secret is kept. */
export const apiTokens = pgTable('api_tokens', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  tokenHash: text('token_hash').notNull(),
  prefix: text('prefix').notNull(),
  permissions: text('permissions').array().notNull().default(sql`'{}'`),
  isReadOnly: boolean('is_read_only').notNull().default(false),
  expiresAt: ts('expires_at'),
  lastUsedAt: ts('last_used_at'),
  lastUsedIp: text('last_used_ip'),
  revokedAt: ts('revoked_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const transactions = pgTable('transactions', {
  id: text('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  kind: text('kind', { enum: ['otp_sign_in', 'admin_invite'] }).notNull(),
  status: text('status', { enum: ['pending', 'completed', 'expired'] })
    .notNull()
    .default('pending'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  completedAt: ts('completed_at'),
});

/** Wrong passwords per (username, source) and per username (source `*`); see 0015_sign_in_hardening.sql. */
export const signInThrottle = pgTable('sign_in_throttle', {
  username: text('username').notNull(),
  source: text('source').notNull(),
  failures: integer('failures').notNull().default(0),
  firstFailedAt: ts('first_failed_at'),
  lastFailedAt: ts('last_failed_at'),
  lockedUntil: ts('locked_until'),
  lastSuccessAt: ts('last_success_at'),
});

/** Sign-ups waiting for their e-mail to be verified (0015_sign_in_hardening.sql). */
export const signups = pgTable('signups', {
  id: uuid('id').primaryKey().defaultRandom(),
  statusId: text('status_id').notNull(),
  verifyHash: text('verify_hash'),
  tenantName: text('tenant_name').notNull(),
  organisation: text('organisation').notNull(),
  firstname: text('firstname').notNull(),
  lastname: text('lastname').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash'),
  status: text('status', { enum: ['pending', 'completed'] })
    .notNull()
    .default('pending'),
  /** The tenant the verified sign-up created. */
  createdTenantId: uuid('created_tenant_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  completedAt: ts('completed_at'),
});

export const adminEvents = pgTable('admin_events', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  at: ts('at').notNull().defaultNow(),
  actorId: uuid('actor_id'),
  actorName: text('actor_name').notNull(),
  ip: text('ip'),
  action: text('action').notNull(),
  objectType: text('object_type').notNull(),
  objectId: text('object_id'),
  objectName: text('object_name'),
  before: jsonb('before'),
  after: jsonb('after'),
  /** The partner's (or platform's) tenant when the actor acted from there (migration 0034). */
  actingFrom: text('acting_from'),
});

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  bodyText: text('body_text').notNull(),
  /** Files of the mail (0032_reports.sql), their content base64. */
  attachments: jsonb('attachments')
    .$type<{ filename: string; contentType: string; content: string }[]>()
    .notNull()
    .default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const importJobs = pgTable('import_jobs', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  kind: text('kind', { enum: ['users', 'groups', 'userBulk'] }).notNull(),
  mode: text('mode', { enum: ['all', 'valid'] }).notNull(),
  /** A preview: counts what the import would change, writes nothing (0017_import_dry_run.sql). */
  isDryRun: boolean('is_dry_run').notNull().default(false),
  status: text('status', { enum: ['running', 'completed', 'failed'] })
    .notNull()
    .default('running'),
  total: integer('total').notNull().default(0),
  processed: integer('processed').notNull().default(0),
  created: integer('created').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  errorCount: integer('error_count').notNull().default(0),
  errors: jsonb('errors').notNull().default([]),
  /** Bulk changes of end users (kind userBulk): action, group and search; null for imports. */
  input: jsonb('input'),
  /** The users a bulk change actually changed, so it can be undone (0020_bulk_undo.sql). */
  changedIds: uuid('changed_ids').array().notNull().default(sql`'{}'::uuid[]`),
  /** The job that undid this bulk change. */
  undoneBy: uuid('undone_by'),
  /** The bulk change this job undid. */
  undoOf: uuid('undo_of'),
  actorId: uuid('actor_id'),
  startedAt: ts('started_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  /** Written with every progress update: a running job whose heartbeat is stale was interrupted. */
  heartbeatAt: ts('heartbeat_at').notNull().defaultNow(),
});

export const customRoles = pgTable('custom_roles', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  permissions: text('permissions').array().notNull().default([]),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
