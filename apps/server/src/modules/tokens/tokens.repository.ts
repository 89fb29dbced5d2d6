import { and, count, desc, eq, getTableColumns, gt, isNull, lt, not, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { apiTokens, tenants, users } from '../../db/schema';

export type TokenRow = typeof apiTokens.$inferSelect;

const mine = (tenantId: string, userId: string) =>
  and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.userId, userId));

/** One page of an administrator's tokens, newest first, with the total. */
export async function listTokens(
  tx: Tx,
  tenantId: string,
  userId: string,
  page: { limit: number; offset: number },
) {
  const [items, [{ total }]] = await Promise.all([
    tx
      .select()
      .from(apiTokens)
      .where(mine(tenantId, userId))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ total: count() }).from(apiTokens).where(mine(tenantId, userId)),
  ]);
  return { items, total: Number(total) };
}

export async function insertToken(tx: Tx, values: typeof apiTokens.$inferInsert): Promise<TokenRow> {
  const [row] = await tx.insert(apiTokens).values(values).returning();
  return row;
}

/** One of an administrator's own tokens; another administrator's (or tenant's) is not found. */
export async function getOwnToken(
  tx: Tx,
  tenantId: string,
  userId: string,
  id: string,
): Promise<TokenRow | null> {
  const [row] = await tx
    .select()
    .from(apiTokens)
    .where(and(mine(tenantId, userId), eq(apiTokens.id, id)))
    .limit(1);
  return row ?? null;
}

export async function revokeToken(tx: Tx, tenantId: string, id: string): Promise<TokenRow> {
  const now = new Date();
  const [row] = await tx
    .update(apiTokens)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.id, id)))
    .returning();
  return row;
}

/**
 * The token behind a secret's hash with its owner and tenant, for authentication. Owner access: the tenant is
 * not known until the token is found (like a session look-up).
 */
export async function findTokenForAuth(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      name: apiTokens.name,
      permissions: apiTokens.permissions,
      isReadOnly: apiTokens.isReadOnly,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      userId: users.id,
      username: users.username,
      role: users.role,
      customRoleId: users.customRoleId,
      usertype: users.usertype,
      isSuspended: users.isSuspended,
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantKind: tenants.kind,
      tenantSuspendedAt: tenants.suspendedAt,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.tenantId, apiTokens.tenantId), eq(users.id, apiTokens.userId)))
    .innerJoin(tenants, eq(tenants.id, apiTokens.tenantId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Records a use of a token, at most once per `everyMs` (the condition keeps concurrent calls from piling up). */
export async function touchToken(db: Db, tokenHash: string, ip: string | null, everyMs: number) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        or(
          isNull(apiTokens.lastUsedAt),
          lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${everyMs / 1000})`),
        ),
      ),
    );
}

const isActive = () =>
  and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`)));

/** An administrator's tokens that still work (not revoked, not expired). */
export function activeTokensOf(tx: Tx, tenantId: string, userId: string): Promise<TokenRow[]> {
  return tx
    .select()
    .from(apiTokens)
    .where(and(mine(tenantId, userId), isActive()));
}

const withOwner = { ...getTableColumns(apiTokens), ownerUsername: users.username };

/** One page of every administrator's tokens of a tenant, newest first, with the total. */
export async function listTenantTokens(
  tx: Tx,
  tenantId: string,
  page: { limit: number; offset: number; userId?: string; isActive?: boolean },
) {
  const where = and(
    eq(apiTokens.tenantId, tenantId),
    page.userId ? eq(apiTokens.userId, page.userId) : undefined,
    page.isActive === undefined ? undefined : page.isActive ? isActive() : not(isActive()!),
  );
  const [items, [{ total }]] = await Promise.all([
    tx
      .select(withOwner)
      .from(apiTokens)
      .innerJoin(users, and(eq(users.tenantId, apiTokens.tenantId), eq(users.id, apiTokens.userId)))
      .where(where)
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ total: count() }).from(apiTokens).where(where),
  ]);
  return { items, total: Number(total) };
}

/** Any administrator's token of a tenant, with its owner's username. */
export async function getTenantToken(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select(withOwner)
    .from(apiTokens)
    .innerJoin(users, and(eq(users.tenantId, apiTokens.tenantId), eq(users.id, apiTokens.userId)))
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.id, id)))
    .limit(1);
  return row ?? null;
}
