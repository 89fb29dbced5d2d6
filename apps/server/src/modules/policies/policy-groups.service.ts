import type { ErrorDetail, PolicyGroup, PolicyGroupInput } from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import * as repo from './policy-groups.repository';
import * as subjects from './policy-subjects.repository';

type PolicyGroupData = z.output<typeof PolicyGroupInput>;

export function presentPolicyGroup(row: repo.PolicyGroupRow): PolicyGroup {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    policies: row.policies,
    groups: row.groups,
    users: row.users,
    devices: row.devices,
    userCount: row.userCount,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A policy group as the event log keeps it: what an administrator set. The user count is left out: it follows
 * group memberships, which are logged where they change.
 */
function logged({ userCount: _derived, ...group }: PolicyGroup) {
  return group;
}

const nameTaken = () =>
  new AppError('conflict', 'A policy group with this name exists.', [
    { path: 'body.name', message: 'policy.validation.groupNameTaken' },
  ]);

function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw nameTaken();
  throw error;
}

async function requirePolicyGroup(tx: Tx, ctx: Ctx, id: string): Promise<PolicyGroup> {
  const row = await repo.getPolicyGroup(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Policy group');
  return presentPolicyGroup(row);
}

const unique = <T>(list: T[]) => [...new Set(list)];

/** Every policy, user group, end user and device named must be the tenant's; duplicates are dropped. */
async function checkedWrite(
  tx: Tx,
  tenantId: string,
  input: PolicyGroupData,
): Promise<repo.PolicyGroupWrite> {
  const write: repo.PolicyGroupWrite = {
    name: input.name,
    description: input.description,
    policyIds: unique(input.policyIds),
    groupIds: unique(input.groupIds),
    userIds: unique(input.userIds),
    deviceIds: unique(input.deviceIds),
  };
  const [policies, groups, users, devices] = [
    await subjects.existingPolicyIds(tx, tenantId, write.policyIds),
    await subjects.existingGroupIds(tx, tenantId, write.groupIds),
    await subjects.existingEndUserIds(tx, tenantId, write.userIds),
    await subjects.existingDeviceIds(tx, tenantId, write.deviceIds),
  ];
  const details: ErrorDetail[] = [];
  const firstMissing = (
    field: 'policyIds' | 'groupIds' | 'userIds' | 'deviceIds',
    found: Set<string>,
    message: string,
  ) => {
    const i = input[field].findIndex((id) => !found.has(id));
    if (i >= 0) details.push({ path: `body.${field}.${i}`, message, values: { id: input[field][i] } });
  };
  firstMissing('policyIds', policies, 'policy.validation.unknownPolicy');
  firstMissing('groupIds', groups, 'validation.unknownGroup');
  firstMissing('userIds', users, 'validation.unknownUser');
  firstMissing('deviceIds', devices, 'validation.unknownDevice');
  if (details.length > 0) throw invalid(details);
  return write;
}

export function listPolicyGroups(database: Database, ctx: Ctx): Promise<PolicyGroup[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) =>
    (await repo.listPolicyGroups(tx, ctx.tenant.id)).map(presentPolicyGroup),
  );
}

export function getPolicyGroup(database: Database, ctx: Ctx, id: string): Promise<PolicyGroup> {
  return database.tenantTx(ctx.tenant.id, (tx) => requirePolicyGroup(tx, ctx, id));
}

export function createPolicyGroup(
  database: Database,
  ctx: Ctx,
  input: PolicyGroupData,
): Promise<PolicyGroup> {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const write = await checkedWrite(tx, tenantId, input);
    if (await repo.policyGroupNameTaken(tx, tenantId, write.name)) throw nameTaken();
    const id = await repo.writePolicyGroup(tx, tenantId, null, write);
    const after = await requirePolicyGroup(tx, ctx, id);
    await recordEvent(tx, ctx, {
      action: 'policyGroup.create',
      objectType: 'policyGroup',
      objectId: id,
      objectName: after.name,
      after: logged(after),
    });
    return after;
  }).catch(rethrowUnique);
}

export function updatePolicyGroup(
  database: Database,
  ctx: Ctx,
  id: string,
  input: PolicyGroupData,
): Promise<PolicyGroup> {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const before = await requirePolicyGroup(tx, ctx, id);
    const write = await checkedWrite(tx, tenantId, input);
    if (await repo.policyGroupNameTaken(tx, tenantId, write.name, id)) throw nameTaken();
    await repo.writePolicyGroup(tx, tenantId, id, write);
    const after = await requirePolicyGroup(tx, ctx, id);
    await recordEvent(tx, ctx, {
      action: 'policyGroup.update',
      objectType: 'policyGroup',
      objectId: id,
      objectName: after.name,
      before: logged(before),
      after: logged(after),
    });
    return after;
  }).catch(rethrowUnique);
}

/** Deletes policy groups by id (their policies then apply as their other policy groups say, or to everyone). */
export function deletePolicyGroups(database: Database, ctx: Ctx, ids: string[]) {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const rows = await repo.listPolicyGroups(tx, tenantId, unique(ids));
    const deleted = new Set(
      await repo.deletePolicyGroups(
        tx,
        tenantId,
        rows.map((r) => r.id),
      ),
    );
    for (const row of rows) {
      if (!deleted.has(row.id)) continue;
      await recordEvent(tx, ctx, {
        action: 'policyGroup.delete',
        objectType: 'policyGroup',
        objectId: row.id,
        objectName: row.name,
        before: logged(presentPolicyGroup(row)),
      });
    }
    return { deleted: deleted.size };
  });
}

/**
 * Moves devices (endpoint ids of the tenant, checked by the caller) into one policy group, out of the others
 * they were in; one event on the policy group names them. 404 for a policy group not of the tenant.
 */
export function moveDevicesToPolicyGroup(
  database: Database,
  ctx: Ctx,
  policyGroupId: string,
  devices: { id: string; name: string }[],
): Promise<PolicyGroup> {
  return commitPolicyChange(database, ctx, async (tx) => {
    const before = await requirePolicyGroup(tx, ctx, policyGroupId);
    await repo.moveDevices(
      tx,
      ctx.tenant.id,
      policyGroupId,
      devices.map((device) => device.id),
    );
    const after = await requirePolicyGroup(tx, ctx, policyGroupId);
    await recordEvent(tx, ctx, {
      action: 'device.move',
      objectType: 'policyGroup',
      objectId: policyGroupId,
      objectName: after.name,
      before: logged(before),
      after: { ...logged(after), moved: devices.map((device) => device.name) },
    });
    return after;
  });
}
