import { randomBytes } from 'node:crypto';
import { type Admin, type InviteAdminInput, type Permission, ROLE_PERMISSIONS } from '@palisade/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import { assertCanGiveRole, assertOutranks } from '../../lib/grants';
import type { Mailer } from '../../lib/mailer';
import { assertPasswordAcceptable } from '../../lib/password-policy';
import { hashPassword } from '../../lib/passwords';
import { findCustomRole, permissionsOfUser } from '../roles/roles.service';
import {
  accountOfLink,
  createMailedLink,
  findMailedLink,
  setPasswordByLink,
} from '../session/mailed-links.service';
import { usernameTaken } from '../users/users.service';
import * as repo from './admins.repository';

const INVITE_MS = 7 * 86_400_000;

export interface AdminDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
}

function present(row: NonNullable<repo.AdminRow>): Admin {
  const status = row.isSuspended
    ? 'suspended'
    : row.isEmailVerified && row.hasPassword
      ? 'active'
      : 'invited';
  return {
    id: row.id,
    username: row.username,
    firstname: row.firstname,
    lastname: row.lastname,
    role: row.role,
    customRoleId: row.customRoleId,
    status,
    createdAt: row.createdAt.toISOString(),
  };
}

export function listAdmins(deps: AdminDeps, ctx: Ctx, page: { limit: number; offset: number; q?: string }) {
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const result = await repo.listAdmins(tx, ctx.tenant.id, page);
    return { items: result.items.map(present), total: result.total };
  });
}

/** Creates the administrator without a password and e-mails a link to choose one (valid 7 days). */
export async function inviteAdmin(deps: AdminDeps, ctx: Ctx, input: InviteAdminInput) {
  if (await usernameTaken(deps.database.db, input.email)) {
    throw new AppError('user_exists', 'An account with this e-mail exists.', [
      { path: 'body.email', message: 'validation.emailTaken' },
    ]);
  }
  const transid = randomBytes(32).toString('base64url');
  const admin = await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const customRole = input.customRoleId
      ? await findCustomRole(tx, ctx.tenant.id, input.customRoleId)
      : null;
    if (input.customRoleId && !customRole) {
      throw invalid([{ path: 'body.customRoleId', message: 'validation.unknownRole' }]);
    }
    // Nobody invites someone to hold more than they hold.
    if (customRole) assertCanGiveRole(ctx.actor, customRole.permissions as Permission[], 'body.customRoleId');
    else if (input.role) assertCanGiveRole(ctx.actor, ROLE_PERMISSIONS[input.role], 'body.role');
    if (input.role === 'owner' && !['owner', 'partner_admin', 'platform_admin'].includes(ctx.actor.role)) {
      throw new AppError('forbidden', 'Only an owner can invite an owner.', [
        { path: 'body.role', message: 'validation.ownersOnly' },
      ]);
    }
    const id = await repo.insertAdmin(tx, {
      tenantId: ctx.tenant.id,
      username: input.email,
      email: input.email,
      firstname: input.firstname,
      lastname: input.lastname,
      usertype: 1,
      role: input.customRoleId ? 'custom' : (input.role as string),
      customRoleId: input.customRoleId,
    });
    await createMailedLink(tx, {
      id: transid,
      tenantId: ctx.tenant.id,
      userId: id,
      kind: 'admin_invite',
      expiresAt: new Date(Date.now() + INVITE_MS),
    });
    const created = present((await repo.getAdmin(tx, ctx.tenant.id, id))!);
    await recordEvent(tx, ctx, {
      action: 'admin.invite',
      objectType: 'user',
      objectId: id,
      objectName: input.email,
      after: created,
    });
    return created;
  });
  const link = `${deps.config.publicUrl}/verify/${transid}`;
  await deps.mailer.send({
    to: input.email,
    subject: `You are invited to administer ${ctx.tenant.name} in Palisade`,
    text: `${ctx.actor.username} invited you to administer ${ctx.tenant.name} in Palisade.\n\nOpen this link within 7 days to choose your password:\n${link}\n`,
  });
  return admin;
}

async function guardOwner(
  ctx: Ctx,
  tx: Parameters<Parameters<Database['tenantTx']>[1]>[0],
  row: NonNullable<repo.AdminRow>,
) {
  if (row.role === 'owner' && !row.isSuspended && (await repo.countActiveOwners(tx, ctx.tenant.id)) <= 1) {
    throw new AppError('last_owner', 'The last owner cannot be suspended or removed.');
  }
  if (row.role === 'owner' && !['owner', 'partner_admin', 'platform_admin'].includes(ctx.actor.role)) {
    throw new AppError('forbidden', 'Only an owner can suspend or remove an owner.', [
      { path: 'params.id', message: 'validation.ownersOnly' },
    ]);
  }
}

export function suspendAdmin(deps: AdminDeps, ctx: Ctx, id: string, suspended: boolean) {
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await repo.getAdmin(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Administrator');
    // Suspending, and undoing a suspension, both need the actor to hold whatever the administrator holds.
    assertOutranks(ctx.actor, await permissionsOfUser(tx, { tenantId: ctx.tenant.id, ...row }));
    if (suspended) await guardOwner(ctx, tx, row);
    await repo.setSuspended(tx, ctx.tenant.id, id, suspended);
    // Their open live views end at once, on every instance.
    if (suspended) await announceCredentialChange(tx, `user:${id}`);
    const after = present((await repo.getAdmin(tx, ctx.tenant.id, id))!);
    await recordEvent(tx, ctx, {
      action: suspended ? 'admin.suspend' : 'admin.reinstate',
      objectType: 'user',
      objectId: id,
      objectName: row.username,
      before: present(row),
      after,
    });
    return after;
  });
}

export function removeAdmin(deps: AdminDeps, ctx: Ctx, id: string) {
  return deps.database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await repo.getAdmin(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Administrator');
    assertOutranks(ctx.actor, await permissionsOfUser(tx, { tenantId: ctx.tenant.id, ...row }));
    await guardOwner(ctx, tx, row);
    await repo.deleteAdmin(tx, ctx.tenant.id, id);
    await announceCredentialChange(tx, `user:${id}`);
    await recordEvent(tx, ctx, {
      action: 'admin.remove',
      objectType: 'user',
      objectId: id,
      objectName: row.username,
      before: present(row),
    });
    return { deleted: true as const };
  });
}

async function openInvitation(deps: AdminDeps, transid: string) {
  const trans = await findMailedLink(deps.database.db, transid);
  if (trans?.kind !== 'admin_invite') throw notFound('Invitation');
  if (trans.status !== 'pending' || trans.expiresAt.getTime() < Date.now()) {
    throw new AppError('transaction_expired', 'This invitation has expired or was used. Ask for a new one.');
  }
  const account = await accountOfLink(deps.database.db, trans);
  if (!account) throw notFound('Invitation');
  return { trans, ...account };
}

export async function getInvitation(deps: AdminDeps, transid: string) {
  const { trans, user, tenant } = await openInvitation(deps, transid);
  return {
    email: user.email,
    firstname: user.firstname,
    tenantDisplayName: tenant.displayName,
    expiresAt: trans.expiresAt.toISOString(),
  };
}

/** Sets the invited administrator's password; the address is verified by the link itself. */
export async function acceptInvitation(deps: AdminDeps, transid: string, password: string) {
  const { trans, user, tenant } = await openInvitation(deps, transid);
  assertPasswordAcceptable(
    password,
    { email: user.email, tenantName: tenant.name, words: [user.firstname, user.lastname] },
    'body.password',
  );
  const passwordHash = await hashPassword(password);
  await setPasswordByLink(deps.database, trans, passwordHash);
  return { ok: true as const };
}

/**
 * Each administrator of a tenant as the list shows them, with whether they use two-factor authentication: what
 * the security-compliance report (modules/reports) checks.
 */
export async function adminSecurityFacts(database: Database, tenantId: string) {
  const rows = await database.tenantTx(tenantId, (tx) => repo.listAdminFacts(tx, tenantId));
  return rows.map((row) => ({ ...present(row), totpEnabled: row.isTotpEnabled }));
}
