import type { Readable } from 'node:stream';
import {
  type AssignRoleInput,
  BUILT_IN_ROLES,
  type CustomRole,
  type CustomRoleInput,
  type Permission,
  ROLE_ASSIGNMENT_CSV_COLUMNS,
  ROLE_PERMISSIONS,
  type Role,
  type RoleAssignment,
  type RoleAssignmentsExportQuery,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { Database, Db, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { assertCanGiveRole, assertCanGrant, assertNotSelf, assertOutranks } from '../../lib/grants';
import * as repo from './roles.repository';

type RoleRow = NonNullable<Awaited<ReturnType<typeof repo.getRole>>>;

function present(row: RoleRow): CustomRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions: row.permissions as Permission[],
    assigned: row.assigned,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const nameTaken = () =>
  new AppError('conflict', 'A role with this name exists.', [
    { path: 'body.name', message: 'validation.roleNameTaken' },
  ]);

/** Permissions are stored once each, in matrix order, so two equal roles compare equal. */
const normalise = (permissions: readonly Permission[]) => [...new Set(permissions)].sort();

/** A custom role of the tenant, or null (for other modules, in their transaction). */
export const findCustomRole = (tx: Tx, tenantId: string, id: string) => repo.getRole(tx, tenantId, id);

/**
 * What an administrator holds through their built-in or custom role (for other modules, in their transaction or,
 * for the access check, on the owner connection).
 */
export const permissionsOfUser = (
  db: Db | Tx,
  user: { tenantId: string; role: string; customRoleId: string | null },
) => repo.permissionsOf(db, user);

/** The name of a tenant's custom role, or null (none given, or gone). */
export const customRoleName = (db: Db | Tx, tenantId: string, id: string | null) =>
  repo.customRoleName(db, tenantId, id);

export function listRoles(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, async (tx) => ({
    builtIn: BUILT_IN_ROLES,
    custom: (await repo.listRoles(tx, ctx.tenant.id)).map(present),
  }));
}

/** Nobody edits the role they hold, or a role holding what they do not (they could strip it from others). */
function assertMayEdit(ctx: Ctx, role: RoleRow) {
  if (ctx.actor.customRoleId === role.id) {
    throw new AppError('forbidden', 'You cannot edit the role you hold.', [
      { path: 'params.id', message: 'validation.ownRole' },
    ]);
  }
  assertOutranks(ctx.actor, role.permissions as Permission[]);
}

export function createRole(database: Database, ctx: Ctx, input: CustomRoleInput) {
  assertCanGrant(ctx.actor, input.permissions, 'body.permissions');
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    if (await repo.nameTaken(tx, ctx.tenant.id, input.name)) throw nameTaken();
    const id = await repo.insertRole(tx, {
      tenantId: ctx.tenant.id,
      name: input.name,
      description: input.description ?? '',
      permissions: normalise(input.permissions),
    });
    const role = present((await repo.getRole(tx, ctx.tenant.id, id))!);
    await recordEvent(tx, ctx, {
      action: 'role.create',
      objectType: 'role',
      objectId: id,
      objectName: role.name,
      after: role,
    });
    return role;
  });
}

export function updateRole(database: Database, ctx: Ctx, id: string, input: CustomRoleInput) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const before = await repo.getRole(tx, ctx.tenant.id, id);
    if (!before) throw notFound('Role');
    assertMayEdit(ctx, before);
    assertCanGrant(ctx.actor, input.permissions, 'body.permissions');
    if (await repo.nameTaken(tx, ctx.tenant.id, input.name, id)) throw nameTaken();
    await repo.updateRole(tx, ctx.tenant.id, id, {
      name: input.name,
      description: input.description ?? '',
      permissions: normalise(input.permissions),
    });
    const after = present((await repo.getRole(tx, ctx.tenant.id, id))!);
    await recordEvent(tx, ctx, {
      action: 'role.update',
      objectType: 'role',
      objectId: id,
      objectName: after.name,
      before: present(before),
      after,
    });
    return after;
  });
}

export function deleteRole(database: Database, ctx: Ctx, id: string) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const role = await repo.getRole(tx, ctx.tenant.id, id);
    if (!role) throw notFound('Role');
    assertMayEdit(ctx, role);
    if (role.assigned > 0) {
      throw new AppError(
        'conflict',
        `${role.assigned} administrators hold this role; give them another role first.`,
        [{ path: 'params.id', message: 'validation.roleInUse' }],
      );
    }
    await repo.deleteRole(tx, ctx.tenant.id, id);
    await recordEvent(tx, ctx, {
      action: 'role.delete',
      objectType: 'role',
      objectId: id,
      objectName: role.name,
      before: present(role),
    });
    return { deleted: true as const };
  });
}

export function listAssignments(
  database: Database,
  ctx: Ctx,
  page: { limit: number; offset: number; q?: string },
) {
  return database.tenantTx(ctx.tenant.id, (tx) => repo.listAssignments(tx, ctx.tenant.id, page));
}

const EXPORT_BATCH = 1000;

/**
 * Streams every administrator matching the search as CSV (ordered by username), a page at a time. `role` is the
 * custom role's name for custom roles; `status` is derived as on the administrators list. Formula cells are
 * prefixed with `'`.
 */
export function exportAssignments(database: Database, ctx: Ctx, query: RoleAssignmentsExportQuery): Readable {
  const tenantId = ctx.tenant.id;
  const out = stringify({ header: true, columns: [...ROLE_ASSIGNMENT_CSV_COLUMNS], escape_formulas: true });
  (async () => {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const items = await database.tenantTx(tenantId, (tx) =>
        repo.exportAssignmentsPage(tx, tenantId, { q: query.q, limit: EXPORT_BATCH, offset }),
      );
      for (const row of items) {
        const ok = out.write({
          username: row.username,
          firstname: row.firstname,
          lastname: row.lastname,
          role: row.role === 'custom' ? (row.customRoleName ?? row.role) : row.role,
          status: row.isSuspended
            ? 'suspended'
            : row.isEmailVerified && row.hasPassword
              ? 'active'
              : 'invited',
        });
        if (!ok) await new Promise((resolve) => out.once('drain', resolve));
      }
      if (items.length < EXPORT_BATCH) break;
    }
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

/**
 * Changes an administrator's role; the last owner keeps the role, so a tenant is never left without one. Nobody
 * changes their own role, gives a role holding more than they hold, or changes the role of an administrator who
 * holds more than they do; only owners make or unmake owners.
 */
export function assignRole(
  database: Database,
  ctx: Ctx,
  userId: string,
  input: AssignRoleInput,
): Promise<RoleAssignment> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const before = await repo.getAssignment(tx, ctx.tenant.id, userId);
    if (!before) throw notFound('Administrator');
    assertNotSelf(ctx.actor, userId);
    const customRole = input.customRoleId ? await repo.getRole(tx, ctx.tenant.id, input.customRoleId) : null;
    if (input.customRoleId && !customRole) {
      throw new AppError('validation_failed', 'Unknown role.', [
        { path: 'body.customRoleId', message: 'validation.unknownRole' },
      ]);
    }
    assertOutranks(ctx.actor, await repo.permissionsOf(tx, { tenantId: ctx.tenant.id, ...before }));
    const role = customRole ? 'custom' : (input.role as Role);
    assertCanGiveRole(
      ctx.actor,
      customRole ? (customRole.permissions as Permission[]) : ROLE_PERMISSIONS[role],
      customRole ? 'body.customRoleId' : 'body.role',
    );
    if (before.role === 'owner' && role !== 'owner' && (await repo.countOwners(tx, ctx.tenant.id)) <= 1) {
      throw new AppError('last_owner', 'The last owner cannot be given another role.');
    }
    // Only an owner may make or unmake owners.
    if (
      (role === 'owner' || before.role === 'owner') &&
      ctx.actor.role !== 'owner' &&
      ctx.actor.role !== 'partner_admin' &&
      ctx.actor.role !== 'platform_admin'
    ) {
      throw new AppError('forbidden', 'Only an owner can change who owns the tenant.', [
        { path: 'body.role', message: 'validation.ownersOnly' },
      ]);
    }
    await repo.setRole(tx, ctx.tenant.id, userId, role, input.customRoleId);
    // Their open live views check the new role at once (and end if it no longer reaches them).
    await announceCredentialChange(tx, `user:${userId}`);
    const after = (await repo.getAssignment(tx, ctx.tenant.id, userId))!;
    await recordEvent(tx, ctx, {
      action: 'role.assign',
      objectType: 'user',
      objectId: userId,
      objectName: after.username,
      before,
      after,
    });
    return after;
  });
}
