import type { z } from 'zod';
import type { ConfigFlag, FeatureFlag } from './features';
import type { Permission } from './roles';

/**
 * Who may call an endpoint: anyone, any signed-in user, a gateway or an enrolled device with its own credential,
 * or holders of a permission.
 */
export type Access = 'public' | 'session' | 'gateway' | 'device' | 'embed' | Permission;

/**
 * The accesses of credentials that are not a person's session or API token: a gateway's `gw_…`, a device's, and
 * an embed link's `emb_…` (its own view's context only; the dashboards' reads it may make are permission routes).
 */
export const MACHINE_ACCESS = ['gateway', 'device', 'embed'] as const;
export type MachineAccess = (typeof MACHINE_ACCESS)[number];

/**
 * One API endpoint, described once and used by both sides: the server registers it (validation, serialisation,
 * permission check, OpenAPI) and the web calls it (typed path, query, body and answer).
 */
export interface Endpoint<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the API base, Fastify-style params: `/subscriber/user/:tenant`. */
  path: string;
  access: Access;
  summary: string;
  tags: string[];
  params?: Params;
  query?: Query;
  body?: Body;
  response: Res;
  /** Status of a successful answer (200 unless stated). */
  status?: 200 | 201 | 202;
  /** The tenant feature flag the endpoint is behind: off for the path's tenant, it answers 403 `feature_disabled`. */
  feature?: FeatureFlag;
  /** Likewise for a configuration flag of the tenant (`/configurations`): `copyAllowed` on the copy endpoints. */
  configFlag?: ConfigFlag;
}

/** Identity function that keeps the literal types of a descriptor. */
export function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Endpoint<P, Q, B, R>,
): Endpoint<P, Q, B, R> {
  return e;
}

export type EndpointParams<E> =
  E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type EndpointQuery<E> =
  E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type EndpointBody<E> =
  E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type EndpointResponse<E> =
  E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
