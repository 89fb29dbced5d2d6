import {
  type DevicePolicy,
  policyListOf,
  type UserListQuery,
  type UserPolicyVia,
  type UserPolicyView,
} from '@palisade/contracts';
import type { Database, Tx } from '../../db/client';
import type { Ctx } from '../../lib/context';
import * as users from '../users/users.service';
import * as repo from './policies.repository';
import * as groupsRepo from './policy-groups.repository';

const LIST_ORDER = { user: 0, device: 1, qos: 2 } as const;

/**
 * A page of end users with the policies that apply to each (`/users/user-policy-view`). A policy applies to
 * everyone while it is in no policy group; otherwise to the users and the members of the user groups its policy
 * groups are assigned to. Disabled policies are listed too (flagged), so an administrator sees what would apply.
 */
export function userPolicyView(database: Database, ctx: Ctx, query: UserListQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await users.pageOfEndUsers(tx, ctx.tenant.id, query);
    // One query at a time: a transaction is one connection.
    const policies = await repo.listPolicies(tx, ctx.tenant.id);
    const policyGroups = await groupsRepo.listPolicyGroups(tx, ctx.tenant.id);
    const groupNames = new Map((await users.groupOptions(tx, ctx.tenant.id)).map((g) => [g.id, g.name]));
    const ordered = [...policies].sort(
      (a, b) =>
        LIST_ORDER[policyListOf(a.type)] - LIST_ORDER[policyListOf(b.type)] || a.precedence - b.precedence,
    );
    const carriers = new Map<string, groupsRepo.PolicyGroupRow[]>();
    for (const group of policyGroups) {
      for (const policy of group.policies)
        carriers.set(policy.id, [...(carriers.get(policy.id) ?? []), group]);
    }
    const items: UserPolicyView[] = page.items.map((user) => {
      const memberOf = new Set(user.groups);
      const applying = ordered.flatMap((policy) => {
        const via: UserPolicyVia[] = [];
        const groups = carriers.get(policy.id);
        if (!groups) via.push({ kind: 'everyone', policyGroup: null, group: null });
        for (const pg of groups ?? []) {
          if (pg.users.some((u) => u.id === user.id))
            via.push({ kind: 'user', policyGroup: pg.name, group: null });
          for (const g of pg.groups) {
            if (memberOf.has(g.id)) via.push({ kind: 'group', policyGroup: pg.name, group: g.name });
          }
        }
        return via.length
          ? [{ id: policy.id, name: policy.name, type: policy.type, enabled: policy.enabled, via }]
          : [];
      });
      return {
        id: user.id,
        username: user.username,
        fullname: `${user.firstname} ${user.lastname}`.trim(),
        groups: [...memberOf]
          .map((id) => ({ id, name: groupNames.get(id) ?? id }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        policies: applying,
      };
    });
    return { items, total: page.total };
  });
}

/**
 * The policies that apply to one device (its page on `/devices/{id}`): as {@link userPolicyView} for its owner
 * (everyone, the owner, the owner's groups), plus the policy groups the device itself is assigned to.
 */
export async function devicePolicies(
  tx: Tx,
  tenantId: string,
  device: { id: string; userId: string | null; groups: string[] },
): Promise<DevicePolicy[]> {
  const policies = await repo.listPolicies(tx, tenantId);
  const policyGroups = await groupsRepo.listPolicyGroups(tx, tenantId);
  const groupNames = new Map((await users.groupOptions(tx, tenantId)).map((g) => [g.id, g.name]));
  const memberOf = new Set(device.groups);
  const ordered = [...policies].sort(
    (a, b) =>
      LIST_ORDER[policyListOf(a.type)] - LIST_ORDER[policyListOf(b.type)] || a.precedence - b.precedence,
  );
  return ordered.flatMap((policy) => {
    const carriers = policyGroups.filter((pg) => pg.policies.some((p) => p.id === policy.id));
    const via: DevicePolicy['via'] = [];
    if (carriers.length === 0) via.push({ kind: 'everyone', policyGroup: null, group: null });
    for (const pg of carriers) {
      if (pg.devices.some((d) => d.id === device.id))
        via.push({ kind: 'device', policyGroup: pg.name, group: null });
      if (device.userId && pg.users.some((u) => u.id === device.userId))
        via.push({ kind: 'user', policyGroup: pg.name, group: null });
      for (const g of pg.groups) {
        if (memberOf.has(g.id))
          via.push({ kind: 'group', policyGroup: pg.name, group: groupNames.get(g.id) ?? g.name });
      }
    }
    return via.length
      ? [{ id: policy.id, name: policy.name, type: policy.type, enabled: policy.enabled, via }]
      : [];
  });
}
