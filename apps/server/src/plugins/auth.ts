import { createHash } from 'node:crypto';
import {
  type Access,
  API_TOKEN_PATTERN,
  can,
  type Permission,
  type Role,
  readOnlyPermissions,
  SESSION_DURATION_MS,
  type TenantKind,
} from '@palisade/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { sessions, tenants, users } from '../db/schema';
import type { Actor, Ctx, TenantRef } from '../lib/context';
import { forbidden, invalid, notFound, unauthenticated } from '../lib/errors';
import { nulByteDetails } from '../lib/nul-bytes';
import { permissionsOf } from '../modules/roles/roles.repository';
import { findTokenForAuth, touchToken } from '../modules/tokens/tokens.repository';

/** Sessions are stored by the SHA-256 of their id: a leaked table holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Refresh a session's idle expiry at most this often, not on every call. */
const TOUCH_EVERY_MS = 60_000;

/** The credential of `Authorization: Bearer <credential>`, or null when the header is absent or another scheme. */
export function bearerToken(authorization: unknown): string | null {
  if (typeof authorization !== 'string') return null;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match ? match[1] : null;
}

/**
 * Resolves an API token: unknown, revoked or expired answers 401 (errcode 1), like a dead session, and so does a
 * token whose owner is suspended (a removed owner's tokens are deleted with it). Its permissions are what it was
 * given, never more than its owner's role holds now (a demoted owner's tokens shrink with it), and only `:view`
 * ones when it is read-only.
 */
async function resolveTokenActor(
  database: Database,
  request: FastifyRequest,
  secret: string,
): Promise<Actor> {
  if (!API_TOKEN_PATTERN.test(secret)) throw unauthenticated();
  const tokenHash = hashToken(secret);
  const row = await findTokenForAuth(database.db, tokenHash);
  const now = Date.now();
  if (
    !row ||
    row.revokedAt ||
    (row.expiresAt && row.expiresAt.getTime() <= now) ||
    row.usertype === 0 ||
    row.isSuspended
  ) {
    throw unauthenticated();
  }
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await touchToken(database.db, tokenHash, request.ip ?? null, TOUCH_EVERY_MS);
  }
  const role = row.role as Role;
  const held = await permissionsOf(database.db, row);
  const granted = (row.permissions as Permission[]).filter((permission) => held.includes(permission));
  return {
    id: row.userId,
    // What the event log shows as the actor of the token's writes.
    username: `${row.username} (token: ${row.name})`,
    role,
    customRoleId: row.customRoleId,
    usertype: row.usertype,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: tokenHash,
    permissions: row.isReadOnly ? readOnlyPermissions(granted) : granted,
    tokenId: row.tokenId,
  };
}

/**
 * Resolves the session behind `X-Auth-Token`, or — when no `X-Auth-Token` is sent — the API token of
 * `Authorization: Bearer pal_…`; otherwise throws 401 (errcode 1).
 */
export async function resolveActor(database: Database, request: FastifyRequest): Promise<Actor> {
  const token = request.headers['x-auth-token'];
  if (token === undefined) {
    const secret = bearerToken(request.headers.authorization);
    if (secret !== null) return resolveTokenActor(database, request, secret);
  }
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw unauthenticated();
  const idHash = hashToken(token);
  const [row] = await database.db
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
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    // Suspension ends an account's sessions; the condition also holds if one was left behind.
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`), eq(users.isSuspended, false)))
    .limit(1);
  if (!row) throw unauthenticated();
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(), expiresAt: new Date(Date.now() + SESSION_DURATION_MS) })
      .where(eq(sessions.idHash, idHash));
  }
  return {
    id: row.userId,
    username: row.username,
    role: row.role as Role,
    customRoleId: row.customRoleId,
    usertype: row.usertype,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: idHash,
    // A custom role's permissions are read on every call, so a changed role applies at once.
    ...(row.role === 'custom' ? { permissions: await permissionsOf(database.db, row) } : {}),
  };
}

/**
 * Whether an actor may work on a tenant: its own, a customer of its partner (partner admins), or any
 * (platform admins). Anything else is answered 404 so tenants cannot be discovered.
 */
export async function resolveTenant(
  database: Database,
  actor: Actor,
  name: string | undefined,
): Promise<TenantRef> {
  if (!name || name === actor.tenantName) {
    return { id: actor.tenantId, name: actor.tenantName, kind: actor.tenantKind };
  }
  const [tenant] = await database.db
    .select({ id: tenants.id, name: tenants.name, kind: tenants.kind, parentId: tenants.parentId })
    .from(tenants)
    .where(eq(tenants.name, name.toLowerCase()))
    .limit(1);
  const isManaged =
    tenant &&
    (actor.role === 'platform_admin' ||
      (actor.role === 'partner_admin' && tenant.parentId === actor.tenantId));
  if (!isManaged) throw notFound('Tenant');
  return { id: tenant.id, name: tenant.name, kind: tenant.kind as TenantKind };
}

/** Whether an actor holds a permission: a token's own scope when it has one, else its role's. */
export function actorCan(actor: Actor, permission: Permission): boolean {
  return actor.permissions ? actor.permissions.includes(permission) : can(actor.role, permission);
}

const requestActors = new WeakMap<FastifyRequest, Promise<Actor>>();

/**
 * The request's actor, resolved once per request ({@link resolveActor}): the rate limiter keys on it and the
 * access check of `route()` reuses it, so a session or token is looked up (and touched) once. A refusal (401) is
 * remembered too and thrown again to whoever asks next.
 */
export function requestActor(database: Database, request: FastifyRequest): Promise<Actor> {
  let actor = requestActors.get(request);
  if (!actor) {
    actor = resolveActor(database, request);
    // The rate limiter only looks and may drop a refusal; the access check awaits it again.
    actor.catch(() => undefined);
    requestActors.set(request, actor);
  }
  return actor;
}

/** Session → tenant → permission, in that order: 401, then 404, then 403. */
export async function resolveContext(
  database: Database,
  request: FastifyRequest,
  access: Access,
): Promise<Ctx> {
  const actor = await requestActor(database, request);
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const name = params.tenant ?? params.name;
  // A name holding NUL names no tenant (and PostgreSQL refuses it in the look-up): once the role is checked it is
  // refused as bad input, like a NUL anywhere else (route()).
  const tenant = name?.includes('\u0000') ? null : await resolveTenant(database, actor, name);
  // An API token acts only through endpoints that declare a permission: the `session` ones are the person's own
  // account (profile, password, second factor, sign-out, tokens), which automation must not touch.
  if (access === 'session' && actor.tokenId) throw forbidden();
  if (access !== 'session' && access !== 'public' && !actorCan(actor, access)) throw forbidden();
  if (!tenant) throw invalid(nulByteDetails(request));
  return { actor, tenant, ip: request.ip ?? null };
}
