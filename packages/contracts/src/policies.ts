import { z } from 'zod';
import { IdList, NonEmpty, Page, PageQuery, Uuid } from './common';
import { DEFAULT_SESSION_QOS } from './constants';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';
import { isValidPortList } from './validators';

/**
 * Policies (spec §3): a policy is a named, ordered list of rules. Policies of type `route` are device
 * policies, `qos` policies classify traffic, everything else (`other`) is a user policy.
 *
 * Evaluation (packages/policy-engine) runs in a fixed layer order — DNS → network → HTTP, then QoS
 * classification — and inside a layer the first matching rule by precedence decides: policies ordered by
 * their precedence (lower first), rules in their position inside the policy. When nothing matches, traffic
 * is allowed (the documented default) and the QoS class is {@link DEFAULT_SESSION_QOS}.
 */
export const POLICY_TYPES = ['route', 'qos', 'other'] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];

/** The three lists of spec §3: qos policies, user policies (type not route), device policies (type route). */
export const POLICY_LISTS = ['qos', 'user', 'device'] as const;
export type PolicyList = (typeof POLICY_LISTS)[number];
/**
 * The lists in the order the engine evaluates them: user policies, then device policies decide (DNS → network →
 * HTTP); QoS policies classify what they let through, after them. Screens list them in this order.
 */
export const POLICY_LISTS_BY_EVALUATION = ['user', 'device', 'qos'] as const satisfies readonly PolicyList[];
export function policyListOf(type: PolicyType): PolicyList {
  return type === 'qos' ? 'qos' : type === 'route' ? 'device' : 'user';
}

export const RULE_TYPES = [
  'ROUTE',
  'GEO',
  'DNS_REWRITE',
  'app',
  'dmn',
  'url',
  'SQUID_DMN',
  'SQUID_KEYWORD',
  'SQUID_FILEEXT',
] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export const LAYERS = ['dns', 'network', 'http', 'qos'] as const;
export type Layer = (typeof LAYERS)[number];

/**
 * Which layer a rule type is decided in. `app` rules match the app's domains in the DNS layer and its IPs in
 * the network layer; rules of a `qos` policy are always classified in the QoS layer.
 */
export const RULE_LAYERS: Record<RuleType, readonly Layer[]> = {
  DNS_REWRITE: ['dns'],
  dmn: ['dns'],
  app: ['dns', 'network'],
  ROUTE: ['network'],
  GEO: ['network'],
  url: ['http'],
  SQUID_DMN: ['http'],
  SQUID_KEYWORD: ['http'],
  SQUID_FILEEXT: ['http'],
};

export const RULE_ACTIONS = ['allow', 'block', 'rewrite', 'route', 'qos'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** Actions that make sense per rule type (the editor offers these; the server refuses others). */
export const RULE_TYPE_ACTIONS: Record<RuleType, readonly RuleAction[]> = {
  ROUTE: ['allow', 'block', 'route', 'qos'],
  GEO: ['allow', 'block'],
  DNS_REWRITE: ['rewrite'],
  app: ['allow', 'block', 'route', 'qos'],
  dmn: ['allow', 'block', 'qos'],
  url: ['allow', 'block'],
  SQUID_DMN: ['allow', 'block'],
  SQUID_KEYWORD: ['allow', 'block'],
  SQUID_FILEEXT: ['allow', 'block'],
};

/**
 * Name prefixes that mark system rules (spec §3). A rule is a system rule when `issysgen` is set or its name
 * starts with one of these (case-insensitive); system rules are shown as such and cannot be edited by hand.
 */
export const SYSTEM_RULE_PREFIXES = ['route rule', 'IP rule', 'trust-path', 'ZTNA'] as const;
export function isSystemRule(rule: { name: string; issysgen: boolean }): boolean {
  if (rule.issysgen) return true;
  const name = rule.name.trim().toLowerCase();
  return SYSTEM_RULE_PREFIXES.some((p) => name.startsWith(p.toLowerCase()));
}
/** Name of the default geo rule every tenant has: allow every country, last in the network layer. */
export const DEFAULT_GEO_RULE_NAME = 'Default geo rule';
export { DEFAULT_SESSION_QOS };

/** Separators of a rule's matcher list: `;` or `,` (spec §3 for app ids), and new lines in the editor. */
export function splitMatcher(value: string): string[] {
  return value
    .split(/[;,\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Weekly schedule of a rule: days 0 (Sunday) … 6, and a `HH:MM` window in the tenant's time (UTC here). */
export const RuleSchedule = z
  .object({
    days: z.array(z.number().int().min(0).max(6)).min(1, { message: 'validation.required' }),
    from: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'policy.validation.time' }),
    to: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'policy.validation.time' }),
  })
  .refine((s) => s.from !== s.to, { message: 'policy.validation.emptyWindow', path: ['to'] });
export type RuleSchedule = z.infer<typeof RuleSchedule>;

/** One rule as stored and returned. */
export const PolicyRule = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(RULE_TYPES),
  /**
   * The matcher (spec §3 `url`), by type: CIDRs or IPs (ROUTE), ISO country codes or `*` (GEO), domains (dmn,
   * SQUID_DMN, DNS_REWRITE), URLs without scheme (url), keywords (SQUID_KEYWORD), file extensions
   * (SQUID_FILEEXT), application ids (app). Items are separated by `;` or `,`.
   */
  url: z.string(),
  action: z.enum(RULE_ACTIONS),
  /** Rewrite target (IP or domain), gateway name (route) or QoS class id (qos); empty otherwise. */
  target: z.string(),
  /** Destination ports (spec §5 port list); empty means any port. Only ROUTE and app rules use it. */
  ports: z.string(),
  /** Web categories whose domains this rule also matches (dmn, SQUID_DMN). */
  categories: z.array(z.string()),
  /** Threat-intel feeds whose entries this rule also matches (dmn, ROUTE, SQUID_DMN). */
  feeds: z.array(z.string()),
  /** Locations the request must come from (any of them); empty means anywhere. */
  locations: z.array(z.string()),
  schedule: RuleSchedule.nullable(),
  enabled: z.boolean(),
  issysgen: z.boolean(),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const RULE_NAME_MAX = 100;
export const MATCHER_MAX = 20_000;
export const MAX_RULES_PER_POLICY = 500;

/** A rule as the editor sends it; `id` is kept when an existing rule is edited. */
export const PolicyRuleInput = z
  .object({
    id: z.string().optional(),
    name: NonEmpty(RULE_NAME_MAX),
    type: z.enum(RULE_TYPES, { message: 'policy.validation.ruleType' }),
    url: z.string().trim().max(MATCHER_MAX, { message: 'validation.tooLong' }).default(''),
    action: z.enum(RULE_ACTIONS, { message: 'policy.validation.action' }),
    target: z.string().trim().max(253, { message: 'validation.tooLong' }).default(''),
    ports: z
      .string()
      .trim()
      .default('')
      .refine((p) => p === '' || isValidPortList(p), { message: 'validation.portList' }),
    categories: z.array(z.string().min(1)).max(100).default([]),
    feeds: z.array(z.string().min(1)).max(100).default([]),
    locations: z.array(z.string().min(1)).max(100).default([]),
    schedule: RuleSchedule.nullable().default(null),
    enabled: z.boolean().default(true),
  })
  .refine((r) => RULE_TYPE_ACTIONS[r.type].includes(r.action), {
    message: 'policy.validation.actionForType',
    path: ['action'],
  });
export type PolicyRuleInput = z.input<typeof PolicyRuleInput>;

/** A policy as listed (no rules). */
export const PolicySummary = z.object({
  id: z.string(),
  type: z.enum(POLICY_TYPES),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  precedence: z.number().int(),
  ruleCount: z.number().int(),
  /** Names of the policy groups that carry this policy; none means it applies to everyone in the tenant. */
  policyGroups: z.array(z.object({ id: z.string(), name: z.string() })),
  /** A block of this policy shows the block page (DNS: the gateway's block-page address; HTTP: a redirect). */
  blockPage: z.boolean(),
  /** The devices it applies to send all their traffic through the gateway (AllowedIPs 0.0.0.0/0, ::/0). */
  fullTunnel: z.boolean(),
  updatedAt: z.string(),
});
export type PolicySummary = z.infer<typeof PolicySummary>;

export const Policy = PolicySummary.extend({ rules: z.array(PolicyRule) });
export type Policy = z.infer<typeof Policy>;

/** The three lists of spec §3, each ordered by precedence. */
export const PolicyLists = z.object({
  qos: z.array(PolicySummary),
  user: z.array(PolicySummary),
  device: z.array(PolicySummary),
});
export type PolicyLists = z.infer<typeof PolicyLists>;

export const POLICY_NAME_MAX = 100;
export const POLICY_DESCRIPTION_MAX = 500;

/**
 * A policy to create or replace. System rules cannot be sent: the server keeps a policy's system rules as
 * they are and refuses a rule whose name carries a system prefix.
 */
export const PolicyInput = z.object({
  type: z.enum(POLICY_TYPES, { message: 'policy.validation.policyType' }),
  name: NonEmpty(POLICY_NAME_MAX),
  description: z.string().trim().max(POLICY_DESCRIPTION_MAX, { message: 'validation.tooLong' }).default(''),
  enabled: z.boolean().default(true),
  /** Blocks show the block page instead of NXDOMAIN / a refused connection (spec: default on). */
  blockPage: z.boolean().default(true),
  /**
   * Full tunnel: the devices this policy applies to get `AllowedIPs = 0.0.0.0/0, ::/0` and the gateway as their
   * resolver in their WireGuard configuration; split tunnel (only the routed networks) otherwise.
   */
  fullTunnel: z.boolean().default(false),
  rules: z
    .array(PolicyRuleInput)
    .max(MAX_RULES_PER_POLICY, { message: 'policy.validation.tooManyRules' })
    .default([]),
});
export type PolicyInput = z.input<typeof PolicyInput>;

/** New order of one list: every policy id of that list, first = highest precedence. */
export const PolicyOrder = z.object({ list: z.enum(POLICY_LISTS), ids: z.array(Uuid).min(1).max(10_000) });
export type PolicyOrder = z.infer<typeof PolicyOrder>;

// ---------------------------------------------------------------------------------------------------------
// Policy groups: bundle policies and are assigned to user groups, users or devices.

export const PolicyGroup = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  policies: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(POLICY_TYPES) })),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  users: z.array(z.object({ id: z.string(), username: z.string() })),
  /** Enrolled devices; a removed device leaves its policy groups. */
  devices: z.array(z.object({ id: z.string(), name: z.string(), username: z.string().nullable() })),
  /** End users the policy group applies to: those in `users` and the members of `groups`, each counted once. */
  userCount: z.number().int(),
  updatedAt: z.string(),
});
export type PolicyGroup = z.infer<typeof PolicyGroup>;

export const PolicyGroupInput = z.object({
  name: NonEmpty(POLICY_NAME_MAX),
  description: z.string().trim().max(POLICY_DESCRIPTION_MAX, { message: 'validation.tooLong' }).default(''),
  policyIds: z.array(Uuid).max(1000).default([]),
  groupIds: z.array(Uuid).max(1000).default([]),
  userIds: z.array(Uuid).max(10_000).default([]),
  deviceIds: z.array(Uuid).max(10_000).default([]),
});
export type PolicyGroupInput = z.input<typeof PolicyGroupInput>;

// ---------------------------------------------------------------------------------------------------------
// Simulation, lint and policy tests.

/**
 * A request to decide: who (user or device) and where to. `destination` is a URL (`https://host/path`), a
 * domain, an IP, or `IP:port` / `domain:port`.
 */
export const SimulationRequest = z.object({
  userId: Uuid.optional(),
  deviceId: z.string().trim().max(100).optional(),
  destination: z.string().trim().min(1, { message: 'validation.required' }).max(2000),
  /** Source IP, for location and source-country conditions. */
  sourceIp: z.string().trim().max(45).optional(),
  protocol: z.enum(['tcp', 'udp']).default('tcp'),
  /** ISO time of the request (schedules); now when absent. */
  time: z.iso.datetime({ offset: true }).optional(),
});
export type SimulationRequest = z.input<typeof SimulationRequest>;

/** An unsaved policy to simulate or lint against: replaces the policy with `id`, or is added when no id. */
export const PolicyDraft = z.object({ id: Uuid.optional(), policy: PolicyInput });
export type PolicyDraft = z.input<typeof PolicyDraft>;

export const SimulateBody = z.object({ request: SimulationRequest, draft: PolicyDraft.optional() });
export type SimulateBody = z.input<typeof SimulateBody>;

export const DECISIONS = ['allow', 'block'] as const;
export type Decision = (typeof DECISIONS)[number];

/** A rule as the trace names it. */
export const RuleRef = z.object({
  policyId: z.string(),
  policyName: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  type: z.enum(RULE_TYPES),
  action: z.enum(RULE_ACTIONS),
  system: z.boolean(),
});
export type RuleRef = z.infer<typeof RuleRef>;

/**
 * One step of the trace. `outcome`: matched (this rule decided the layer), no-match (its matcher or a
 * condition failed — `reason` says which), skipped (disabled, not for this subject, or layer not reached).
 * `reason` is a translation key, `values` fill it.
 */
export const TraceStep = z.object({
  layer: z.enum(LAYERS),
  rule: RuleRef.nullable(),
  outcome: z.enum(['matched', 'no-match', 'skipped', 'default']),
  reason: z.string(),
  values: z.record(z.string(), z.string()),
});
export type TraceStep = z.infer<typeof TraceStep>;

export const SimulationResult = z.object({
  decision: z.enum(DECISIONS),
  /** The rule that decided (the blocking rule, or the last allowing rule); null = the default. */
  rule: RuleRef.nullable(),
  layer: z.enum(LAYERS).nullable(),
  /** Rewritten address, gateway to route through, and QoS class the request gets. */
  rewrite: z.string().nullable(),
  gateway: z.string().nullable(),
  qos: z.string(),
  /** What the request resolved to: host, path, IP, port, countries, categories and apps. */
  context: z.object({
    host: z.string().nullable(),
    path: z.string().nullable(),
    ip: z.string().nullable(),
    port: z.number().int().nullable(),
    sourceCountry: z.string().nullable(),
    destinationCountry: z.string().nullable(),
    categories: z.array(z.string()),
    apps: z.array(z.string()),
    groups: z.array(z.string()),
  }),
  trace: z.array(TraceStep),
});
export type SimulationResult = z.infer<typeof SimulationResult>;

export const LINT_KINDS = [
  'shadowed',
  'conflict',
  'redundant',
  'unused-object',
  'missing-object',
  'empty-matcher',
] as const;
export type LintKind = (typeof LINT_KINDS)[number];

/** One lint finding: the rule at fault and, for shadowed/conflict/redundant, the earlier rule it clashes with. */
export const LintFinding = z.object({
  kind: z.enum(LINT_KINDS),
  severity: z.enum(['error', 'warning', 'info']),
  rule: RuleRef.nullable(),
  other: RuleRef.nullable(),
  /** For object findings: the object kind and id. */
  object: z.object({ kind: z.string(), id: z.string(), name: z.string() }).nullable(),
  message: z.string(),
  values: z.record(z.string(), z.string()),
});
export type LintFinding = z.infer<typeof LintFinding>;

export const LintBody = z.object({ draft: PolicyDraft.optional() });
export type LintBody = z.input<typeof LintBody>;

/** A pinned expectation: "this request is decided so". A save that breaks one is refused. */
export const PolicyTest = z.object({
  id: z.string(),
  name: z.string(),
  request: SimulationRequest.extend({ protocol: z.enum(['tcp', 'udp']) }),
  expect: z.enum(DECISIONS),
  /** The outcome against the live policy when listed. */
  actual: z.enum(DECISIONS).nullable(),
  passing: z.boolean().nullable(),
  updatedAt: z.string(),
});
export type PolicyTest = z.infer<typeof PolicyTest>;

export const PolicyTestInput = z.object({
  name: NonEmpty(RULE_NAME_MAX),
  request: SimulationRequest,
  expect: z.enum(DECISIONS),
});
export type PolicyTestInput = z.input<typeof PolicyTestInput>;

/** A failing test as a refused save lists it (409 `policy_tests_failed`, in `failures`). */
export const PolicyTestFailure = z.object({
  testId: z.string(),
  name: z.string(),
  expect: z.enum(DECISIONS),
  actual: z.enum(DECISIONS),
  rule: RuleRef.nullable(),
});
export type PolicyTestFailure = z.infer<typeof PolicyTestFailure>;

/** Saves answer with the lint findings of the saved state, so the editor shows them inline. */
export const PolicySaved = z.object({ policy: Policy, lint: z.array(LintFinding) });
export type PolicySaved = z.infer<typeof PolicySaved>;

/** A rule that uses an object: where-used of locations, apps, categories, feeds, groups. */
export const WhereUsed = z.object({
  rules: z.array(RuleRef),
  policyGroups: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type WhereUsed = z.infer<typeof WhereUsed>;
export const OBJECT_KINDS = ['location', 'app', 'category', 'feed', 'group', 'policy'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];
export const WhereUsedQuery = z.object({ kind: z.enum(OBJECT_KINDS), id: z.string().min(1).max(200) });

/**
 * `/users/user-policy-view`: which policies apply to each end user, and through what — everyone (a policy in no
 * policy group), the user directly, or one of their groups — via which policy group.
 */
export const UserPolicyVia = z.object({
  kind: z.enum(['everyone', 'user', 'group']),
  policyGroup: z.string().nullable(),
  group: z.string().nullable(),
});
export type UserPolicyVia = z.infer<typeof UserPolicyVia>;
export const UserPolicyView = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  /** In evaluation order (user policies, then device policies, then QoS). */
  policies: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.enum(POLICY_TYPES),
      enabled: z.boolean(),
      via: z.array(UserPolicyVia),
    }),
  ),
});
export type UserPolicyView = z.infer<typeof UserPolicyView>;
export const UserPolicyViewQuery = PageQuery.extend({
  sort: z.enum(['username', 'fullname']).default('username'),
});

const PolicyParams = TenantParams.extend({ id: Uuid });

export const policyEndpoints = {
  listPolicies: endpoint({
    method: 'GET',
    path: '/policy/:tenant',
    access: 'policies:view',
    summary: 'The three policy lists (qos, user, device), each ordered by precedence',
    tags: ['policies'],
    params: TenantParams,
    response: PolicyLists,
  }),
  getPolicy: endpoint({
    method: 'GET',
    path: '/policy/:tenant/:id',
    access: 'policies:view',
    summary: 'One policy with its rules',
    tags: ['policies'],
    params: PolicyParams,
    response: Policy,
  }),
  createPolicy: endpoint({
    method: 'POST',
    path: '/policy/:tenant',
    access: 'policies:create',
    summary: 'Create a policy (last in its list); refused with 409 when a policy test would fail',
    tags: ['policies'],
    params: TenantParams,
    body: PolicyInput,
    response: PolicySaved,
    status: 201,
  }),
  updatePolicy: endpoint({
    method: 'PUT',
    path: '/policy/:tenant/:id',
    access: 'policies:update',
    summary: "Replace a policy's fields and rules (system rules are kept); refused when a policy test fails",
    tags: ['policies'],
    params: PolicyParams,
    body: PolicyInput,
    response: PolicySaved,
  }),
  setPolicyEnabled: endpoint({
    method: 'PUT',
    path: '/policy/:tenant/:id/enabled',
    access: 'policies:update',
    summary: 'Enable or disable a policy; refused when a policy test fails',
    tags: ['policies'],
    params: PolicyParams,
    body: z.object({ enabled: z.boolean() }),
    response: PolicySaved,
  }),
  copyPolicy: endpoint({
    method: 'POST',
    path: '/policy/:tenant/:id/copy',
    access: 'policies:create',
    configFlag: 'copyAllowed',
    summary: 'Copy a policy with its rules, disabled, right after the original',
    tags: ['policies'],
    params: PolicyParams,
    body: z.object({ name: NonEmpty(POLICY_NAME_MAX).optional() }),
    response: PolicySaved,
    status: 201,
  }),
  reorderPolicies: endpoint({
    method: 'PUT',
    path: '/policy/:tenant/order',
    access: 'policies:update',
    summary: 'Set the order of one list; refused when a policy test fails',
    tags: ['policies'],
    params: TenantParams,
    body: PolicyOrder,
    response: PolicyLists,
  }),
  deletePolicies: endpoint({
    method: 'DELETE',
    path: '/policy/:tenant',
    access: 'policies:delete',
    summary: 'Delete policies by a list of ids (spec §4); refused when a policy test fails',
    tags: ['policies'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  simulate: endpoint({
    method: 'POST',
    path: '/policy/simulate/:tenant',
    access: 'policies:view',
    summary: 'Decide a request against the live policy or an unsaved draft, with the full trace',
    tags: ['policies'],
    params: TenantParams,
    body: SimulateBody,
    response: SimulationResult,
  }),
  lint: endpoint({
    method: 'POST',
    path: '/policy/lint/:tenant',
    access: 'policies:view',
    summary:
      'Lint the live policy or a draft: shadowed, conflicting and redundant rules, unused and missing objects',
    tags: ['policies'],
    params: TenantParams,
    body: LintBody,
    response: z.array(LintFinding),
  }),
  whereUsed: endpoint({
    method: 'GET',
    path: '/policy/where-used/:tenant',
    access: 'policies:view',
    summary: 'The rules and policy groups that use an object',
    tags: ['policies'],
    params: TenantParams,
    query: WhereUsedQuery,
    response: WhereUsed,
  }),
  userPolicyView: endpoint({
    method: 'GET',
    path: '/policy/user-view/:tenant',
    access: 'policies:view',
    summary: 'A page of end users with the policies that apply to each and through what',
    tags: ['policies'],
    params: TenantParams,
    query: UserPolicyViewQuery,
    response: Page(UserPolicyView),
  }),
  listPolicyTests: endpoint({
    method: 'GET',
    path: '/policy/tests/:tenant',
    access: 'policies:view',
    summary: 'Pinned expectations with their outcome against the live policy',
    tags: ['policies'],
    params: TenantParams,
    response: z.array(PolicyTest),
  }),
  createPolicyTest: endpoint({
    method: 'POST',
    path: '/policy/tests/:tenant',
    access: 'policies:create',
    summary: 'Pin an expectation',
    tags: ['policies'],
    params: TenantParams,
    body: PolicyTestInput,
    response: PolicyTest,
    status: 201,
  }),
  updatePolicyTest: endpoint({
    method: 'PUT',
    path: '/policy/tests/:tenant/:id',
    access: 'policies:update',
    summary: 'Change a pinned expectation',
    tags: ['policies'],
    params: PolicyParams,
    body: PolicyTestInput,
    response: PolicyTest,
  }),
  deletePolicyTests: endpoint({
    method: 'DELETE',
    path: '/policy/tests/:tenant',
    access: 'policies:delete',
    summary: 'Delete pinned expectations by a list of ids',
    tags: ['policies'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  listPolicyGroups: endpoint({
    method: 'GET',
    path: '/policy/group/:tenant',
    access: 'policies:view',
    configFlag: 'policyGroups',
    summary: 'Policy groups with their policies and assignments (spec §7)',
    tags: ['policies'],
    params: TenantParams,
    response: z.array(PolicyGroup),
  }),
  getPolicyGroup: endpoint({
    method: 'GET',
    path: '/policy/group/:tenant/:id',
    access: 'policies:view',
    configFlag: 'policyGroups',
    summary: 'One policy group',
    tags: ['policies'],
    params: PolicyParams,
    response: PolicyGroup,
  }),
  createPolicyGroup: endpoint({
    method: 'POST',
    path: '/policy/group/:tenant',
    access: 'policies:create',
    configFlag: 'policyGroups',
    summary: 'Create a policy group; refused when a policy test fails',
    tags: ['policies'],
    params: TenantParams,
    body: PolicyGroupInput,
    response: PolicyGroup,
    status: 201,
  }),
  updatePolicyGroup: endpoint({
    method: 'PUT',
    path: '/policy/group/:tenant/:id',
    access: 'policies:update',
    configFlag: 'policyGroups',
    summary: 'Replace a policy group; refused when a policy test fails',
    tags: ['policies'],
    params: PolicyParams,
    body: PolicyGroupInput,
    response: PolicyGroup,
  }),
  deletePolicyGroups: endpoint({
    method: 'DELETE',
    path: '/policy/group/:tenant',
    access: 'policies:delete',
    configFlag: 'policyGroups',
    summary: 'Delete policy groups by a list of ids; refused when a policy test fails',
    tags: ['policies'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
};
