import { type Permission, ROLE_PERMISSIONS, type Role } from '@palisade/contracts';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { customRoles, users } from '../../db/schema';

/** What a user may do: its built-in role's permissions, or its custom role's (owner access; used by auth). */
export async function permissionsOf(
  db: Db | Tx,
  user: { tenantId: string; role: string; customRoleId: string | null },
): Promise<Permission[]> {
  if (user.role !== 'custom') return [...(ROLE_PERMISSIONS[user.role as Role] ?? [])];
  if (!user.customRoleId) return [];
  const [row] = await db
    .select({ permissions: customRoles.permissions, name: customRoles.name })
    .from(customRoles)
    .where(and(eq(customRoles.tenantId, user.tenantId), eq(customRoles.id, user.customRoleId)))
    .limit(1);
  return (row?.permissions ?? []) as Permission[];
}

export async function customRoleName(
  db: Db | Tx,
  tenantId: string,
  id: string | null,
): Promise<string | null> {
  if (!id) return null;
  const [row] = await db
    .select({ name: customRoles.name })
    .from(customRoles)
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.id, id)))
    .limit(1);
  return row?.name ?? null;
}

// Written out in full: inside a sub-query drizzle leaves column names unqualified, and they would bind to `u`.
const assigned = sql<number>`(select count(*)::int from users u
  where u.tenant_id = custom_roles.tenant_id and u.custom_role_id = custom_roles.id)`;

export function listRoles(tx: Tx, tenantId: string) {
  return tx
    .select({
      id: customRoles.id,
      name: customRoles.name,
      description: customRoles.description,
      permissions: customRoles.permissions,
      assigned,
      createdAt: customRoles.createdAt,
      updatedAt: customRoles.updatedAt,
    })
    .from(customRoles)
    .where(eq(customRoles.tenantId, tenantId))
    .orderBy(asc(customRoles.name));
}

export async function getRole(tx: Tx, tenantId: string, id: string) {
  const rows = await listRoles(tx, tenantId);
  return rows.find((r) => r.id === id) ?? null;
}

export async function nameTaken(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const [row] = await tx
    .select({ id: customRoles.id })
    .from(customRoles)
    .where(
      and(
        eq(customRoles.tenantId, tenantId),
        sql`lower(${customRoles.name}) = ${name.toLowerCase()}`,
        exceptId ? ne(customRoles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertRole(tx: Tx, values: typeof customRoles.$inferInsert) {
  const [row] = await tx.insert(customRoles).values(values).returning({ id: customRoles.id });
  return row.id;
}

export async function updateRole(
  tx: Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof customRoles.$inferInsert>,
) {
  await tx
    .update(customRoles)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.id, id)));
}

export async function deleteRole(tx: Tx, tenantId: string, id: string) {
  await tx.delete(customRoles).where(and(eq(customRoles.tenantId, tenantId), eq(customRoles.id, id)));
}

/** The tenant's administrators (usertype 1) matching a search. */
const assignmentsWhere = (tenantId: string, q?: string) =>
  and(
    eq(users.tenantId, tenantId),
    eq(users.usertype, 1),
    q ? sql`${users.search} like ${`%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  );

/** The tenant's administrators (usertype 1) with their roles, one page. */
export async function listAssignments(
  tx: Tx,
  tenantId: string,
  page: { limit: number; offset: number; q?: string },
) {
  const where = assignmentsWhere(tenantId, page.q);
  const [items, [{ total }]] = await Promise.all([
    tx
      .select({
        userId: users.id,
        username: users.username,
        firstname: users.firstname,
        lastname: users.lastname,
        role: users.role,
        customRoleId: users.customRoleId,
        customRoleName: customRoles.name,
      })
      .from(users)
      .leftJoin(
        customRoles,
        and(eq(customRoles.tenantId, users.tenantId), eq(customRoles.id, users.customRoleId)),
      )
      .where(where)
      .orderBy(asc(users.username))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ total: count() }).from(users).where(where),
  ]);
  return { items, total: Number(total) };
}

/** A page of the tenant's administrators with their roles and what their status is made of (CSV export). */
export async function exportAssignmentsPage(
  tx: Tx,
  tenantId: string,
  page: { limit: number; offset: number; q?: string },
) {
  return tx
    .select({
      username: users.username,
      firstname: users.firstname,
      lastname: users.lastname,
      role: users.role,
      customRoleName: customRoles.name,
      isSuspended: users.isSuspended,
      isEmailVerified: users.isEmailVerified,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
    })
    .from(users)
    .leftJoin(
      customRoles,
      and(eq(customRoles.tenantId, users.tenantId), eq(customRoles.id, users.customRoleId)),
    )
    .where(assignmentsWhere(tenantId, page.q))
    .orderBy(asc(users.username), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function getAssignment(tx: Tx, tenantId: string, userId: string) {
  const [row] = await tx
    .select({
      userId: users.id,
      username: users.username,
      firstname: users.firstname,
      lastname: users.lastname,
      role: users.role,
      customRoleId: users.customRoleId,
      customRoleName: customRoles.name,
    })
    .from(users)
    .leftJoin(
      customRoles,
      and(eq(customRoles.tenantId, users.tenantId), eq(customRoles.id, users.customRoleId)),
    )
    .where(and(eq(users.tenantId, tenantId), eq(users.usertype, 1), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

export async function countOwners(tx: Tx, tenantId: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'owner')));
  return Number(row.n);
}

export async function setRole(
  tx: Tx,
  tenantId: string,
  userId: string,
  role: string,
  customRoleId: string | null,
) {
  await tx
    .update(users)
    .set({ role, customRoleId, updatedAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}
