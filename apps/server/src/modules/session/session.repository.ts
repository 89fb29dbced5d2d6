import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, max, ne, notLike, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, signInThrottle, signups, tenants, transactions, users } from '../../db/schema';

/** Owner-level look-ups for sign-in: the tenant is not known until the user is found. */
export async function findUserByUsername(db: Db | Tx, username: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUser(db: Db | Tx, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findTenantById(db: Db | Tx, id: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return row ?? null;
}

export async function findTenantByName(db: Db | Tx, name: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.name, name.toLowerCase())).limit(1);
  return row ?? null;
}

/** The tenants an administrator manages besides its own, by name, with their display names. */
export async function managedTenants(
  db: Db,
  role: string,
  tenantId: string,
): Promise<{ name: string; displayName: string }[]> {
  const columns = { name: tenants.name, displayName: tenants.displayName };
  if (role === 'platform_admin') {
    return db
      .select(columns)
      .from(tenants)
      .where(inArray(tenants.kind, ['partner', 'customer']))
      .orderBy(tenants.name)
      .limit(500);
  }
  if (role === 'partner_admin') {
    return db.select(columns).from(tenants).where(eq(tenants.parentId, tenantId)).orderBy(tenants.name);
  }
  return [];
}

export async function insertSession(db: Db | Tx, row: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Db | Tx, idHash: string) {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/**
 * The live session of `idHash` with its user and tenant, as the access check needs them: none once expired, and
 * none for a suspended user or a user of a suspended tenant (suspension ends their sessions at once).
 */
export async function findSessionActor(db: Db, idHash: string) {
  const [row] = await db
    .select({
      userId: users.id,
      username: users.username,
      role: users.role,
      customRoleId: users.customRoleId,
      usertype: users.usertype,
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantKind: tenants.kind,
      lastSeenAt: sessions.lastSeenAt,
      targetTenantId: sessions.targetTenantId,
      targetEdit: sessions.targetEdit,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(
      and(
        eq(sessions.idHash, idHash),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.isSuspended, false),
        isNull(tenants.suspendedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Records a session's use and moves its idle expiry to `expiresAt`. */
export async function touchSession(db: Db, idHash: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: new Date(), expiresAt }).where(eq(sessions.idHash, idHash));
}

export async function sessionExpiry(db: Db, idHash: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.idHash, idHash))
    .limit(1);
  return row?.expiresAt ?? null;
}

export async function insertTransaction(db: Db | Tx, row: typeof transactions.$inferInsert) {
  await db.insert(transactions).values(row);
}

export async function findTransaction(db: Db | Tx, id: string) {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
  return row ?? null;
}

export async function completeTransaction(db: Db | Tx, id: string) {
  await db
    .update(transactions)
    .set({ status: 'completed', completedAt: new Date() })
    .where(
      and(
        eq(transactions.id, id),
        eq(transactions.status, 'pending'),
        gt(transactions.expiresAt, sql`now()`),
      ),
    );
}

export async function updateUser(
  db: Db | Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof users.$inferInsert>,
) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
}

// ---- Sign-in throttling (owner access: it comes before any tenant is known) ---------------------------------

/** The account-wide row of `sign_in_throttle`: wrong passwords in a row from any source. */
export const ACCOUNT_SOURCE = '*';

export type ThrottleRow = typeof signInThrottle.$inferSelect;

/** The source's row and the account-wide row for a username (either may be missing). */
export async function readThrottle(db: Db, username: string, source: string) {
  const rows = await db
    .select()
    .from(signInThrottle)
    .where(
      and(eq(signInThrottle.username, username), inArray(signInThrottle.source, [source, ACCOUNT_SOURCE])),
    );
  return {
    source: rows.find((r) => r.source === source) ?? null,
    account: rows.find((r) => r.source === ACCOUNT_SOURCE) ?? null,
  };
}

/**
 * Takes the one attempt an account's delay allows now: stamps the account row when its delay since the last
 * failure has passed, and answers whether it did. Atomic, so a burst from many sources gets one attempt.
 */
export async function claimDelayedAttempt(db: Db, username: string, delayMs: number): Promise<boolean> {
  const rows = await db
    .update(signInThrottle)
    .set({ lastFailedAt: sql`now()` })
    .where(
      and(
        eq(signInThrottle.username, username),
        eq(signInThrottle.source, ACCOUNT_SOURCE),
        lte(signInThrottle.lastFailedAt, sql`now() - make_interval(secs => ${delayMs / 1000})`),
      ),
    )
    .returning({ username: signInThrottle.username });
  return rows.length > 0;
}

/**
 * Counts a wrong password for the source (within `windowMs`; the `maxFailures`-th locks the source out of this
 * username for `lockMs`) and for the account (in a row; a day without failures starts again). Answers when the
 * source is now locked, or null.
 */
export async function recordWrongPassword(
  db: Db,
  username: string,
  source: string,
  limits: { windowMs: number; maxFailures: number; lockMs: number },
): Promise<Date | null> {
  const t = signInThrottle;
  const isInWindow = sql`${t.firstFailedAt} > now() - make_interval(secs => ${limits.windowMs / 1000})`;
  const failures = sql`case when ${isInWindow} then ${t.failures} + 1 else 1 end`;
  const [row] = await db
    .insert(t)
    .values({ username, source, failures: 1, firstFailedAt: sql`now()`, lastFailedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [t.username, t.source],
      set: {
        failures,
        firstFailedAt: sql`case when ${isInWindow} then ${t.firstFailedAt} else now() end`,
        lastFailedAt: sql`now()`,
        lockedUntil: sql`case when ${failures} >= ${limits.maxFailures}
          then now() + make_interval(secs => ${limits.lockMs / 1000}) else ${t.lockedUntil} end`,
      },
    })
    .returning({ lockedUntil: t.lockedUntil });
  await db
    .insert(t)
    .values({ username, source: ACCOUNT_SOURCE, failures: 1, lastFailedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [t.username, t.source],
      set: {
        failures: sql`case when ${t.lastFailedAt} > now() - interval '1 day' then ${t.failures} + 1 else 1 end`,
        lastFailedAt: sql`now()`,
      },
    });
  const lockedUntil = row?.lockedUntil ?? null;
  return lockedUntil && lockedUntil.getTime() > Date.now() ? lockedUntil : null;
}

/** A right password from a source: its failures and the account's in-a-row count start again. */
export async function clearWrongPasswords(db: Db, username: string, source: string): Promise<void> {
  await db
    .update(signInThrottle)
    .set({ failures: 0, firstFailedAt: null, lockedUntil: null })
    .where(
      and(eq(signInThrottle.username, username), inArray(signInThrottle.source, [source, ACCOUNT_SOURCE])),
    );
}

/** A completed sign-in from a source: the account knows it from now on. */
export async function markFamiliar(db: Db, username: string, source: string): Promise<void> {
  await db
    .insert(signInThrottle)
    .values({ username, source, lastSuccessAt: sql`now()` })
    .onConflictDoUpdate({
      target: [signInThrottle.username, signInThrottle.source],
      set: { lastSuccessAt: sql`now()`, failures: 0, firstFailedAt: null, lockedUntil: null },
    });
}

/** Forgets failures nobody has repeated for a day (sources that never signed in). */
export async function purgeStaleThrottle(db: Db): Promise<void> {
  await db
    .delete(signInThrottle)
    .where(
      and(
        isNull(signInThrottle.lastSuccessAt),
        or(isNull(signInThrottle.lockedUntil), lte(signInThrottle.lockedUntil, sql`now()`)),
        lte(signInThrottle.lastFailedAt, sql`now() - interval '1 day'`),
      ),
    );
}

/**
 * Counts a wrong second-factor code; the `maxFailures`-th in a row locks the account for `lockMs` and starts the
 * count again. Answers when the account is now locked, or null.
 */
export async function recordWrongCode(
  db: Db,
  tenantId: string,
  userId: string,
  limits: { maxFailures: number; lockMs: number },
): Promise<Date | null> {
  const isLast = sql`${users.totpFailures} + 1 >= ${limits.maxFailures}`;
  const [row] = await db
    .update(users)
    .set({
      totpFailures: sql`case when ${isLast} then 0 else ${users.totpFailures} + 1 end`,
      lockedUntil: sql`case when ${isLast}
        then now() + make_interval(secs => ${limits.lockMs / 1000}) else ${users.lockedUntil} end`,
    })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ lockedUntil: users.lockedUntil });
  const lockedUntil = row?.lockedUntil ?? null;
  return lockedUntil && lockedUntil.getTime() > Date.now() ? lockedUntil : null;
}

/** Ends every session of an account but one; answers how many ended. */
export async function deleteOtherSessions(db: Db | Tx, tenantId: string, userId: string, keepHash: string) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), ne(sessions.idHash, keepHash)))
    .returning({ idHash: sessions.idHash });
  return rows.length;
}

// ---- Sign-ups waiting for verification -------------------------------------------------------------------------

export type SignupRow = typeof signups.$inferSelect;

const isOpen = () => and(eq(signups.status, 'pending'), gt(signups.expiresAt, sql`now()`));

/** The open sign-up that reserves a workspace name, if any. */
export async function findOpenSignupForTenant(db: Db, tenantName: string): Promise<SignupRow | null> {
  const [row] = await db
    .select()
    .from(signups)
    .where(and(eq(signups.tenantName, tenantName), isOpen()))
    .limit(1);
  return row ?? null;
}

/**
 * The sign-ups of an address that can be verified (not stand-ins) and are not completed, newest first: open ones
 * only, or expired ones too.
 */
export function findPendingSignupsByEmail(
  db: Db,
  email: string,
  options: { includeExpired: boolean },
): Promise<SignupRow[]> {
  return db
    .select()
    .from(signups)
    .where(
      and(
        eq(signups.email, email),
        options.includeExpired ? eq(signups.status, 'pending') : isOpen(),
        isNotNull(signups.verifyHash),
      ),
    )
    .orderBy(desc(signups.createdAt));
}

export async function insertSignup(db: Db, values: typeof signups.$inferInsert): Promise<void> {
  await db.insert(signups).values(values);
}

export async function updateSignup(db: Db | Tx, id: string, values: Partial<typeof signups.$inferInsert>) {
  await db.update(signups).set(values).where(eq(signups.id, id));
}

export async function findSignupByVerifyHash(db: Db | Tx, verifyHash: string): Promise<SignupRow | null> {
  const [row] = await db.select().from(signups).where(eq(signups.verifyHash, verifyHash)).limit(1);
  return row ?? null;
}

export async function findSignupByStatusId(db: Db, statusId: string): Promise<SignupRow | null> {
  const [row] = await db.select().from(signups).where(eq(signups.statusId, statusId)).limit(1);
  return row ?? null;
}

/** Creates a verified sign-up's tenant and its owner (in the caller's transaction). */
export async function insertTenantWithOwner(tx: Tx, signup: SignupRow) {
  const [tenant] = await tx
    .insert(tenants)
    .values({
      name: signup.tenantName,
      displayName: signup.organisation,
      kind: 'customer',
      themevalue: 'light',
      palette: 'classic',
    })
    .returning();
  const [owner] = await tx
    .insert(users)
    .values({
      tenantId: tenant.id,
      username: signup.email,
      email: signup.email,
      firstname: signup.firstname,
      lastname: signup.lastname,
      usertype: 1,
      role: 'owner',
      passwordHash: signup.passwordHash,
      isEmailVerified: true,
    })
    .returning();
  return { tenant, owner };
}

// ---- TOTP secrets at rest ------------------------------------------------------------------------------------------

/** Users whose TOTP secrets were stored before encryption at rest (owner access, across tenants). */
export function usersWithClearTotpSecrets(db: Db) {
  return db
    .select({
      tenantId: users.tenantId,
      id: users.id,
      totpSecret: users.totpSecret,
      totpPendingSecret: users.totpPendingSecret,
    })
    .from(users)
    .where(
      or(
        and(isNotNull(users.totpSecret), notLike(users.totpSecret, 'v1.%')),
        and(isNotNull(users.totpPendingSecret), notLike(users.totpPendingSecret, 'v1.%')),
      ),
    );
}

/** Ends every session of an account; answers how many ended. */
/** Ends the sessions of many accounts (a bulk disable); answers how many ended. */
export async function deleteSessionsOfUsers(tx: Tx, tenantId: string, userIds: string[]) {
  if (userIds.length === 0) return 0;
  const rows = await tx
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), inArray(sessions.userId, userIds)))
    .returning({ idHash: sessions.idHash });
  return rows.length;
}

export async function deleteSessionsOf(db: Db | Tx, tenantId: string, userId: string) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)))
    .returning({ idHash: sessions.idHash });
  return rows.length;
}

/** The last successful sign-in of each of these (lower-case) usernames, from any source address. */
export function lastSuccessfulSignIns(db: Db, usernames: string[]) {
  return db
    .select({ username: signInThrottle.username, at: max(signInThrottle.lastSuccessAt) })
    .from(signInThrottle)
    .where(and(inArray(signInThrottle.username, usernames), isNotNull(signInThrottle.lastSuccessAt)))
    .groupBy(signInThrottle.username);
}

/** Records the managed tenant a session opened and in which mode, or that it opened none (`null`). */
export async function setSessionTarget(
  db: Db,
  idHash: string,
  target: { tenantId: string; edit: boolean } | null,
): Promise<void> {
  await db
    .update(sessions)
    .set({ targetTenantId: target?.tenantId ?? null, targetEdit: target?.edit ?? null })
    .where(eq(sessions.idHash, idHash));
}

export async function sessionTarget(db: Db, idHash: string) {
  const [row] = await db
    .select({ tenantId: sessions.targetTenantId, edit: sessions.targetEdit, name: tenants.name })
    .from(sessions)
    .innerJoin(tenants, eq(tenants.id, sessions.targetTenantId))
    .where(eq(sessions.idHash, idHash))
    .limit(1);
  return row ?? null;
}
