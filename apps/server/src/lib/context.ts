import type {
  Access,
  ConfigFlag,
  EmbedKind,
  FeatureFlag,
  MachineAccess,
  Permission,
  Role,
  TenantKind,
} from '@palisade/contracts';
import type { FastifyRequest } from 'fastify';

/** The signed-in user a request acts for. */
export interface Actor {
  id: string;
  username: string;
  role: Role;
  /** The custom role held when `role` is `custom` (nobody edits the role they hold). */
  customRoleId?: string | null;
  usertype: number;
  tenantId: string;
  tenantName: string;
  tenantKind: TenantKind;
  /** Hash of the session id, or of the API token's secret when `tokenId` is set. */
  sessionHash: string;
  /**
   * When present, exactly what the actor may do (an API token's scope), checked instead of the role's
   * permissions. The role still decides which tenants the actor reaches.
   */
  permissions?: readonly Permission[];
  /** Set when the request authenticated with an API token (`Authorization: Bearer pal_…`). */
  tokenId?: string;
  /**
   * Set when the request authenticated with an embed link (`Authorization: Bearer emb_…`): it reaches only its
   * tenant (the actor's `tenantId`) and the read routes of its dashboards (contracts `embedMayCall`). `id` is its
   * creator's, whose rights it acts with.
   */
  embed?: EmbedGrant;
  /**
   * The managed tenant a partner's session opened and whether in edit mode (spec §3/§6 `target`); absent when it
   * opened none. Writes in managed tenants follow it (plugins/auth.ts).
   */
  target?: { tenantId: string; edit: boolean } | null;
}

/** What an embed link was made for: its dashboards and, for the per-user one, the user. */
export interface EmbedGrant {
  linkId: string;
  name: string;
  kinds: readonly EmbedKind[];
  userId: string | null;
  expiresAt: Date;
}

/** The tenant a request works on (the path's tenant, or the actor's own). */
export interface TenantRef {
  id: string;
  name: string;
  kind: TenantKind;
}

/** What services receive: never the request itself. */
export interface Ctx {
  tenant: TenantRef;
  actor: Actor;
  ip: string | null;
}

/** What the gateway protocol's handlers receive: the gateway a credential (`Bearer gw_…`) belongs to. */
export interface GatewayCtx {
  tenantId: string;
  gatewayId: string;
  ip: string | null;
}

/** What the device client's handlers receive: the endpoint a device credential (`Bearer dev_…`) belongs to. */
export interface DeviceCtx {
  tenantId: string;
  deviceId: string;
  ip: string | null;
}

/** The flag an endpoint is behind (its descriptor's `feature` or `configFlag`): off, it answers 403. */
export interface AccessGate {
  feature?: FeatureFlag;
  configFlag?: ConfigFlag;
}

/**
 * The access check, set up by plugins/auth.ts (registerAuth) and decorated on the app as `auth`: route() runs it
 * before validation, and the rate limiter keys on its actor.
 */
export interface AccessCheck {
  /**
   * The request's actor (session or API token), resolved once per request however often it is asked; a refusal
   * (401) is remembered and thrown again to whoever asks next.
   */
  actorOf(request: FastifyRequest): Promise<Actor>;
  /**
   * Session → tenant → permission → the endpoint's flag, in that order: 401, then 404, then 403 (then 400 for a NUL
   * in the tenant).
   */
  contextOf(
    request: FastifyRequest,
    access: Exclude<Access, 'public' | MachineAccess>,
    gate?: AccessGate,
  ): Promise<Ctx>;
  /** The gateway of `Authorization: Bearer gw_…` (endpoints with access `gateway`); else 401. */
  gatewayOf(request: FastifyRequest): Promise<GatewayCtx>;
  /** The device of `Authorization: Bearer <device credential>` (endpoints with access `device`); else 401. */
  deviceOf(request: FastifyRequest): Promise<DeviceCtx>;
  /** The embed link of `Authorization: Bearer emb_…` in its own tenant (endpoints with access `embed`); else 401. */
  embedOf(request: FastifyRequest): Promise<Ctx>;
  /**
   * Resolves the request's credential and access again from scratch (no per-request cache), whatever the
   * credential: what a long-lived connection (server-sent events, a long-poll) runs while it stays open, so it
   * ends once its credential no longer acts. Throws what the request would be refused with now.
   */
  recheck(
    request: FastifyRequest,
    access: Exclude<Access, 'public'>,
    gate?: AccessGate,
  ): Promise<Ctx | GatewayCtx | DeviceCtx>;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AccessCheck;
  }
}
