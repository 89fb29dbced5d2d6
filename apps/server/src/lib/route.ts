import {
  type Access,
  type Endpoint,
  type EndpointResponse,
  MACHINE_ACCESS,
  type MachineAccess,
} from '@palisade/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Database } from '../db/client';
import type { Ctx, DeviceCtx, GatewayCtx } from './context';
import { invalid } from './errors';
import { nulByteDetails } from './nul-bytes';

type Out<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

/** What a handler receives: validated input and, except on public endpoints, the context. */
export interface HandlerInput<E extends Endpoint, C> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  ctx: C;
  request: FastifyRequest;
  reply: FastifyReply;
}

type CtxOf<E extends Endpoint> = E['access'] extends 'public' ? null : Ctx;

const isMachine = (access: Access): access is MachineAccess =>
  (MACHINE_ACCESS as readonly string[]).includes(access);

/** The gateway of a request to an endpoint with access `gateway` (route() resolved it before the handler). */
export function gatewayCtx(request: FastifyRequest): GatewayCtx {
  const ctx = request.ctx;
  if (!ctx || !('gatewayId' in ctx)) throw new Error('gatewayCtx: not a gateway endpoint');
  return ctx;
}

/** The device of a request to an endpoint with access `device` (route() resolved it before the handler). */
export function deviceCtx(request: FastifyRequest): DeviceCtx {
  const ctx = request.ctx;
  if (!ctx || !('deviceId' in ctx)) throw new Error('deviceCtx: not a device endpoint');
  return ctx;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx | GatewayCtx | DeviceCtx | null;
  }
  interface FastifyContextConfig {
    access?: import('@palisade/contracts').Access;
  }
}

/**
 * Registers an endpoint descriptor from the contracts: schemas for validation, serialisation and OpenAPI,
 * and the access check before validation so the order is always 401 → 404 → 403 → 400. A NUL character in any
 * input is refused (400) between the access check and the schemas, on every route alike.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  /**
   * Unused since the access check moved to `app.auth` (plugins/auth.ts); kept so that the call sites, which read
   * `route(api, database, e.x, …)`, did not all change at once.
   */
  _database: Database,
  e: E,
  /** Answers the response body, or the reply itself after sending something else (a stream, a file). */
  handler: (
    input: HandlerInput<E, CtxOf<E>>,
  ) => Promise<EndpointResponse<E> | FastifyReply> | EndpointResponse<E> | FastifyReply,
): void {
  const status = e.status ?? 200;
  const gate = e.feature || e.configFlag ? { feature: e.feature, configFlag: e.configFlag } : undefined;
  // Fails at start-up, not on the first request, when app.ts registers routes before the access check.
  if (e.access !== 'public' && !app.hasDecorator('auth')) {
    throw new Error(`route ${e.method} ${e.path}: register plugins/auth.ts before the routes`);
  }
  app.withTypeProvider<ZodTypeProvider>().route({
    method: e.method,
    url: e.path,
    config: { access: e.access },
    schema: {
      summary: e.summary,
      tags: e.tags,
      ...(e.access === 'public' ? {} : { security: [{ [isMachine(e.access) ? e.access : 'session']: [] }] }),
      ...(e.params ? { params: e.params } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.body ? { body: e.body } : {}),
      response: { [status]: e.response },
    },
    preValidation: async (request) => {
      request.ctx =
        e.access === 'public'
          ? null
          : e.access === 'gateway'
            ? await app.auth.gatewayOf(request)
            : e.access === 'device'
              ? await app.auth.deviceOf(request)
              : e.access === 'embed'
                ? await app.auth.embedOf(request)
                : await app.auth.contextOf(request, e.access, gate);
      const nulBytes = nulByteDetails(request);
      if (nulBytes.length > 0) throw invalid(nulBytes);
    },
    handler: async (request, reply) => {
      reply.status(status);
      return handler({
        params: request.params as Out<E['params']>,
        query: request.query as Out<E['query']>,
        body: request.body as Out<E['body']>,
        ctx: request.ctx as CtxOf<E>,
        request,
        reply,
      });
    },
  });
}
