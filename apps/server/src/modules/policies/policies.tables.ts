import type { RuleSchedule } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Drizzle mirrors of the policy tables of migration 0007 (the SQL there is the truth). They live with the
 * module that owns them; only this module's repository writes them.
 */

export const policies = pgTable('policies', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  type: text('type').notNull().$type<'route' | 'qos' | 'other'>(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  precedence: integer('precedence').notNull(),
  /** Migration 0044: blocks show the block page; the devices it applies to use a full tunnel. */
  blockPage: boolean('block_page').notNull().default(true),
  fullTunnel: boolean('full_tunnel').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyRules = pgTable('policy_rules', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  policyId: uuid('policy_id').notNull(),
  position: integer('position').notNull(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  url: text('url').notNull().default(''),
  action: text('action').notNull(),
  target: text('target').notNull().default(''),
  ports: text('ports').notNull().default(''),
  categories: text('categories').array().notNull().default(sql`'{}'`),
  feeds: text('feeds').array().notNull().default(sql`'{}'`),
  locations: text('locations').array().notNull().default(sql`'{}'`),
  schedule: jsonb('schedule').$type<RuleSchedule | null>(),
  enabled: boolean('enabled').notNull().default(true),
  issysgen: boolean('issysgen').notNull().default(false),
});

export const policyGroups = pgTable('policy_groups', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyGroupPolicies = pgTable('policy_group_policies', {
  tenantId: uuid('tenant_id').notNull(),
  policyGroupId: uuid('policy_group_id').notNull(),
  policyId: uuid('policy_id').notNull(),
});

export const policyGroupDevices = pgTable('policy_group_devices', {
  tenantId: uuid('tenant_id').notNull(),
  policyGroupId: uuid('policy_group_id').notNull(),
  deviceId: uuid('device_id').notNull(),
});

export const policyGroupGroups = pgTable('policy_group_groups', {
  tenantId: uuid('tenant_id').notNull(),
  policyGroupId: uuid('policy_group_id').notNull(),
  groupId: uuid('group_id').notNull(),
});

export const policyGroupUsers = pgTable('policy_group_users', {
  tenantId: uuid('tenant_id').notNull(),
  policyGroupId: uuid('policy_group_id').notNull(),
  userId: uuid('user_id').notNull(),
});

export const policyTests = pgTable('policy_tests', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  request: jsonb('request').notNull().$type<Record<string, unknown>>(),
  expect: text('expect').notNull().$type<'allow' | 'block'>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
