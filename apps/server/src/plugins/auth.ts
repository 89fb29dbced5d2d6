import {
  type Access,
  type ConfigFlag,
  EMBED_TOKEN_PREFIX,
  embedMayCall,
  type FeatureFlag,
  type MachineAccess,
  type RawQuery,
} from '@palisade/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessCheck, AccessGate, Actor, Ctx, DeviceCtx, GatewayCtx, TenantRef } from '../lib/context';
import { bearerToken } from '../lib/credentials';
import {
  AppError,
  deviceUnauthenticated,
  forbidden,
  gatewayUnauthenticated,
  invalid,
  notFound,
  unauthenticated,
} from '../lib/errors';
import { actorCan } from '../lib/grants';
import { nulByteDetails } from '../lib/nul-bytes';

/**
 * What the access check needs from the modules that own sessions, API tokens and tenants. app.ts wires it, so
 * this plugin knows the order of the checks and nothing of how credentials are stored.
 */
export interface Identities {
  /** The actor of a session id (`X-Auth-Token`), or null when it is unknown, expired or its user suspended. */
  sessionActor(sessionId: string): Promise<Actor | null>;
  /** The actor of an API token's secret (`Authorization: Bearer …`), or null when it does not act. */
  tokenActor(secret: string, ip: string | null): Promise<Actor | null>;
  /**
   * The actor of an embed link's token (`Authorization: Bearer emb_…`), with its grant set, or null when it is
   * unknown, revoked or expired, or its creator no longer acts in its tenant.
   */
  embedActor(token: string, ip: string | null): Promise<Actor | null>;
  /** A tenant by name, with its partner's id, or null. */
  tenantNamed(name: string): Promise<(TenantRef & { parentId: string | null }) | null>;
  /** The gateway of a gateway credential, or null when it is wrong, rotated or retired. */
  gatewayOf(credential: string): Promise<{ tenantId: string; id: string } | null>;
  /** The endpoint of a device credential, or null when it is wrong, the device deleted or its owner gone. */
  deviceOf(credential: string): Promise<{ tenantId: string; id: string } | null>;
  /**
   * A tenant's feature and configuration flags, read on each request to an endpoint behind one (one look-up by
   * key), so a flag turned off holds at once on every server.
   */
  tenantFlags(tenant: TenantRef): Promise<{
    features: Record<FeatureFlag, boolean>;
    configurations: Record<ConfigFlag, boolean>;
  }>;
}

/** Where app.ts mounts the API: route patterns start with it, descriptors' paths do not. */
const API_PREFIX = '/api';

/**
 * Resolves a request's identity once however often it is asked (the rate limiter keys on it, the access check
 * reuses it); a refusal (401) is remembered and thrown again to whoever asks next.
 */
function oncePerRequest<T>(resolve: (request: FastifyRequest) => Promise<T>) {
  const resolved = new WeakMap<FastifyRequest, Promise<T>>();
  return (request: FastifyRequest): Promise<T> => {
    let found = resolved.get(request);
    if (!found) {
      found = resolve(request);
      // The rate limiter only looks and may drop a refusal; the access check awaits it again.
      found.catch(() => undefined);
      resolved.set(request, found);
    }
    return found;
  };
}

/**
 * Resolves the session behind `X-Auth-Token`, or — when no `X-Auth-Token` is sent — the API token of
 * `Authorization: Bearer pal_…` or the embed link of `Bearer emb_…`; otherwise throws 401 (errcode 1).
 */
async function resolveActor(identities: Identities, request: FastifyRequest): Promise<Actor> {
  const token = request.headers['x-auth-token'];
  if (token === undefined) {
    const secret = bearerToken(request.headers.authorization);
    if (secret !== null) {
      const actor = secret.startsWith(EMBED_TOKEN_PREFIX)
        ? await identities.embedActor(secret, request.ip ?? null)
        : await identities.tokenActor(secret, request.ip ?? null);
      if (!actor) throw unauthenticated();
      return actor;
    }
  }
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw unauthenticated();
  const actor = await identities.sessionActor(token);
  if (!actor) throw unauthenticated();
  return actor;
}

/**
 * Whether an actor may work on a tenant: its own, a customer of its partner (partner admins), or any
 * (platform admins). Anything else is answered 404 so tenants cannot be discovered.
 */
async function resolveTenant(
  identities: Identities,
  actor: Actor,
  name: string | undefined,
): Promise<TenantRef> {
  if (!name || name === actor.tenantName) {
    return { id: actor.tenantId, name: actor.tenantName, kind: actor.tenantKind };
  }
  const tenant = await identities.tenantNamed(name);
  const isManaged =
    tenant &&
    (actor.role === 'platform_admin' ||
      (actor.role === 'partner_admin' && tenant.parentId === actor.tenantId));
  if (!isManaged) throw notFound('Tenant');
  return { id: tenant.id, name: tenant.name, kind: tenant.kind };
}

/**
 * Sets up the access check as `app.auth` ({@link AccessCheck}); before the rate limiter and the routes, which use
 * it.
 */
export function registerAuth(app: FastifyInstance, identities: Identities): void {
  const actorOf = oncePerRequest((request) => resolveActor(identities, request));

  const contextOf = async (
    request: FastifyRequest,
    access: Exclude<Access, 'public' | MachineAccess>,
    gate?: AccessGate,
  ): Promise<Ctx> => {
    const actor = await actorOf(request);
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const name = params.tenant ?? params.name;
    // An embed link reaches its own tenant only (404 for any other, as for anyone), and there only the read
    // routes of its dashboards, with their conditions (contracts embed-links.ts): never a write, an account
    // route, a token or a session.
    if (actor.embed) {
      if (name !== undefined && name !== actor.tenantName) throw notFound('Tenant');
      const pattern = request.routeOptions.url ?? '';
      const path = pattern.startsWith(API_PREFIX) ? pattern.slice(API_PREFIX.length) : null;
      const query = (request.query ?? {}) as RawQuery;
      if (access === 'session' || path === null || !embedMayCall(actor.embed, request.method, path, query)) {
        throw forbidden();
      }
    }
    // A name holding NUL names no tenant (and PostgreSQL refuses it in the look-up): once the role is checked it
    // is refused as bad input, like a NUL anywhere else (route()).
    const tenant = name?.includes('\u0000') ? null : await resolveTenant(identities, actor, name);
    // An API token acts only through endpoints that declare a permission: the `session` ones are the person's
    // own account (profile, password, second factor, sign-out, tokens), which automation must not touch.
    if (access === 'session' && (actor.tokenId || actor.embed)) throw forbidden();
    if (access !== 'session' && !actorCan(actor, access)) throw forbidden();
    if (!tenant) throw invalid(nulByteDetails(request));
    // Partner-edit mode: a session that opened a managed tenant writes only there, and only in edit mode.
    if (
      tenant.id !== actor.tenantId &&
      actor.target &&
      access !== 'session' &&
      !access.endsWith(':view') &&
      (actor.target.tenantId !== tenant.id || !actor.target.edit)
    ) {
      throw new AppError('partner_read_only', 'This tenant is open read-only.');
    }
    // An endpoint behind a feature or configuration flag the path's tenant has off (contracts features.ts).
    if (gate?.feature || gate?.configFlag) {
      const flags = await identities.tenantFlags(tenant);
      if (
        (gate.feature && !flags.features[gate.feature]) ||
        (gate.configFlag && !flags.configurations[gate.configFlag])
      ) {
        throw new AppError('feature_disabled', 'This feature is not included in this workspace.');
      }
    }
    return { actor, tenant, ip: request.ip ?? null };
  };

  const gatewayOf = oncePerRequest(async (request): Promise<GatewayCtx> => {
    const credential = bearerToken(request.headers.authorization);
    const gateway = credential ? await identities.gatewayOf(credential) : null;
    if (!gateway) throw gatewayUnauthenticated();
    return { tenantId: gateway.tenantId, gatewayId: gateway.id, ip: request.ip ?? null };
  });
  const deviceOf = oncePerRequest(async (request): Promise<DeviceCtx> => {
    const credential = bearerToken(request.headers.authorization);
    const device = credential ? await identities.deviceOf(credential) : null;
    if (!device) throw deviceUnauthenticated();
    return { tenantId: device.tenantId, deviceId: device.id, ip: request.ip ?? null };
  });

  const embedOf = async (request: FastifyRequest): Promise<Ctx> => {
    const actor = await actorOf(request);
    if (!actor.embed) throw unauthenticated();
    return {
      actor,
      tenant: { id: actor.tenantId, name: actor.tenantName, kind: actor.tenantKind },
      ip: request.ip ?? null,
    };
  };

  // A long-lived connection's re-check: the request's own resolution again, from scratch. The stand-in request
  // reads the same headers, parameters and address (through to the request) but no per-request cache knows it.
  const recheck: AccessCheck['recheck'] = (request, access, gate) => {
    const fresh = Object.create(request) as FastifyRequest;
    if (access === 'gateway') return gatewayOf(fresh);
    if (access === 'device') return deviceOf(fresh);
    if (access === 'embed') return embedOf(fresh);
    return contextOf(fresh, access, gate);
  };

  const check: AccessCheck = { actorOf, contextOf, gatewayOf, deviceOf, embedOf, recheck };
  app.decorate('auth', check);
}
