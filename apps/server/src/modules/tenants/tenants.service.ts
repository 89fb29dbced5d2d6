import type { Tenant, TenantKind, TenantUpdate } from '@palisade/contracts';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
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
