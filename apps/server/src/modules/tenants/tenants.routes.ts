import { tenantEndpoints as e, type Tenant } from '@palisade/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { tenants, users } from '../../db/schema';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { route } from '../../lib/route';
import { recordEvent } from '../events/events.repository';

type TenantRow = typeof tenants.$inferSelect;

function presentTenant(row: TenantRow, parent: string | null): Tenant {
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

async function loadTenant(database: Database, ctx: Ctx): Promise<Tenant> {
  const [row] = await database.db.select().from(tenants).where(eq(tenants.id, ctx.tenant.id)).limit(1);
  if (!row) throw notFound('Tenant');
  const [parent] = row.parentId
    ? await database.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, row.parentId))
    : [];
  return presentTenant(row, parent?.name ?? null);
}

/** `GET/PUT subscriber/tenant/{name}` and `GET tenant/primaryuser` (spec §7). */
export function tenantsRoutes(app: FastifyInstance, database: Database) {
  route(app, database, e.getTenant, ({ ctx }) => loadTenant(database, ctx));

  route(app, database, e.updateTenant, async ({ ctx, body }) => {
    const before = await loadTenant(database, ctx);
    await database.db.transaction(async (tx) => {
      await tx
        .update(tenants)
        .set({ ...body, updatedAt: new Date() })
        .where(eq(tenants.id, ctx.tenant.id));
      await recordEvent(tx, ctx, {
        action: 'tenant.update',
        objectType: 'tenant',
        objectId: ctx.tenant.id,
        objectName: ctx.tenant.name,
        before,
        after: { ...before, ...body },
      });
    });
    return loadTenant(database, ctx);
  });

  route(app, database, e.primaryUser, async ({ ctx }) => {
    // The primary user is the tenant's first owner (its creator), else its first administrator.
    const rows = await database.tenantTx(ctx.tenant.id, (tx) =>
      tx
        .select({
          email: users.email,
          username: users.username,
          firstname: users.firstname,
          lastname: users.lastname,
          role: users.role,
        })
        .from(users)
        .where(and(eq(users.tenantId, ctx.tenant.id), eq(users.usertype, 1)))
        .orderBy(asc(users.createdAt))
        .limit(50),
    );
    const primary = rows.find((r) => r.role === 'owner') ?? rows[0];
    if (!primary) throw notFound('Primary user');
    return {
      email: primary.email,
      username: primary.username,
      firstname: primary.firstname,
      lastname: primary.lastname,
    };
  });
}
