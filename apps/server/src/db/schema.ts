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
  language: text('language'),
  theme: text('theme'),
  palette: text('palette'),
  failedLogins: integer('failed_logins').notNull().default(0),
  firstFailedAt: ts('first_failed_at'),
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
});

export const transactions = pgTable('transactions', {
  id: text('id').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  userId: uuid('user_id').notNull(),
  kind: text('kind', { enum: ['email_verification', 'otp_sign_in'] }).notNull(),
  status: text('status', { enum: ['pending', 'completed', 'expired'] })
    .notNull()
    .default('pending'),
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
});

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  bodyText: text('body_text').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
