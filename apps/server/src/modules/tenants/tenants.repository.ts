import type { TenantUpdate } from '@palisade/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { tenants, users } from '../../db/schema';

export type TenantRow = typeof tenants.$inferSelect;

export async function getTenant(db: Db | Tx, id: string): Promise<TenantRow | null> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return row ?? null;
}

/** A tenant by its name (names are stored lower-case), with its partner's id. */
export async function findTenantByName(db: Db | Tx, name: string) {
  const [row] = await db
    .select({ id: tenants.id, name: tenants.name, kind: tenants.kind, parentId: tenants.parentId })
    .from(tenants)
    .where(eq(tenants.name, name.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function updateTenant(tx: Tx, id: string, values: TenantUpdate): Promise<void> {
  await tx
    .update(tenants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(tenants.id, id));
}

/** The tenant's first 50 administrators, oldest first. */
export function firstAdministrators(tx: Tx, tenantId: string) {
  return tx
    .select({
      email: users.email,
      username: users.username,
      firstname: users.firstname,
      lastname: users.lastname,
      role: users.role,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.usertype, 1)))
    .orderBy(asc(users.createdAt))
    .limit(50);
}
