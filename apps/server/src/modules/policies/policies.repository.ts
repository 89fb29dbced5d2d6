import type { PolicyRule, PolicyType, RuleAction, RuleSchedule, RuleType } from '@palisade/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { jsonList, toDate } from './policies.rows';
import { policies, policyRules } from './policies.tables';

// The policies and their rules. Policy groups, policy tests, the rules' references to objects and the end users,
// groups and devices policies name live in the module's other repositories (policy-groups, policy-tests,
// rule-references, policy-subjects).

/** A policy as listed: no rules, with its rule count and policy groups. */
export interface PolicyRow {
  id: string;
  type: PolicyType;
  name: string;
  description: string;
  enabled: boolean;
  precedence: number;
  /** Migration 0044: the policy's options. */
  blockPage: boolean;
  fullTunnel: boolean;
  ruleCount: number;
  policyGroups: { id: string; name: string }[];
  updatedAt: Date;
}

/** A rule as stored, with the policy it belongs to and its position there. */
export interface RuleRow extends PolicyRule {
  policyId: string;
  position: number;
}

/** A rule to write: every stored field; `id` is kept when given (edited and system rules keep theirs). */
export interface RuleWrite {
  id?: string;
  name: string;
  type: RuleType;
  url: string;
  action: RuleAction;
  target: string;
  ports: string;
  categories: string[];
  feeds: string[];
  locations: string[];
  schedule: RuleSchedule | null;
  enabled: boolean;
  issysgen: boolean;
}

/** The policies of a tenant (all lists, or the given ids), by precedence, with rule counts and policy groups. */
export async function listPolicies(tx: Tx, tenantId: string, ids?: string[]): Promise<PolicyRow[]> {
  if (ids && ids.length === 0) return [];
  const only = ids
    ? sql`and policies.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select policies.id, policies.type, policies.name, policies.description, policies.enabled,
        policies.precedence, policies.block_page, policies.full_tunnel, policies.updated_at,
        (select count(*) from policy_rules
          where policy_rules.tenant_id = policies.tenant_id and policy_rules.policy_id = policies.id) as rule_count,
        coalesce((select jsonb_agg(jsonb_build_object('id', policy_groups.id, 'name', policy_groups.name)
            order by lower(policy_groups.name))
          from policy_group_policies join policy_groups
            on policy_groups.tenant_id = policy_group_policies.tenant_id
            and policy_groups.id = policy_group_policies.policy_group_id
          where policy_group_policies.tenant_id = policies.tenant_id
            and policy_group_policies.policy_id = policies.id), '[]'::jsonb) as policy_groups
      from policies
      where policies.tenant_id = ${tenantId} ${only}
      order by policies.precedence, lower(policies.name), policies.id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    type: row.type as PolicyType,
    name: String(row.name),
    description: String(row.description),
    enabled: Boolean(row.enabled),
    precedence: Number(row.precedence),
    blockPage: Boolean(row.block_page),
    fullTunnel: Boolean(row.full_tunnel),
    ruleCount: Number(row.rule_count ?? 0),
    policyGroups: jsonList<{ id: string; name: string }>(row.policy_groups),
    updatedAt: toDate(row.updated_at),
  }));
}

export async function getPolicy(tx: Tx, tenantId: string, id: string): Promise<PolicyRow | null> {
  return (await listPolicies(tx, tenantId, [id]))[0] ?? null;
}

const toRule = (row: typeof policyRules.$inferSelect): RuleRow => ({
  id: row.id,
  policyId: row.policyId,
  position: row.position,
  name: row.name,
  type: row.type as RuleType,
  url: row.url,
  action: row.action as RuleAction,
  target: row.target,
  ports: row.ports,
  categories: row.categories ?? [],
  feeds: row.feeds ?? [],
  locations: row.locations ?? [],
  schedule: (row.schedule as RuleSchedule | null) ?? null,
  enabled: row.enabled,
  issysgen: row.issysgen,
});

/** Rules of the given policies (or of every policy), by policy and position. */
export async function listRules(tx: Tx, tenantId: string, policyIds?: string[]): Promise<RuleRow[]> {
  if (policyIds && policyIds.length === 0) return [];
  const rows = await tx
    .select()
    .from(policyRules)
    .where(
      policyIds
        ? and(eq(policyRules.tenantId, tenantId), inArray(policyRules.policyId, policyIds))
        : eq(policyRules.tenantId, tenantId),
    )
    .orderBy(asc(policyRules.policyId), asc(policyRules.position));
  return rows.map(toRule);
}

/** Whether another policy of the tenant has this name, ignoring case. */
export async function policyNameTaken(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const rows = await queryRows<{ taken: boolean }>(
    tx,
    sql`select exists(
      select 1 from policies where policies.tenant_id = ${tenantId} and lower(policies.name) = ${name.toLowerCase()}
      ${exceptId ? sql`and policies.id <> ${exceptId}` : sql``}
    ) as taken`,
  );
  return Boolean(rows[0]?.taken);
}

/** The names of the tenant's policies that start with `prefix` (ignoring case), for unique copy names. */
export async function policyNamesStartingWith(
  tx: Tx,
  tenantId: string,
  prefix: string,
): Promise<Set<string>> {
  const rows = await queryRows<{ name: string }>(
    tx,
    sql`select lower(policies.name) as name from policies
      where policies.tenant_id = ${tenantId} and starts_with(lower(policies.name), ${prefix.toLowerCase()})`,
  );
  return new Set(rows.map((row) => row.name));
}

/** The precedence after the last policy of these types (one list). */
export async function nextPrecedence(
  tx: Tx,
  tenantId: string,
  types: readonly PolicyType[],
): Promise<number> {
  const rows = await queryRows<{ top: number | string | null }>(
    tx,
    sql`select max(policies.precedence) as top from policies
      where policies.tenant_id = ${tenantId} and policies.type in (${sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      )})`,
  );
  const top = rows[0]?.top;
  return top === null || top === undefined ? 1 : Number(top) + 1;
}

/** Moves every policy of these types after `precedence` one place down, to make room right after it. */
export async function makeRoomAfter(
  tx: Tx,
  tenantId: string,
  types: readonly PolicyType[],
  precedence: number,
) {
  await tx
    .update(policies)
    .set({ precedence: sql`${policies.precedence} + 1` })
    .where(
      and(
        eq(policies.tenantId, tenantId),
        inArray(policies.type, [...types]),
        sql`${policies.precedence} > ${precedence}`,
      ),
    );
}

export async function setPolicyPrecedence(tx: Tx, tenantId: string, id: string, precedence: number) {
  await tx
    .update(policies)
    .set({ precedence })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
}

/** Rewrites the precedence of `ids` to their position in the list (1, 2, …). */
export async function setPrecedences(tx: Tx, tenantId: string, ids: string[]) {
  if (ids.length === 0) return;
  await tx.execute(
    sql`update policies set precedence = ordered.position::int
      from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as ordered(id, position)
      where policies.tenant_id = ${tenantId} and policies.id = ordered.id::uuid`,
  );
}

export async function insertPolicy(
  tx: Tx,
  tenantId: string,
  values: {
    type: PolicyType;
    name: string;
    description: string;
    enabled: boolean;
    precedence: number;
    blockPage?: boolean;
    fullTunnel?: boolean;
  },
): Promise<string> {
  const [row] = await tx
    .insert(policies)
    .values({ tenantId, ...values })
    .returning({ id: policies.id });
  return row.id;
}

export async function updatePolicy(
  tx: Tx,
  tenantId: string,
  id: string,
  values: {
    type?: PolicyType;
    name?: string;
    description?: string;
    enabled?: boolean;
    blockPage?: boolean;
    fullTunnel?: boolean;
  },
) {
  await tx
    .update(policies)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
}

/** Replaces every rule of a policy with `rules`, in this order; rules that carry an id keep it. */
export async function replaceRules(tx: Tx, tenantId: string, policyId: string, rules: RuleWrite[]) {
  await tx
    .delete(policyRules)
    .where(and(eq(policyRules.tenantId, tenantId), eq(policyRules.policyId, policyId)));
  if (rules.length === 0) return;
  await tx.insert(policyRules).values(
    rules.map((rule, position) => ({
      tenantId,
      policyId,
      position,
      ...(rule.id ? { id: rule.id } : {}),
      name: rule.name,
      type: rule.type,
      url: rule.url,
      action: rule.action,
      target: rule.target,
      ports: rule.ports,
      categories: rule.categories,
      feeds: rule.feeds,
      locations: rule.locations,
      schedule: rule.schedule,
      enabled: rule.enabled,
      issysgen: rule.issysgen,
    })),
  );
}

/** How many rules of the tenant (of any policy, system rules too) name at least one web category. */
export async function countRulesWithCategories(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from policy_rules
      where policy_rules.tenant_id = ${tenantId} and cardinality(policy_rules.categories) > 0`,
  );
  return row?.n ?? 0;
}

/** Deletes policies by id (rules and policy-group links cascade); returns the ids that went. */
export async function deletePolicies(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .delete(policies)
    .where(and(eq(policies.tenantId, tenantId), inArray(policies.id, ids)))
    .returning({ id: policies.id });
  return rows.map((row) => row.id);
}

/**
 * Who each policy applies to, from the policy groups carrying it: the union of their users, user groups and
 * devices. A policy in no policy group is absent (it applies to everyone).
 */
export async function policyAssignments(
  tx: Tx,
  tenantId: string,
): Promise<Map<string, { users: string[]; groups: string[]; devices: string[] }>> {
  const rows = await queryRows<{ policy_id: string; users: unknown; groups: unknown; devices: unknown }>(
    tx,
    sql`select policy_group_policies.policy_id,
        coalesce((select jsonb_agg(distinct policy_group_users.user_id) from policy_group_users
          join policy_group_policies pgp on pgp.tenant_id = policy_group_users.tenant_id
            and pgp.policy_group_id = policy_group_users.policy_group_id
          where policy_group_users.tenant_id = policy_group_policies.tenant_id
            and pgp.policy_id = policy_group_policies.policy_id), '[]'::jsonb) as users,
        coalesce((select jsonb_agg(distinct policy_group_groups.group_id) from policy_group_groups
          join policy_group_policies pgp on pgp.tenant_id = policy_group_groups.tenant_id
            and pgp.policy_group_id = policy_group_groups.policy_group_id
          where policy_group_groups.tenant_id = policy_group_policies.tenant_id
            and pgp.policy_id = policy_group_policies.policy_id), '[]'::jsonb) as groups,
        coalesce((select jsonb_agg(distinct policy_group_devices.device_id) from policy_group_devices
          join policy_group_policies pgp on pgp.tenant_id = policy_group_devices.tenant_id
            and pgp.policy_group_id = policy_group_devices.policy_group_id
          where policy_group_devices.tenant_id = policy_group_policies.tenant_id
            and pgp.policy_id = policy_group_policies.policy_id), '[]'::jsonb) as devices
      from policy_group_policies
      where policy_group_policies.tenant_id = ${tenantId}
      group by policy_group_policies.tenant_id, policy_group_policies.policy_id`,
  );
  return new Map(
    rows.map((row) => [
      String(row.policy_id),
      {
        users: jsonList<string>(row.users).map(String),
        groups: jsonList<string>(row.groups).map(String),
        devices: jsonList<string>(row.devices).map(String),
      },
    ]),
  );
}
