import {
  type CreateManagedTenant,
  GATEWAY_OFFLINE_AFTER_MS,
  type ManagedTenant,
  type ManagedTenantListQuery,
  type SettableTenantStatus,
  type Tenant,
  type TenantKind,
  type TenantUpdate,
} from '@palisade/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, forbidden, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { inviteAdmin } from '../admins/admins.service';
import { startTrial, subscriptionSummaries } from '../subscriptions/subscriptions.service';
import { usernameTaken } from '../users/users.service';
import * as repo from './tenants.repository';

function presentTenant(row: repo.TenantRow, parent: string | null): Tenant {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    kind: row.kind,
    parent,
    themevalue: row.themevalue as Tenant['themevalue'],
    palette: row.palette as Tenant['palette'],
    primaryColor: row.primaryColor,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getTenant(database: Database, ctx: Ctx): Promise<Tenant> {
  const row = await repo.getTenant(database.db, ctx.tenant.id);
  if (!row) throw notFound('Tenant');
  const parent = row.parentId ? await repo.getTenant(database.db, row.parentId) : null;
  return presentTenant(row, parent?.name ?? null);
}

export async function updateTenant(database: Database, ctx: Ctx, body: TenantUpdate): Promise<Tenant> {
  const before = await getTenant(database, ctx);
  await database.db.transaction(async (tx) => {
    await repo.updateTenant(tx, ctx.tenant.id, body);
    await recordEvent(tx, ctx, {
      action: 'tenant.update',
      objectType: 'tenant',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before,
      after: { ...before, ...body },
    });
  });
  return getTenant(database, ctx);
}

/** The primary user is the tenant's first owner (its creator), else its first administrator. */
export async function primaryUser(database: Database, ctx: Ctx) {
  const rows = await database.tenantTx(ctx.tenant.id, (tx) => repo.firstAdministrators(tx, ctx.tenant.id));
  const primary = rows.find((r) => r.role === 'owner') ?? rows[0];
  if (!primary) throw notFound('Primary user');
  return {
    email: primary.email,
    username: primary.username,
    firstname: primary.firstname,
    lastname: primary.lastname,
  };
}

/**
 * A tenant by name with its partner's id, or null: what the access check needs to tell whether an actor may work
 * on it (plugins/auth.ts, wired in app.ts).
 */
export async function findTenantByName(database: Database, name: string) {
  const row = await repo.findTenantByName(database.db, name);
  return row && { id: row.id, name: row.name, kind: row.kind as TenantKind, parentId: row.parentId };
}

// ---- The partner console (/admin-console) -------------------------------------------------------------------------

export interface PartnerDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
}

/**
 * Whose tenants the console of `ctx` shows: a partner's customers (a partner admin in its own tenant, or a platform
 * admin looking at that partner), or every partner and customer (a platform admin in the platform tenant). Other
 * roles are refused (403); a customer tenant has no console (404, as if there were none).
 */
export function scopeOf(ctx: Ctx): repo.ManagedScope {
  if (ctx.actor.role !== 'partner_admin' && ctx.actor.role !== 'platform_admin') throw forbidden();
  if (ctx.tenant.kind === 'platform') return { all: true };
  if (ctx.tenant.kind === 'partner') return { partnerId: ctx.tenant.id };
  throw notFound('Partner');
}

/**
 * A tenant the console of `ctx` manages, by name (policy templates act on them), or 404 (not there, or not the
 * console's); the console's own tenant is answered too. Other roles are refused as {@link scopeOf} does.
 */
export async function managedTenantByName(database: Database, ctx: Ctx, name: string) {
  const scope = scopeOf(ctx);
  if (name === ctx.tenant.name)
    return { id: ctx.tenant.id, name: ctx.tenant.name, displayName: ctx.tenant.name };
  const row = await repo.findTenantByName(database.db, name);
  const found = row && (await repo.findManagedTenant(database.db, scope, row.id, GATEWAY_OFFLINE_AFTER_MS));
  if (!found) throw notFound('Tenant');
  return { id: found.id, name: found.name, displayName: found.displayName };
}

/** A tenant scheduled for deletion works as a suspended one, with its own answer (errcode 27). */
export const pendingDeletion = () =>
  new AppError('tenant_pending_deletion', 'This workspace is scheduled for deletion.');

export function presentManaged(row: repo.ManagedTenantRow): ManagedTenant {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    kind: row.kind,
    partner: row.partner,
    status: row.deletionDueAt ? 'deletion_scheduled' : row.suspendedAt ? 'suspended' : 'active',
    suspendedAt: row.suspendedAt?.toISOString() ?? null,
    deletionDueAt: row.deletionDueAt?.toISOString() ?? null,
    users: row.users,
    devices: row.devices,
    gateways: row.gateways,
    gatewaysOffline: row.gatewaysOffline,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listManagedTenants(database: Database, ctx: Ctx, query: ManagedTenantListQuery) {
  const { rows, total } = await repo.listManagedTenants(
    database.db,
    scopeOf(ctx),
    query,
    GATEWAY_OFFLINE_AFTER_MS,
  );
  // The page's subscriptions in one look-up (a page is a handful of rows).
  const plans = await subscriptionSummaries(
    database,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => ({ ...presentManaged(r), subscription: plans.get(r.id) ?? null })),
    total,
  };
}

export async function managed(database: Database, ctx: Ctx, id: string) {
  const row = await repo.findManagedTenant(database.db, scopeOf(ctx), id, GATEWAY_OFFLINE_AFTER_MS);
  if (!row) throw notFound('Tenant');
  return row;
}

/**
 * A tenant the console of `ctx` manages, by id (as the console's other actions scope it: 403 for roles without a
 * console, 404 for a tenant it does not manage): for the per-tenant feature flags (modules/features).
 */
export async function managedTenantRef(database: Database, ctx: Ctx, id: string) {
  const row = await managed(database, ctx, id);
  return { id: row.id, name: row.name, kind: row.kind };
}

const tenantTaken = () =>
  new AppError('tenant_exists', 'This workspace name is taken.', [
    { path: 'body.name', message: 'validation.tenantTaken' },
  ]);
const ownerTaken = () =>
  new AppError('user_exists', 'An account with this e-mail exists.', [
    { path: 'body.owner.email', message: 'validation.emailTaken' },
  ]);

/**
 * Creates a customer tenant of the console's partner (of none on the platform's console) and invites its owner
 * by mail. Recorded in both logs: the partner's (who created which tenant) and the new tenant's (who created it,
 * and the owner's invitation).
 */
export async function createManagedTenant(deps: PartnerDeps, ctx: Ctx, body: CreateManagedTenant) {
  const scope = scopeOf(ctx);
  const { db } = deps.database;
  if (await repo.findTenantByName(db, body.name)) throw tenantTaken();
  if (await usernameTaken(db, body.owner.email)) throw ownerTaken();
  const parentId = 'all' in scope ? null : scope.partnerId;
  const id = await db
    .transaction(async (tx) => {
      const created = await repo.insertManagedTenant(tx, {
        name: body.name,
        displayName: body.displayName,
        parentId,
      });
      const event = {
        action: 'tenant.create' as const,
        objectType: 'tenant' as const,
        objectId: created,
        objectName: body.name,
        after: { name: body.name, displayName: body.displayName, partner: parentId ? ctx.tenant.name : null },
      };
      await recordEvent(tx, ctx, event);
      await recordEvent(tx, { ...ctx, tenant: { id: created } }, event);
      // A new customer starts on the 14-day trial.
      await startTrial(tx, { ...ctx, tenant: { id: created, name: body.name } });
      return created;
    })
    .catch((error: unknown) => {
      // Taken meanwhile (another console, or a sign-up).
      throw isUniqueViolation(error) ? tenantTaken() : error;
    });
  const inTenant: Ctx = { ...ctx, tenant: { id, name: body.name, kind: 'customer' } };
  try {
    await inviteAdmin(deps, inTenant, { ...body.owner, role: 'owner', customRoleId: null });
  } catch (error) {
    // The owner's address was taken meanwhile: no tenant without an owner is left behind.
    await repo.deleteTenant(db, id);
    if (error instanceof AppError && error.code === 'user_exists') throw ownerTaken();
    throw error;
  }
  return presentManaged((await repo.findManagedTenant(db, scope, id, GATEWAY_OFFLINE_AFTER_MS))!);
}

/**
 * Suspends or resumes a managed tenant: suspended, its people cannot sign in, their sessions and API tokens stop
 * working at once; its partner and the platform still reach it (to look, and to resume it). Recorded in both logs.
 */
export async function setManagedTenantStatus(
  database: Database,
  ctx: Ctx,
  id: string,
  status: SettableTenantStatus,
) {
  const before = presentManaged(await managed(database, ctx, id));
  // Its deletion holds it suspended: restoring it is the way back.
  if (before.status === 'deletion_scheduled') throw pendingDeletion();
  if (before.status !== status) {
    await database.db.transaction(async (tx) => {
      await repo.setTenantSuspended(tx, id, status === 'suspended');
      // Its open live views and its gateways' long-polls end at once, on every instance.
      if (status === 'suspended') await announceCredentialChange(tx, `tenant:${id}`);
      const event = {
        action: status === 'suspended' ? ('tenant.suspend' as const) : ('tenant.resume' as const),
        objectType: 'tenant' as const,
        objectId: id,
        objectName: before.name,
        before: { status: before.status },
        after: { status },
      };
      await recordEvent(tx, ctx, event);
      await recordEvent(tx, { ...ctx, tenant: { id } }, event);
    });
  }
  return presentManaged(await managed(database, ctx, id));
}

/** Moves a customer tenant to another partner: platform admins only. Recorded in the tenant's log. */
export async function moveManagedTenant(database: Database, ctx: Ctx, id: string, partnerName: string) {
  if (ctx.actor.role !== 'platform_admin') throw forbidden();
  const before = presentManaged(await managed(database, ctx, id));
  const partner = await repo.findTenantByName(database.db, partnerName);
  if (partner?.kind !== 'partner') {
    throw new AppError('validation_failed', 'No such partner.', [
      { path: 'body.partner', message: 'validation.unknownPartner' },
    ]);
  }
  if (before.kind !== 'customer') {
    throw new AppError('validation_failed', 'Only a customer tenant moves between partners.', [
      { path: 'params.id', message: 'validation.customerOnly' },
    ]);
  }
  if (before.partner !== partner.name) {
    await database.db.transaction(async (tx) => {
      await repo.setTenantPartner(tx, id, partner.id);
      // The former partner's people no longer reach it: their open views of it end.
      await announceCredentialChange(tx, `tenant:${id}`);
      await recordEvent(
        tx,
        { ...ctx, tenant: { id } },
        {
          action: 'tenant.move',
          objectType: 'tenant',
          objectId: id,
          objectName: before.name,
          before: { partner: before.partner },
          after: { partner: partner.name },
        },
      );
    });
  }
  return presentManaged(await managed(database, ctx, id));
}
