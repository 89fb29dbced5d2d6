import {
  isSystemRule,
  type PolicyRule,
  type PolicyType,
  type RuleAction,
  type RuleRef,
  type RuleSchedule,
  type RuleType,
  splitMatcher,
} from '@palisade/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import {
  policies,
  policyGroupDevices,
  policyGroupGroups,
  policyGroupPolicies,
  policyGroups,
  policyGroupUsers,
  policyRules,
  policyTests,
} from './policies.tables';

/** What a rule refers to by id: the object kinds of the policy-objects module. */
export type ReferenceKind = 'location' | 'app' | 'category' | 'feed';

/** A policy as listed: no rules, with its rule count and policy groups. */
export interface PolicyRow {
  id: string;
  type: PolicyType;
  name: string;
  description: string;
  enabled: boolean;
  precedence: number;
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

const toDate = (value: unknown) => new Date(value as string | Date);
const jsonList = <T>(value: unknown): T[] =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];

// ---- Policies --------------------------------------------------------------------------------------------

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
        policies.precedence, policies.updated_at,
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
  values: { type: PolicyType; name: string; description: string; enabled: boolean; precedence: number },
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
  values: { type?: PolicyType; name?: string; description?: string; enabled?: boolean },
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

// ---- Users and groups (for simulation, tests and policy groups) -------------------------------------------

/** An end user of the tenant with the ids and names of their groups, or null when there is none. */
export async function endUserWithGroups(tx: Tx, tenantId: string, userId: string) {
  const rows = await queryRows<{ id: string; username: string; groups: unknown }>(
    tx,
    sql`select users.id, users.username,
        coalesce((select jsonb_agg(jsonb_build_object('id', groups.id, 'name', groups.name) order by lower(groups.name))
          from user_groups join groups on groups.tenant_id = user_groups.tenant_id and groups.id = user_groups.group_id
          where user_groups.tenant_id = users.tenant_id and user_groups.user_id = users.id), '[]'::jsonb) as groups
      from users
      where users.tenant_id = ${tenantId} and users.id = ${userId} and users.usertype = 0`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: String(row.id),
    username: String(row.username),
    groups: jsonList<{ id: string; name: string }>(row.groups),
  };
}

/** The group ids of each of `userIds` (users without groups, or unknown, are absent). */
export async function groupIdsOfUsers(tx: Tx, tenantId: string, userIds: string[]) {
  const out = new Map<string, string[]>();
  if (userIds.length === 0) return out;
  const rows = await queryRows<{ user_id: string; group_id: string }>(
    tx,
    sql`select user_groups.user_id, user_groups.group_id from user_groups
      where user_groups.tenant_id = ${tenantId} and user_groups.user_id in (${sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  );
  for (const row of rows) {
    const list = out.get(String(row.user_id)) ?? [];
    list.push(String(row.group_id));
    out.set(String(row.user_id), list);
  }
  return out;
}

/** The ids among `ids` that exist in the tenant, per kind of object (users: end users only). */
async function existingIds(
  tx: Tx,
  tenantId: string,
  table: 'policies' | 'groups' | 'users' | 'devices',
  ids: string[],
) {
  if (ids.length === 0) return new Set<string>();
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const from = {
    policies: sql`select id from policies where tenant_id = ${tenantId}`,
    groups: sql`select id from groups where tenant_id = ${tenantId}`,
    users: sql`select id from users where tenant_id = ${tenantId} and usertype = 0`,
    devices: sql`select id from devices where tenant_id = ${tenantId}`,
  }[table];
  const rows = await queryRows<{ id: string }>(tx, sql`${from} and id in (${list})`);
  return new Set(rows.map((row) => String(row.id)));
}

export const existingPolicyIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'policies', ids);
export const existingGroupIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'groups', ids);
export const existingEndUserIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'users', ids);
export const existingDeviceIds = (tx: Tx, tenantId: string, ids: string[]) =>
  existingIds(tx, tenantId, 'devices', ids);

// ---- Policy groups ----------------------------------------------------------------------------------------

export interface PolicyGroupRow {
  id: string;
  name: string;
  description: string;
  policies: { id: string; name: string; type: PolicyType }[];
  groups: { id: string; name: string }[];
  users: { id: string; username: string }[];
  devices: { id: string; name: string; username: string | null }[];
  updatedAt: Date;
}

/** The tenant's policy groups (or the given ids) by name, with their policies and assignments. */
export async function listPolicyGroups(tx: Tx, tenantId: string, ids?: string[]): Promise<PolicyGroupRow[]> {
  if (ids && ids.length === 0) return [];
  const only = ids
    ? sql`and policy_groups.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select policy_groups.id, policy_groups.name, policy_groups.description,
        policy_groups.updated_at,
        coalesce((select jsonb_agg(jsonb_build_object('id', policies.id, 'name', policies.name, 'type', policies.type)
            order by policies.type, policies.precedence)
          from policy_group_policies join policies on policies.tenant_id = policy_group_policies.tenant_id
            and policies.id = policy_group_policies.policy_id
          where policy_group_policies.tenant_id = policy_groups.tenant_id
            and policy_group_policies.policy_group_id = policy_groups.id), '[]'::jsonb) as policies,
        coalesce((select jsonb_agg(jsonb_build_object('id', groups.id, 'name', groups.name) order by lower(groups.name))
          from policy_group_groups join groups on groups.tenant_id = policy_group_groups.tenant_id
            and groups.id = policy_group_groups.group_id
          where policy_group_groups.tenant_id = policy_groups.tenant_id
            and policy_group_groups.policy_group_id = policy_groups.id), '[]'::jsonb) as groups,
        coalesce((select jsonb_agg(jsonb_build_object('id', users.id, 'username', users.username) order by users.username)
          from policy_group_users join users on users.tenant_id = policy_group_users.tenant_id
            and users.id = policy_group_users.user_id
          where policy_group_users.tenant_id = policy_groups.tenant_id
            and policy_group_users.policy_group_id = policy_groups.id), '[]'::jsonb) as users,
        coalesce((select jsonb_agg(jsonb_build_object('id', devices.id, 'name', devices.name, 'username', users.username)
            order by lower(devices.name), devices.id)
          from policy_group_devices join devices on devices.tenant_id = policy_group_devices.tenant_id
            and devices.id = policy_group_devices.device_id
          left join users on users.tenant_id = devices.tenant_id and users.id = devices.user_id
          where policy_group_devices.tenant_id = policy_groups.tenant_id
            and policy_group_devices.policy_group_id = policy_groups.id), '[]'::jsonb) as devices
      from policy_groups
      where policy_groups.tenant_id = ${tenantId} ${only}
      order by lower(policy_groups.name), policy_groups.id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    name: String(row.name),
    description: String(row.description),
    policies: jsonList<{ id: string; name: string; type: PolicyType }>(row.policies),
    groups: jsonList<{ id: string; name: string }>(row.groups),
    users: jsonList<{ id: string; username: string }>(row.users),
    devices: jsonList<{ id: string; name: string; username: string | null }>(row.devices),
    updatedAt: toDate(row.updated_at),
  }));
}

export async function getPolicyGroup(tx: Tx, tenantId: string, id: string) {
  return (await listPolicyGroups(tx, tenantId, [id]))[0] ?? null;
}

export async function policyGroupNameTaken(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const rows = await queryRows<{ taken: boolean }>(
    tx,
    sql`select exists(
      select 1 from policy_groups
      where policy_groups.tenant_id = ${tenantId} and lower(policy_groups.name) = ${name.toLowerCase()}
      ${exceptId ? sql`and policy_groups.id <> ${exceptId}` : sql``}
    ) as taken`,
  );
  return Boolean(rows[0]?.taken);
}

export interface PolicyGroupWrite {
  name: string;
  description: string;
  policyIds: string[];
  groupIds: string[];
  userIds: string[];
  deviceIds: string[];
}

/** Creates a policy group (id given) or replaces one, with its policies and assignments. */
export async function writePolicyGroup(
  tx: Tx,
  tenantId: string,
  id: string | null,
  values: PolicyGroupWrite,
) {
  let groupId = id;
  if (groupId === null) {
    const [row] = await tx
      .insert(policyGroups)
      .values({ tenantId, name: values.name, description: values.description })
      .returning({ id: policyGroups.id });
    groupId = row.id;
  } else {
    await tx
      .update(policyGroups)
      .set({
        name: values.name,
        description: values.description,
        updatedAt: new Date(),
      })
      .where(and(eq(policyGroups.tenantId, tenantId), eq(policyGroups.id, groupId)));
    const mine = (
      table:
        | typeof policyGroupPolicies
        | typeof policyGroupGroups
        | typeof policyGroupUsers
        | typeof policyGroupDevices,
    ) => and(eq(table.tenantId, tenantId), eq(table.policyGroupId, groupId as string));
    await tx.delete(policyGroupPolicies).where(mine(policyGroupPolicies));
    await tx.delete(policyGroupGroups).where(mine(policyGroupGroups));
    await tx.delete(policyGroupUsers).where(mine(policyGroupUsers));
    await tx.delete(policyGroupDevices).where(mine(policyGroupDevices));
  }
  const policyGroupId = groupId;
  if (values.policyIds.length > 0) {
    await tx
      .insert(policyGroupPolicies)
      .values(values.policyIds.map((policyId) => ({ tenantId, policyGroupId, policyId })));
  }
  if (values.groupIds.length > 0) {
    await tx
      .insert(policyGroupGroups)
      .values(values.groupIds.map((gid) => ({ tenantId, policyGroupId, groupId: gid })));
  }
  if (values.userIds.length > 0) {
    await tx
      .insert(policyGroupUsers)
      .values(values.userIds.map((userId) => ({ tenantId, policyGroupId, userId })));
  }
  if (values.deviceIds.length > 0) {
    await tx
      .insert(policyGroupDevices)
      .values(values.deviceIds.map((deviceId) => ({ tenantId, policyGroupId, deviceId })));
  }
  return policyGroupId;
}

/** Deletes policy groups by id; returns the ids that went. */
export async function deletePolicyGroups(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .delete(policyGroups)
    .where(and(eq(policyGroups.tenantId, tenantId), inArray(policyGroups.id, ids)))
    .returning({ id: policyGroups.id });
  return rows.map((row) => row.id);
}

/** Policy groups assigned to a user group. */
export async function policyGroupsOfGroup(tx: Tx, tenantId: string, groupId: string) {
  return queryRows<{ id: string; name: string }>(
    tx,
    sql`select policy_groups.id, policy_groups.name from policy_group_groups
      join policy_groups on policy_groups.tenant_id = policy_group_groups.tenant_id
        and policy_groups.id = policy_group_groups.policy_group_id
      where policy_group_groups.tenant_id = ${tenantId} and policy_group_groups.group_id = ${groupId}
      order by lower(policy_groups.name)`,
  );
}

/** Policy groups that carry a policy. */
export async function policyGroupsOfPolicy(tx: Tx, tenantId: string, policyId: string) {
  return queryRows<{ id: string; name: string }>(
    tx,
    sql`select policy_groups.id, policy_groups.name from policy_group_policies
      join policy_groups on policy_groups.tenant_id = policy_group_policies.tenant_id
        and policy_groups.id = policy_group_policies.policy_group_id
      where policy_group_policies.tenant_id = ${tenantId} and policy_group_policies.policy_id = ${policyId}
      order by lower(policy_groups.name)`,
  );
}

// ---- Policy tests -----------------------------------------------------------------------------------------

export type PolicyTestRow = typeof policyTests.$inferSelect;

export async function listPolicyTests(tx: Tx, tenantId: string, ids?: string[]): Promise<PolicyTestRow[]> {
  if (ids && ids.length === 0) return [];
  return tx
    .select()
    .from(policyTests)
    .where(
      ids
        ? and(eq(policyTests.tenantId, tenantId), inArray(policyTests.id, ids))
        : eq(policyTests.tenantId, tenantId),
    )
    .orderBy(sql`lower(${policyTests.name})`, asc(policyTests.id));
}

export async function insertPolicyTest(
  tx: Tx,
  tenantId: string,
  values: { name: string; request: Record<string, unknown>; expect: 'allow' | 'block' },
): Promise<string> {
  const [row] = await tx
    .insert(policyTests)
    .values({ tenantId, ...values })
    .returning({ id: policyTests.id });
  return row.id;
}

export async function updatePolicyTest(
  tx: Tx,
  tenantId: string,
  id: string,
  values: { name: string; request: Record<string, unknown>; expect: 'allow' | 'block' },
) {
  await tx
    .update(policyTests)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyTests.tenantId, tenantId), eq(policyTests.id, id)));
}

export async function deletePolicyTests(tx: Tx, tenantId: string, ids: string[]): Promise<PolicyTestRow[]> {
  if (ids.length === 0) return [];
  return tx
    .delete(policyTests)
    .where(and(eq(policyTests.tenantId, tenantId), inArray(policyTests.id, ids)))
    .returning();
}

// ---- References from rules to objects (used by the policy-objects module) -------------------------------

const ARRAY_COLUMN = { location: 'locations', category: 'categories', feed: 'feeds' } as const;

/** The items of an app rule's matcher, trimmed, as SQL (app ids are separated by `;`, `,` or new lines). */
const appItems = sql`(select btrim(item) as item
  from unnest(regexp_split_to_array(policy_rules.url, '[;,\n]')) as item where btrim(item) <> '')`;

/** The rules that use an object, as the trace names rules, in policy and rule order. */
export async function rulesUsing(
  tx: Tx,
  tenantId: string,
  kind: ReferenceKind,
  id: string,
): Promise<RuleRef[]> {
  const uses =
    kind === 'app'
      ? sql`policy_rules.type = 'app' and ${id} in ${appItems}`
      : sql`${id} = any(${sql.identifier('policy_rules')}.${sql.identifier(ARRAY_COLUMN[kind])})`;
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select policy_rules.id as rule_id, policy_rules.name as rule_name, policy_rules.type, policy_rules.action,
        policy_rules.issysgen, policies.id as policy_id, policies.name as policy_name
      from policy_rules join policies on policies.tenant_id = policy_rules.tenant_id
        and policies.id = policy_rules.policy_id
      where policy_rules.tenant_id = ${tenantId} and ${uses}
      order by policies.type, policies.precedence, policy_rules.position`,
  );
  return rows.map((row) => ({
    policyId: String(row.policy_id),
    policyName: String(row.policy_name),
    ruleId: String(row.rule_id),
    ruleName: String(row.rule_name),
    type: row.type as RuleType,
    action: row.action as RuleAction,
    system: isSystemRule({ name: String(row.rule_name), issysgen: Boolean(row.issysgen) }),
  }));
}

/** How many rules use each object id of a kind (ids no rule uses are absent). */
export async function ruleReferenceCounts(
  tx: Tx,
  tenantId: string,
  kind: ReferenceKind,
): Promise<Map<string, number>> {
  const rows =
    kind === 'app'
      ? await queryRows<{ item: string; uses: number | string }>(
          tx,
          sql`select btrim(item) as item, count(distinct policy_rules.id) as uses
            from policy_rules cross join unnest(regexp_split_to_array(policy_rules.url, '[;,\n]')) as item
            where policy_rules.tenant_id = ${tenantId} and policy_rules.type = 'app' and btrim(item) <> ''
            group by btrim(item)`,
        )
      : await queryRows<{ item: string; uses: number | string }>(
          tx,
          sql`select item, count(distinct policy_rules.id) as uses
            from policy_rules cross join unnest(${sql.identifier('policy_rules')}.${sql.identifier(ARRAY_COLUMN[kind])}) as item
            where policy_rules.tenant_id = ${tenantId}
            group by item`,
        );
  return new Map(rows.map((row) => [String(row.item), Number(row.uses)]));
}

/**
 * Removes object ids from every rule that uses them: from `locations`, `categories` or `feeds`, or from the
 * matcher of app rules. A rule left with nothing to match (empty matcher, no categories, no feeds) is deleted.
 * The policies whose rules changed get a new `updated_at`.
 */
export async function removeRuleReferences(tx: Tx, tenantId: string, kind: ReferenceKind, ids: string[]) {
  if (ids.length === 0) return;
  const gone = new Set(ids);
  const touched: { id: string; policyId: string }[] = [];
  if (kind === 'app') {
    const rows = await tx
      .select({ id: policyRules.id, policyId: policyRules.policyId, url: policyRules.url })
      .from(policyRules)
      .where(and(eq(policyRules.tenantId, tenantId), eq(policyRules.type, 'app')));
    for (const row of rows) {
      const items = splitMatcher(row.url);
      const kept = items.filter((item) => !gone.has(item));
      if (kept.length === items.length) continue;
      await tx
        .update(policyRules)
        .set({ url: kept.join(';') })
        .where(and(eq(policyRules.tenantId, tenantId), eq(policyRules.id, row.id)));
      touched.push(row);
    }
  } else {
    const column = sql.identifier(ARRAY_COLUMN[kind]);
    const list = JSON.stringify([...gone]);
    const rows = await queryRows<{ id: string; policy_id: string }>(
      tx,
      sql`update policy_rules
        set ${column} = array(select item from unnest(policy_rules.${column}) as item
          where not item = any(array(select jsonb_array_elements_text(${list}::jsonb))))
        where policy_rules.tenant_id = ${tenantId}
          and policy_rules.${column} && array(select jsonb_array_elements_text(${list}::jsonb))
        returning policy_rules.id, policy_rules.policy_id`,
    );
    touched.push(...rows.map((row) => ({ id: String(row.id), policyId: String(row.policy_id) })));
  }
  if (touched.length === 0) return;
  await tx.delete(policyRules).where(
    and(
      eq(policyRules.tenantId, tenantId),
      inArray(
        policyRules.id,
        touched.map((row) => row.id),
      ),
      eq(policyRules.url, ''),
      sql`cardinality(${policyRules.categories}) = 0`,
      sql`cardinality(${policyRules.feeds}) = 0`,
    ),
  );
  await tx
    .update(policies)
    .set({ updatedAt: new Date() })
    .where(
      and(
        eq(policies.tenantId, tenantId),
        inArray(policies.id, [...new Set(touched.map((r) => r.policyId))]),
      ),
    );
}
