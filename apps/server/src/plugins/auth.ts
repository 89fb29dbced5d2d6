import { createHash } from 'node:crypto';
import { type Access, can, type Role, SESSION_DURATION_MS, type TenantKind } from '@palisade/contracts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { sessions, tenants, users } from '../db/schema';
import type { Actor, Ctx, TenantRef } from '../lib/context';
import { forbidden, notFound, unauthenticated } from '../lib/errors';

/** Sessions are stored by the SHA-256 of their id: a leaked table holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Refresh a session's idle expiry at most this often, not on every call. */
const TOUCH_EVERY_MS = 60_000;

/** Resolves the session behind `X-Auth-Token`, or throws 401 (errcode 1). */
export async function resolveActor(database: Database, request: FastifyRequest): Promise<Actor> {
  const token = request.headers['x-auth-token'];
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw unauthenticated();
  const idHash = hashToken(token);
  const [row] = await database.db
    .select({
      userId: users.id,
      username: users.username,
      role: users.role,
      usertype: users.usertype,
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantKind: tenants.kind,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, sql`now()`)))
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
    usertype: row.usertype,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    tenantKind: row.tenantKind as TenantKind,
    sessionHash: idHash,
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

/** Session → tenant → permission, in that order: 401, then 404, then 403. */
export async function resolveContext(
  database: Database,
  request: FastifyRequest,
  access: Access,
): Promise<Ctx> {
  const actor = await resolveActor(database, request);
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const tenant = await resolveTenant(database, actor, params.tenant ?? params.name);
  if (access !== 'session' && access !== 'public' && !can(actor.role, access)) throw forbidden();
  return { actor, tenant, ip: request.ip ?? null };
}
