import { and, count, desc, eq, getTableColumns, gt, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { tenants, users } from '../../db/schema';
import { embedLinks } from './embed-links.tables';

export type EmbedLinkRow = typeof embedLinks.$inferSelect;
export type EmbedLinkListRow = EmbedLinkRow & { creatorUsername: string };

const isActive = () =>
  and(isNull(embedLinks.revokedAt), gt(embedLinks.expiresAt, sql`now()`)) as SQL<boolean>;

const listed = { ...getTableColumns(embedLinks), creatorUsername: users.username };

/** One page of the tenant's links, newest first, with their creators' names and the total. */
export async function listLinks(
  tx: Tx,
  tenantId: string,
  page: { limit: number; offset: number; isActive?: boolean },
): Promise<{ items: EmbedLinkListRow[]; total: number }> {
  const where = and(
    eq(embedLinks.tenantId, tenantId),
    page.isActive === undefined ? undefined : page.isActive ? isActive() : sql`not (${isActive()})`,
  );
  const [items, [{ total }]] = await Promise.all([
    tx
      .select(listed)
      .from(embedLinks)
      .innerJoin(
        users,
        and(eq(users.tenantId, embedLinks.creatorTenantId), eq(users.id, embedLinks.creatorId)),
      )
      .where(where)
      .orderBy(desc(embedLinks.createdAt), desc(embedLinks.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ total: count() }).from(embedLinks).where(where),
  ]);
  return { items, total: Number(total) };
}

export async function insertLink(tx: Tx, values: typeof embedLinks.$inferInsert): Promise<EmbedLinkRow> {
  const [row] = await tx.insert(embedLinks).values(values).returning();
  return row;
}

/** One of the tenant's links with its creator's name; another tenant's is not found. */
export async function getLink(tx: Tx, tenantId: string, id: string): Promise<EmbedLinkListRow | null> {
  const [row] = await tx
    .select(listed)
    .from(embedLinks)
    .innerJoin(users, and(eq(users.tenantId, embedLinks.creatorTenantId), eq(users.id, embedLinks.creatorId)))
    .where(and(eq(embedLinks.tenantId, tenantId), eq(embedLinks.id, id)))
    .limit(1);
  return row ?? null;
}

export async function revokeLink(tx: Tx, tenantId: string, id: string): Promise<EmbedLinkRow> {
  const now = new Date();
  const [row] = await tx
    .update(embedLinks)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(embedLinks.tenantId, tenantId), eq(embedLinks.id, id)))
    .returning();
  return row;
}

/** Whether `userId` is one of the tenant's end users (a per-user link shows one). */
export async function isEndUser(tx: Tx, tenantId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), eq(users.usertype, 0)))
    .limit(1);
  return Boolean(row);
}

/** The name and look of a tenant, for the view a link opens. */
export async function tenantLook(db: Db, tenantId: string) {
  const [row] = await db
    .select({ displayName: tenants.displayName, themevalue: tenants.themevalue, palette: tenants.palette })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  return row ?? null;
}

const creatorTenants = alias(tenants, 'creator_tenant');

/**
 * The link behind a token's hash, with its tenant, its creator and the creator's tenant, for authentication.
 * Owner access: no tenant is known until the link is found (like a session look-up).
 */
export async function findLinkForAuth(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      link: getTableColumns(embedLinks),
      tenantName: tenants.name,
      tenantDisplayName: tenants.displayName,
      tenantKind: tenants.kind,
      tenantParentId: tenants.parentId,
      tenantTheme: tenants.themevalue,
      tenantPalette: tenants.palette,
      tenantSuspendedAt: tenants.suspendedAt,
      tenantDeletionDueAt: tenants.deletionDueAt,
      creatorUsername: users.username,
      creatorRole: users.role,
      creatorCustomRoleId: users.customRoleId,
      creatorUsertype: users.usertype,
      creatorIsSuspended: users.isSuspended,
      creatorTenantSuspendedAt: creatorTenants.suspendedAt,
      creatorTenantDeletionDueAt: creatorTenants.deletionDueAt,
    })
    .from(embedLinks)
    .innerJoin(tenants, eq(tenants.id, embedLinks.tenantId))
    .innerJoin(users, and(eq(users.tenantId, embedLinks.creatorTenantId), eq(users.id, embedLinks.creatorId)))
    .innerJoin(creatorTenants, eq(creatorTenants.id, embedLinks.creatorTenantId))
    .where(eq(embedLinks.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Records a use of a link, at most once per `everyMs` (the condition keeps concurrent calls from piling up). */
export async function touchLink(db: Db, tokenHash: string, ip: string | null, everyMs: number) {
  await db
    .update(embedLinks)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(
      and(
        eq(embedLinks.tokenHash, tokenHash),
        or(
          isNull(embedLinks.lastUsedAt),
          lt(embedLinks.lastUsedAt, sql`now() - make_interval(secs => ${everyMs / 1000})`),
        ),
      ),
    );
}
