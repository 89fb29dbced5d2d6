import type { TenantUpdate } from '@palisade/contracts';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
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

// ---- The partner console -------------------------------------------------------------------------------------------

export interface ManagedTenantRow {
  id: string;
  name: string;
  displayName: string;
  kind: 'platform' | 'partner' | 'customer';
  partner: string | null;
  suspendedAt: Date | null;
  /** When a scheduled deletion purges it, or null. */
  deletionDueAt: Date | null;
  users: number;
  devices: number;
  gateways: number;
  gatewaysOffline: number;
  createdAt: Date;
}

/** Whose tenants a console lists: a partner's customers, or every partner and customer (the platform). */
export type ManagedScope = { partnerId: string } | { all: true };

const scopeOf = (scope: ManagedScope): SQL =>
  'all' in scope ? sql`t.kind in ('partner', 'customer')` : sql`t.parent_id = ${scope.partnerId}`;

/**
 * A page of managed tenants with their partner and their counts (end users, devices, live gateways and the
 * silent ones), in one statement: the counts are index look-ups of the page's rows only.
 */
export async function listManagedTenants(
  db: Db | Tx,
  scope: ManagedScope,
  query: {
    /** Only this tenant (a look-up by id). */
    id?: string;
    q?: string;
    status?: 'active' | 'suspended' | 'deletion_scheduled';
    sort: 'name' | 'createdAt';
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
  offlineAfterMs: number,
): Promise<{ rows: ManagedTenantRow[]; total: number }> {
  const filters: SQL[] = [scopeOf(scope)];
  if (query.id) filters.push(sql`t.id = ${query.id}`);
  if (query.q) {
    const like = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(sql`(t.name like ${like} or lower(t.display_name) like ${like})`);
  }
  // A tenant scheduled for deletion is suspended meanwhile, but listed under its own status.
  if (query.status === 'suspended')
    filters.push(sql`t.suspended_at is not null and t.deletion_due_at is null`);
  if (query.status === 'deletion_scheduled') filters.push(sql`t.deletion_due_at is not null`);
  if (query.status === 'active') filters.push(sql`t.suspended_at is null`);
  const where = sql.join(filters, sql` and `);
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const order =
    query.sort === 'createdAt' ? sql`t.created_at ${direction}, t.id ${direction}` : sql`t.name ${direction}`;
  const fresh = sql`g.last_seen_at > now() - make_interval(secs => ${offlineAfterMs / 1000})`;
  const rows = await queryRows<{
    id: string;
    name: string;
    display_name: string;
    kind: ManagedTenantRow['kind'];
    partner: string | null;
    suspended_at: string | Date | null;
    deletion_due_at: string | Date | null;
    created_at: string | Date;
    users: number | string;
    devices: number | string;
    gateways: number | string;
    offline: number | string;
  }>(
    db,
    // The page first, then the counts of its rows only (a deep page does not count the rows it skips).
    sql`with page as (
          select t.id, t.name, t.display_name, t.kind, t.parent_id, t.suspended_at, t.deletion_due_at, t.created_at
          from tenants t
          where ${where} order by ${order} limit ${query.limit} offset ${query.offset}
        )
        select t.id, t.name, t.display_name, t.kind, p.name as partner, t.suspended_at, t.deletion_due_at,
          t.created_at,
          (select count(*) from users u where u.tenant_id = t.id and u.usertype = 0) as users,
          (select count(*) from devices d where d.tenant_id = t.id) as devices,
          g.gateways, g.offline
        from page t
        left join tenants p on p.id = t.parent_id
        cross join lateral (
          select count(*) as gateways,
            count(*) filter (where g.enrolled_at is not null and (g.last_seen_at is null or not ${fresh})) as offline
          from gateways g where g.tenant_id = t.id and g.retired_at is null
        ) g
        order by ${order}`,
  );
  const [{ n }] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from tenants t where ${where}`,
  );
  return {
    rows: rows.map((r) => ({
      id: String(r.id),
      name: r.name,
      displayName: r.display_name,
      kind: r.kind,
      partner: r.partner,
      suspendedAt: r.suspended_at === null ? null : new Date(r.suspended_at),
      deletionDueAt: r.deletion_due_at === null ? null : new Date(r.deletion_due_at),
      createdAt: new Date(r.created_at),
      users: Number(r.users),
      devices: Number(r.devices),
      gateways: Number(r.gateways),
      gatewaysOffline: Number(r.offline),
    })),
    total: Number(n),
  };
}

/** One managed tenant of the scope by id, or null (not there, or not the scope's). */
export async function findManagedTenant(
  db: Db | Tx,
  scope: ManagedScope,
  id: string,
  offlineAfterMs: number,
): Promise<ManagedTenantRow | null> {
  const { rows } = await listManagedTenants(
    db,
    scope,
    { id, sort: 'name', order: 'asc', limit: 1, offset: 0 },
    offlineAfterMs,
  );
  return rows[0] ?? null;
}

/** A customer tenant of a partner (or of none), in the caller's transaction. */
export async function insertManagedTenant(
  tx: Tx,
  values: { name: string; displayName: string; parentId: string | null },
): Promise<string> {
  const [row] = await tx
    .insert(tenants)
    .values({ ...values, kind: 'customer', themevalue: 'light', palette: 'classic' })
    .returning({ id: tenants.id });
  return row.id;
}

export async function setTenantSuspended(tx: Tx, id: string, suspended: boolean): Promise<void> {
  await tx
    .update(tenants)
    .set({ suspendedAt: suspended ? new Date() : null, updatedAt: new Date() })
    .where(eq(tenants.id, id));
}

export async function setTenantPartner(tx: Tx, id: string, parentId: string): Promise<void> {
  await tx.update(tenants).set({ parentId, updatedAt: new Date() }).where(eq(tenants.id, id));
}

/** Removes a tenant that was just made (its owner's invitation failed); its rows go with it (ON DELETE CASCADE). */
export async function deleteTenant(db: Db | Tx, id: string): Promise<void> {
  await db.delete(tenants).where(eq(tenants.id, id));
}
