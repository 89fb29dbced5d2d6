import { z } from 'zod';
import { NonEmpty, Page, PageQuery, TenantName, Uuid } from './common';
import { endpoint } from './endpoint';
import { POLICY_TYPES, PolicyTestFailure, RULE_ACTIONS, RULE_TYPES, RuleSchedule } from './policies';
import { TenantParams } from './tenants';

/**
 * Policy templates across tenants (issue 13): a partner (or the platform) keeps policies with the objects they use
 * as a template in its own tenant and applies it to the tenants it manages — previewed per tenant first (what
 * changes, which pinned policy tests would break), recorded in each tenant's log as the partner acting there —
 * and then sees per tenant whether its copy is in sync, drifted (changed locally) or older than the template.
 * `:tenant` is the partner (or the platform) whose console it is.
 */

/**
 * A rule as a template holds it: objects by name, so it applies to any tenant. `locations` are location names,
 * `categories` custom category names or shipped category ids, `url` the matcher's items (app rules: catalog app
 * ids, or custom app names).
 */
export const TemplateRule = z.object({
  name: z.string(),
  type: z.enum(RULE_TYPES),
  url: z.array(z.string()),
  action: z.enum(RULE_ACTIONS),
  target: z.string(),
  ports: z.string(),
  categories: z.array(z.string()),
  feeds: z.array(z.string()),
  locations: z.array(z.string()),
  schedule: RuleSchedule.nullable(),
  enabled: z.boolean(),
});
export type TemplateRule = z.infer<typeof TemplateRule>;

/** A policy of a template; `key` links each tenant's copy to it. */
export const TemplatePolicy = z.object({
  key: z.string(),
  name: z.string(),
  type: z.enum(POLICY_TYPES),
  description: z.string(),
  enabled: z.boolean(),
  rules: z.array(TemplateRule),
});
export type TemplatePolicy = z.infer<typeof TemplatePolicy>;

/** The objects a template's rules use, matched by name in each tenant (created there when missing). */
export const TemplateObjects = z.object({
  locations: z.array(z.object({ name: z.string(), description: z.string(), networks: z.array(z.string()) })),
  categories: z.array(z.object({ name: z.string(), description: z.string(), domains: z.array(z.string()) })),
  apps: z.array(
    z.object({
      appname: z.string(),
      category: z.string(),
      domains: z.array(z.string()),
      ips: z.array(z.string()),
    }),
  ),
});
export type TemplateObjects = z.infer<typeof TemplateObjects>;

export const PolicyTemplateSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Rises with every update. */
  version: z.number().int(),
  /** The tenant its policies were taken from. */
  sourceTenant: z.string(),
  policyCount: z.number().int(),
  objectCount: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.string(),
});
export type PolicyTemplateSummary = z.infer<typeof PolicyTemplateSummary>;

export const PolicyTemplate = PolicyTemplateSummary.extend({
  policies: z.array(TemplatePolicy),
  objects: TemplateObjects,
  createdAt: z.string(),
});
export type PolicyTemplate = z.infer<typeof PolicyTemplate>;

export const PolicyTemplateListQuery = PageQuery;
export type PolicyTemplateListQuery = z.infer<typeof PolicyTemplateListQuery>;

export const TEMPLATE_MAX_POLICIES = 50;

/** A template made of policies of a tenant: the console's own tenant or one it manages. */
export const PolicyTemplateInput = z.object({
  name: NonEmpty(100),
  description: z.string().trim().max(500, { message: 'validation.tooLong' }).default(''),
  sourceTenant: TenantName,
  policyIds: z
    .array(Uuid)
    .min(1, { message: 'validation.required' })
    .max(TEMPLATE_MAX_POLICIES, { message: 'policyTemplates.validation.tooMany' }),
});
export type PolicyTemplateInput = z.input<typeof PolicyTemplateInput>;

/** The tenants to preview or apply a template to (names of tenants the console manages). */
export const TemplateTargets = z.object({
  tenants: z
    .array(TenantName)
    .min(1, { message: 'validation.required' })
    .max(100, { message: 'policyTemplates.validation.tooMany' }),
});
export type TemplateTargets = z.input<typeof TemplateTargets>;

export const TEMPLATE_CHANGES = ['create', 'update', 'unchanged'] as const;
export type TemplateChange = (typeof TEMPLATE_CHANGES)[number];

/** One difference of a policy: `path` names the field (`enabled`, `rules.Block social.url`), before → after. */
export const TemplateDiffLine = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type TemplateDiffLine = z.infer<typeof TemplateDiffLine>;

/** A failure that is not a broken test (a rule the tenant cannot take, a name in use): the error envelope's parts. */
export const TemplateTenantError = z.object({
  errcode: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const TemplatePreview = z.object({
  tenant: z.string(),
  policies: z.array(
    z.object({ name: z.string(), change: z.enum(TEMPLATE_CHANGES), diff: z.array(TemplateDiffLine) }),
  ),
  objects: z.array(
    z.object({
      kind: z.enum(['location', 'category', 'app']),
      name: z.string(),
      change: z.enum(TEMPLATE_CHANGES),
    }),
  ),
  /** Pinned policy tests of the tenant that applying would break: the apply would be refused there. */
  failingTests: z.array(PolicyTestFailure),
  error: TemplateTenantError.nullable(),
});
export type TemplatePreview = z.infer<typeof TemplatePreview>;

export const TEMPLATE_APPLY_RESULTS = ['applied', 'refused', 'failed'] as const;

export const TemplateApplyResult = z.object({
  tenant: z.string(),
  /** `refused`: it would break pinned tests (listed), nothing changed; `failed`: another error, nothing changed. */
  result: z.enum(TEMPLATE_APPLY_RESULTS),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  failingTests: z.array(PolicyTestFailure),
  error: TemplateTenantError.nullable(),
});
export type TemplateApplyResult = z.infer<typeof TemplateApplyResult>;

/**
 * Per managed tenant: `never` applied, `inSync`, `drifted` (a copy changed or deleted locally since it was
 * applied), `outdated` (applied before the template's last update).
 */
export const TEMPLATE_STATES = ['never', 'inSync', 'drifted', 'outdated'] as const;
export type TemplateState = (typeof TEMPLATE_STATES)[number];

export const TemplateTenantStatus = z.object({
  tenant: z.string(),
  displayName: z.string(),
  state: z.enum(TEMPLATE_STATES),
  appliedVersion: z.number().int().nullable(),
  appliedAt: z.string().nullable(),
  appliedBy: z.string().nullable(),
  /** The copies changed locally: the template policy's name, and when the tenant's copy last changed (null: deleted). */
  drifted: z.array(z.object({ policy: z.string(), changedAt: z.string().nullable() })),
});
export type TemplateTenantStatus = z.infer<typeof TemplateTenantStatus>;

export const PolicyTemplateParams = TenantParams.extend({ id: Uuid });

export const policyTemplateEndpoints = {
  listPolicyTemplates: endpoint({
    method: 'GET',
    path: '/partner/:tenant/policy-templates',
    access: 'tenant:view',
    summary: "The console's policy templates, paged",
    tags: ['policy-templates'],
    params: TenantParams,
    query: PolicyTemplateListQuery,
    response: Page(PolicyTemplateSummary),
  }),
  createPolicyTemplate: endpoint({
    method: 'POST',
    path: '/partner/:tenant/policy-templates',
    access: 'tenant:update',
    status: 201,
    summary: "A template of policies of the console's tenant or a managed tenant, with the objects they use",
    tags: ['policy-templates'],
    params: TenantParams,
    body: PolicyTemplateInput,
    response: PolicyTemplate,
  }),
  getPolicyTemplate: endpoint({
    method: 'GET',
    path: '/partner/:tenant/policy-templates/:id',
    access: 'tenant:view',
    summary: 'A policy template with its policies and objects',
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    response: PolicyTemplate,
  }),
  updatePolicyTemplate: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/policy-templates/:id',
    access: 'tenant:update',
    summary: 'Take the policies again (and rename); the version rises',
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    body: PolicyTemplateInput,
    response: PolicyTemplate,
  }),
  deletePolicyTemplate: endpoint({
    method: 'DELETE',
    path: '/partner/:tenant/policy-templates/:id',
    access: 'tenant:update',
    summary: "Delete a template (the tenants' copies stay, unlinked)",
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    response: z.object({ deleted: z.number().int() }),
  }),
  previewPolicyTemplate: endpoint({
    method: 'POST',
    path: '/partner/:tenant/policy-templates/:id/preview',
    access: 'tenant:view',
    summary:
      'What applying would change in each tenant, and the pinned tests it would break; nothing is saved',
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    body: TemplateTargets,
    response: z.object({ tenants: z.array(TemplatePreview) }),
  }),
  applyPolicyTemplate: endpoint({
    method: 'POST',
    path: '/partner/:tenant/policy-templates/:id/apply',
    access: 'tenant:update',
    summary: "Apply to each tenant in its own transaction (refused where it would break the tenant's tests)",
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    body: TemplateTargets,
    response: z.object({ tenants: z.array(TemplateApplyResult) }),
  }),
  policyTemplateStatus: endpoint({
    method: 'GET',
    path: '/partner/:tenant/policy-templates/:id/status',
    access: 'tenant:view',
    summary: 'Per managed tenant: never applied, in sync, drifted or outdated, paged',
    tags: ['policy-templates'],
    params: PolicyTemplateParams,
    query: PageQuery,
    response: Page(TemplateTenantStatus),
  }),
};
