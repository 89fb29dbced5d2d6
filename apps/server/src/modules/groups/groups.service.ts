import type {
  Group,
  GroupCopyInput,
  GroupInput,
  GroupListQuery,
  GroupMember,
  GroupMembersQuery,
  GroupUpdate,
  GroupUsage,
} from '@palisade/contracts';
import type { Database, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, forbidden, invalid, notFound } from '../../lib/errors';
import { actorCan } from '../../lib/grants';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import * as repo from './groups.repository';

/** Maps a row to the public shape. */
export function presentGroup(row: repo.GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    memberCount: row.memberCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const nameTaken = () =>
  new AppError('conflict', 'A group with this name exists.', [
    { path: 'body.name', message: 'validation.groupNameTaken' },
  ]);

/** A unique-index violation that slipped past the friendly check (two concurrent writes of one name). */
function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw nameTaken();
  throw error;
}

async function requireGroup(tx: Tx, ctx: Ctx, id: string): Promise<repo.GroupRow> {
  const row = await repo.getGroup(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Group');
  return row;
}

export function listGroups(database: Database, ctx: Ctx, query: GroupListQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await repo.listGroups(tx, ctx.tenant.id, query);
    return { ...page, items: page.items.map(presentGroup) };
  });
}

export function getGroup(database: Database, ctx: Ctx, id: string) {
  return database.tenantTx(ctx.tenant.id, async (tx) => presentGroup(await requireGroup(tx, ctx, id)));
}

export function createGroup(database: Database, ctx: Ctx, input: GroupInput) {
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await repo.nameTaken(tx, ctx.tenant.id, input.name)) throw nameTaken();
      const id = await repo.insertGroup(tx, ctx.tenant.id, {
        name: input.name,
        description: input.description ?? '',
      });
      const group = presentGroup(await requireGroup(tx, ctx, id));
      await recordEvent(tx, ctx, {
        action: 'group.create',
        objectType: 'group',
        objectId: id,
        objectName: group.name,
        after: group,
      });
      return group;
    })
    .catch(rethrowUnique);
}

/**
 * Copies a group in one transaction: a new group named `input.name` (refused like a create when the name is
 * taken), the source's description unless another is given, and with `withMembers` the source's end users —
 * which adds members, so it needs `groups:update` too, as adding them one call at a time did. With members it
 * goes through the policy-test guard like every membership change; the new group is in no policy group, so
 * the guard can only find the tests as they were.
 */
export async function copyGroup(database: Database, ctx: Ctx, sourceId: string, input: GroupCopyInput) {
  if (input.withMembers && !actorCan(ctx.actor, 'groups:update')) throw forbidden();
  const copy = async (tx: Tx) => {
    const source = await requireGroup(tx, ctx, sourceId);
    if (await repo.nameTaken(tx, ctx.tenant.id, input.name)) throw nameTaken();
    const id = await repo.insertGroup(tx, ctx.tenant.id, {
      name: input.name,
      description: input.description ?? source.description,
    });
    if (input.withMembers) await repo.copyMembers(tx, ctx.tenant.id, sourceId, id);
    const group = presentGroup(await requireGroup(tx, ctx, id));
    await recordEvent(tx, ctx, {
      action: 'group.copy',
      objectType: 'group',
      objectId: id,
      objectName: group.name,
      after: { ...group, copiedFrom: { id: source.id, name: source.name }, withMembers: input.withMembers },
    });
    return group;
  };
  const run = input.withMembers
    ? commitPolicyChange(database, ctx, copy)
    : database.tenantTx(ctx.tenant.id, copy);
  return run.catch(rethrowUnique);
}

export function updateGroup(database: Database, ctx: Ctx, id: string, input: GroupUpdate) {
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      const before = presentGroup(await requireGroup(tx, ctx, id));
      if (input.name !== undefined && (await repo.nameTaken(tx, ctx.tenant.id, input.name, id))) {
        throw nameTaken();
      }
      await repo.updateGroup(tx, ctx.tenant.id, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      });
      const after = presentGroup(await requireGroup(tx, ctx, id));
      await recordEvent(tx, ctx, {
        action: 'group.update',
        objectType: 'group',
        objectId: id,
        objectName: after.name,
        before,
        after,
      });
      return after;
    })
    .catch(rethrowUnique);
}

/**
 * Deletes by a list of ids; memberships go with the groups. Unknown ids and other tenants' ids are skipped.
 * Members lose what the groups brought them, so the delete is refused (409 `policy_tests_failed`, nothing
 * deleted) when it would break a policy test.
 */
export function deleteGroups(database: Database, ctx: Ctx, ids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const deleted = await repo.deleteGroups(tx, ctx.tenant.id, [...new Set(ids)]);
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'group.delete',
        objectType: 'group',
        objectId: row.id,
        objectName: row.name,
        before: presentGroup(row),
      });
    }
    return { deleted: deleted.length };
  });
}

export function listMembers(database: Database, ctx: Ctx, id: string, query: GroupMembersQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    await requireGroup(tx, ctx, id);
    const page = await repo.listMembers(tx, ctx.tenant.id, id, query);
    return {
      ...page,
      items: page.items.map(
        (row): GroupMember => ({
          id: row.id,
          username: row.username,
          fullname: `${row.firstname} ${row.lastname}`.trim(),
          connstatus: row.connstatus as GroupMember['connstatus'],
        }),
      ),
    };
  });
}

/**
 * Adds end users of the tenant; any id that is not one (another tenant's, an administrator's) refuses all, and
 * so does breaking a policy test (409 `policy_tests_failed`): the group's policies now apply to them.
 */
export function addMembers(database: Database, ctx: Ctx, id: string, userIds: string[]) {
  const wanted = [...new Set(userIds)];
  return commitPolicyChange(database, ctx, async (tx) => {
    const group = await requireGroup(tx, ctx, id);
    const found = await repo.findEndUsers(tx, ctx.tenant.id, wanted);
    if (found.length !== wanted.length) {
      throw invalid([{ path: 'body.userIds', message: 'validation.unknownUser' }]);
    }
    const added = new Set(await repo.addMembers(tx, ctx.tenant.id, id, wanted));
    if (added.size > 0) {
      await recordEvent(tx, ctx, {
        action: 'group.members.add',
        objectType: 'group',
        objectId: id,
        objectName: group.name,
        before: { memberCount: group.memberCount },
        after: {
          memberCount: group.memberCount + added.size,
          added: found.filter((user) => added.has(user.id)).map((user) => user.username),
        },
      });
    }
    return { added: added.size };
  });
}

/** Removes members; ids that are not members are skipped. Refused when it would break a policy test. */
export function removeMembers(database: Database, ctx: Ctx, id: string, userIds: string[]) {
  const wanted = [...new Set(userIds)];
  return commitPolicyChange(database, ctx, async (tx) => {
    const group = await requireGroup(tx, ctx, id);
    const removed = new Set(await repo.removeMembers(tx, ctx.tenant.id, id, wanted));
    if (removed.size > 0) {
      const names = await repo.findEndUsers(tx, ctx.tenant.id, [...removed]);
      await recordEvent(tx, ctx, {
        action: 'group.members.remove',
        objectType: 'group',
        objectId: id,
        objectName: group.name,
        before: { memberCount: group.memberCount },
        after: {
          memberCount: group.memberCount - removed.size,
          removed: names.map((user) => user.username),
        },
      });
    }
    return { removed: removed.size };
  });
}

/**
 * Where a group is used: its members, and the policy groups assigned to it (type `policyGroup`), so the delete
 * confirmation can name what the members would lose.
 */
export function getUsage(database: Database, ctx: Ctx, id: string): Promise<GroupUsage> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    await requireGroup(tx, ctx, id);
    return {
      members: await repo.countMembers(tx, ctx.tenant.id, id),
      references: await repo.policyGroupReferences(tx, ctx.tenant.id, id),
    };
  });
}
