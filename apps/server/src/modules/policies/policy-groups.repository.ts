import type { PolicyType } from '@palisade/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { jsonList, toDate } from './policies.rows';
import {
  policyGroupDevices,
  policyGroupGroups,
  policyGroupPolicies,
  policyGroups,
  policyGroupUsers,
} from './policies.tables';

// Policy groups: the policies they carry and the user groups, users and devices they are assigned to.

export interface PolicyGroupRow {
  id: string;
  name: string;
  description: string;
  policies: { id: string; name: string; type: PolicyType }[];
  groups: { id: string; name: string }[];
  users: { id: string; username: string }[];
  devices: { id: string; name: string; username: string | null }[];
  /** End users it applies to: those assigned directly and the members of its user groups, each once. */
  userCount: number;
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
            and policy_group_devices.policy_group_id = policy_groups.id), '[]'::jsonb) as devices,
        (select count(*) from (
            select policy_group_users.user_id from policy_group_users
            where policy_group_users.tenant_id = policy_groups.tenant_id
              and policy_group_users.policy_group_id = policy_groups.id
            union
            select user_groups.user_id from policy_group_groups
              join user_groups on user_groups.tenant_id = policy_group_groups.tenant_id
                and user_groups.group_id = policy_group_groups.group_id
            where policy_group_groups.tenant_id = policy_groups.tenant_id
              and policy_group_groups.policy_group_id = policy_groups.id) as reached) as user_count
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
    userCount: Number(row.user_count ?? 0),
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

/** How many policy groups the tenant has. */
export async function countPolicyGroups(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from policy_groups where policy_groups.tenant_id = ${tenantId}`,
  );
  return row?.n ?? 0;
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

/** Takes devices out of every policy group and puts them into one (`policyGroupId`). */
export async function moveDevices(tx: Tx, tenantId: string, policyGroupId: string, deviceIds: string[]) {
  if (deviceIds.length === 0) return;
  await tx
    .delete(policyGroupDevices)
    .where(and(eq(policyGroupDevices.tenantId, tenantId), inArray(policyGroupDevices.deviceId, deviceIds)));
  await tx
    .insert(policyGroupDevices)
    .values(deviceIds.map((deviceId) => ({ tenantId, policyGroupId, deviceId })));
}
