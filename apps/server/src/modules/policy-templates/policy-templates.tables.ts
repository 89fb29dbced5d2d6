import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Drizzle mirrors of migration 0038 (the SQL there is the truth); only this module's repository writes them. */

export const policyTemplates = pgTable('policy_templates', {
  tenantId: uuid('tenant_id').notNull(),
  id: uuid('id').notNull().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  version: integer('version').notNull().default(1),
  sourceTenant: text('source_tenant').notNull(),
  policies: jsonb('policies').notNull(),
  objects: jsonb('objects').notNull(),
  updatedBy: text('updated_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const policyTemplateLinks = pgTable('policy_template_links', {
  tenantId: uuid('tenant_id').notNull(),
  templateId: uuid('template_id').notNull(),
  templatePolicyKey: text('template_policy_key').notNull(),
  policyId: uuid('policy_id').notNull(),
  appliedVersion: integer('applied_version').notNull(),
  appliedHash: text('applied_hash').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  appliedBy: text('applied_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
