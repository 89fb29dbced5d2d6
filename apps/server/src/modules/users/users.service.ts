import {
  suciToImsi,
  type User,
  type UserInput,
  type UserListQuery,
  type UserStatusInput,
  type UserUpdate,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import { revokeLinksOf } from '../enrolment/enrolment.service';
import { flagsOf } from '../features/features.service';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import { endSessionsOf } from '../session/session.service';
import { assertSeatsAvailable } from '../subscriptions/subscriptions.service';
import * as repo from './users.repository';

/** Maps a row to the public shape (spec §3 User); nothing secret is selected in the first place. */
export function presentUser(row: repo.UserRow, tenantName: string): User {
  const suci = row.suci ?? null;
  return {
    id: row.id,
    userid: row.id,
    username: row.username,
    shortname: row.username.split('@')[0],
    firstname: row.firstname,
    lastname: row.lastname,
    fullname: `${row.firstname} ${row.lastname}`.trim(),
    email: row.email,
    groups: row.groups,
    connstatus: row.connstatus as User['connstatus'],
    isprvaccess: row.isprvaccess,
    issiauser: row.issiauser,
    isxdrenabled: row.isxdrenabled,
    suci,
    imsi: suci ? suciToImsi(suci) : null,
    usertype: row.usertype,
    tenant: tenantName,
    status: row.isSuspended ? 'disabled' : 'active',
    statusReason: row.statusReason,
    statusChangedBy: row.statusChangedBy,
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A user as the event log keeps it: groups by their names at the time of the change (ids alone would mean
 * nothing to a reader, and nothing at all once the group is deleted).
 */
async function userForLog(tx: Tx, ctx: Ctx, user: User) {
  const names = await repo.groupNamesById(tx, ctx.tenant.id, user.groups);
  return { ...user, groups: user.groups.map((id) => names.get(id) ?? id) };
}

/**
 * Whether the tenant has XDR (contracts `FEATURE_PARTS.xdr`): its switch is on and its subscription pays for the
 * add-on. Without it nothing turns a user's XDR flag on or off: {@link xdrNotIncluded}.
 */
export async function hasXdr(database: Database, tenant: Ctx['tenant']): Promise<boolean> {
  return (await flagsOf({ database }, tenant)).features.xdr;
}

/** 403 `feature_disabled`: a change of users' XDR flag in a tenant without XDR. */
export const xdrNotIncluded = (message = 'XDR is not included in this workspace.') =>
  new AppError('feature_disabled', message);

/** Refuses (403 `feature_disabled`) a change of users' XDR flag while the tenant has no XDR. */
export async function assertXdrIncluded(database: Database, tenant: Ctx['tenant']): Promise<void> {
  if (!(await hasXdr(database, tenant))) throw xdrNotIncluded();
}

const userExists = () =>
  new AppError('user_exists', 'A user with this username exists.', [
    { path: 'body.username', message: 'validation.usernameTaken' },
  ]);

/** A unique-index violation that slipped past the friendly check (two concurrent creates). */
function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw userExists();
  throw error;
}

async function checkGroups(database: Database, ctx: Ctx, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await database.tenantTx(ctx.tenant.id, (tx) => repo.existingGroupIds(tx, ctx.tenant.id, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw invalid([{ path: 'body.groups', message: 'validation.unknownGroup' }]);
}

export function listUsers(database: Database, ctx: Ctx, query: UserListQuery) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await repo.listUsers(tx, ctx.tenant.id, query);
    return { ...page, items: page.items.map((row) => presentUser(row, ctx.tenant.name)) };
  });
}

export async function getUser(database: Database, ctx: Ctx, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => repo.getUser(tx, ctx.tenant.id, id));
  if (!row) throw notFound('User');
  return presentUser(row, ctx.tenant.name);
}

/** Creates an end user; with XDR on only where the tenant has XDR (403 `feature_disabled`, nothing added). */
export async function createUser(database: Database, ctx: Ctx, input: UserInput) {
  if (input.isxdrenabled === true) await assertXdrIncluded(database, ctx.tenant);
  const username = input.username.toLowerCase();
  if (await repo.usernameTaken(database.db, username)) throw userExists();
  const groups = [...new Set(input.groups ?? [])];
  await checkGroups(database, ctx, groups);
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      // 409 seat_limit_reached, nothing added, when the tenant's end users take every seat of its plan.
      await assertSeatsAvailable(tx, ctx.tenant.id);
      const id = await repo.insertUser(tx, {
        tenantId: ctx.tenant.id,
        username,
        email: input.email ?? username,
        firstname: input.firstname,
        lastname: input.lastname,
        usertype: 0,
        role: 'user',
        isEmailVerified: true,
        isprvaccess: input.isprvaccess ?? false,
        issiauser: input.issiauser ?? false,
        isxdrenabled: input.isxdrenabled ?? false,
        suci: input.suci ?? null,
      });
      await repo.setUserGroups(tx, ctx.tenant.id, id, groups);
      const user = presentUser((await repo.getUser(tx, ctx.tenant.id, id))!, ctx.tenant.name);
      await recordEvent(tx, ctx, {
        action: 'user.create',
        objectType: 'user',
        objectId: id,
        objectName: username,
        after: await userForLog(tx, ctx, user),
      });
      return user;
    })
    .catch(rethrowUnique);
}

/**
 * Changes a user. A change of their groups changes which policies apply to them, so it goes through the
 * policy-test guard (409 `policy_tests_failed`, nothing saved, when it would break a test); the other fields
 * do not take part in a decision. Turning XDR on needs the tenant to have XDR (403 `feature_disabled`, nothing
 * saved); a user who has it keeps it through an edit that sends it unchanged.
 */
export async function updateUser(database: Database, ctx: Ctx, id: string, input: UserUpdate) {
  // Asked before the transaction: the flags are read outside it.
  const isXdrRefused = input.isxdrenabled === true && !(await hasXdr(database, ctx.tenant));
  if (input.username && (await repo.usernameTaken(database.db, input.username, id))) throw userExists();
  const groups = input.groups ? [...new Set(input.groups)] : undefined;
  await checkGroups(database, ctx, groups);
  const inTransaction = <T>(change: (tx: Tx) => Promise<T>) =>
    groups ? commitPolicyChange(database, ctx, change) : database.tenantTx(ctx.tenant.id, change);
  return inTransaction(async (tx) => {
    const beforeRow = await repo.getUser(tx, ctx.tenant.id, id);
    if (!beforeRow) throw notFound('User');
    if (isXdrRefused && !beforeRow.isxdrenabled) throw xdrNotIncluded();
    const { groups: _ignored, ...fields } = input;
    await repo.updateUser(tx, ctx.tenant.id, id, {
      ...fields,
      ...(fields.username ? { username: fields.username.toLowerCase() } : {}),
    });
    if (groups) await repo.setUserGroups(tx, ctx.tenant.id, id, groups);
    const before = presentUser(beforeRow, ctx.tenant.name);
    const after = presentUser((await repo.getUser(tx, ctx.tenant.id, id))!, ctx.tenant.name);
    await recordEvent(tx, ctx, {
      action: 'user.update',
      objectType: 'user',
      objectId: id,
      objectName: after.username,
      before: await userForLog(tx, ctx, before),
      after: await userForLog(tx, ctx, after),
    });
    return after;
  }).catch(rethrowUnique);
}

/**
 * Deletes by a list of ids; ids of other tenants or unknown ids are simply not deleted. A deleted user's
 * pinned tests decide as for a user in no group, so the delete is refused when that breaks one.
 */
export function deleteUsers(database: Database, ctx: Ctx, ids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const deleted = await repo.deleteUsers(tx, ctx.tenant.id, [...new Set(ids)]);
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'user.delete',
        objectType: 'user',
        objectId: row.id,
        objectName: row.username,
        before: { username: row.username },
      });
    }
    return { deleted: deleted.length };
  });
}

export function listGroupOptions(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, (tx) => repo.listGroupOptions(tx, ctx.tenant.id));
}

// ---- For other modules ----------------------------------------------------------------------------------

/**
 * A page of end users as the users list finds them, in the caller's transaction (the policies-per-user view),
 * with the exact total (its answer has no estimate flag).
 */
export async function pageOfEndUsers(tx: Tx, tenantId: string, query: UserListQuery) {
  const page = await repo.listUsers(tx, tenantId, query, { isExactTotal: true });
  return { items: page.items, total: page.total ?? 0 };
}

/** The tenant's user groups (id and name, by name), in the caller's transaction. */
export const groupOptions = (tx: Tx, tenantId: string) => repo.listGroupOptions(tx, tenantId);

/** Whether a username (an e-mail address) is taken, in any tenant (administrators are users too). */
export const usernameTaken = (db: Db | Tx, username: string) => repo.usernameTaken(db, username);

/**
 * Disables an end user's account (with why) or enables it again. A disabled user is signed out everywhere, their
 * pending enrolment links are revoked, and they can neither sign in nor connect a device; who did it and when
 * is kept on the user and in the event log. Setting the status the account already has changes nothing.
 */
export function setUserStatus(
  database: Database,
  ctx: Ctx,
  id: string,
  input: z.output<typeof UserStatusInput>,
): Promise<User> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const beforeRow = await repo.getUser(tx, ctx.tenant.id, id);
    if (!beforeRow) throw notFound('User');
    const before = presentUser(beforeRow, ctx.tenant.name);
    if (before.status === input.status) return before;
    const isDisabled = input.status === 'disabled';
    await repo.setUserStatus(tx, ctx.tenant.id, id, {
      isDisabled,
      reason: input.reason || null,
      by: ctx.actor.username,
    });
    const endedSessions = isDisabled ? await endSessionsOf(tx, ctx.tenant.id, id) : 0;
    const revokedLinks = isDisabled ? await revokeLinksOf(tx, ctx, before) : 0;
    const after = presentUser((await repo.getUser(tx, ctx.tenant.id, id))!, ctx.tenant.name);
    await recordEvent(tx, ctx, {
      action: isDisabled ? 'user.disable' : 'user.enable',
      objectType: 'user',
      objectId: id,
      objectName: after.username,
      before: { status: before.status },
      after: {
        status: after.status,
        reason: after.statusReason,
        ...(isDisabled ? { endedSessions, revokedLinks } : {}),
      },
    });
    return after;
  });
}

/** Users' connection status from their devices' last tunnel handshakes (connection-status.repository.ts). */
export { refreshConnectionStatus, USER_CONNECTED_WITHIN_SECONDS } from './connection-status.repository';
