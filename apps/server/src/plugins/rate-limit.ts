import { createRequire } from 'node:module';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';

type Counted = { current: number; ttl: number };
type Done = (error: Error | null, result?: Counted) => void;

/** The store interface of @fastify/rate-limit 11 (its own two stores implement it). */
interface Store {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  read(key: string, done: Done, timeWindow: number, max: number): void;
  child(routeOptions: unknown): Store;
}

// The plugin's own stores: not exported by name, so loaded by path (CommonJS).
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => Store;

/** Whether Redis is being used or the counters are per instance; shared by a store and its children. */
interface Outage {
  isDown: boolean;
}

/**
 * Counts in Redis while it answers and in this instance's memory while it does not, so an outage degrades the
 * limit (each instance counts on its own) instead of failing requests. Tried again on every call: with the
 * client's offline queue off (lib/redis.ts) a call to a disconnected Redis fails at once. Logged once per outage.
 */
class FallbackStore implements Store {
  constructor(
    private readonly shared: Store,
    private readonly local: Store,
    private readonly redis: Redis,
    private readonly outage: Outage,
    private readonly log: FastifyBaseLogger,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    this.use('incr', key, done, timeWindow, max);
  }

  read(key: string, done: Done, timeWindow: number, max: number): void {
    this.use('read', key, done, timeWindow, max);
  }

  child(routeOptions: unknown): Store {
    return new FallbackStore(
      this.shared.child(routeOptions),
      this.local.child(routeOptions),
      this.redis,
      this.outage,
      this.log,
    );
  }

  private use(method: 'incr' | 'read', key: string, done: Done, timeWindow: number, max: number): void {
    const local = () => this.local[method](key, done, timeWindow, max);
    if (this.redis.status !== 'ready') {
      this.down(new Error(`the connection is ${this.redis.status}`));
      local();
      return;
    }
    this.shared[method](
      key,
      (error, result) => {
        if (error) {
          this.down(error);
          local();
          return;
        }
        if (this.outage.isDown) {
          this.outage.isDown = false;
          this.log.info('Redis answers again: rate-limit counters are shared again');
        }
        done(null, result);
      },
      timeWindow,
      max,
    );
  }

  private down(error: Error): void {
    if (this.outage.isDown) return;
    this.outage.isDown = true;
    this.log.warn(
      { err: error },
      'Redis is unavailable: rate-limit counters are kept per server instance until it answers again',
    );
  }
}

/** A store class for the plugin (it instantiates `store` itself), closing over the clients. */
function storeFor(redis: Redis, log: FastifyBaseLogger) {
  const outage: Outage = { isDown: false };
  return class extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = params.continueExceeding ?? false;
      const exponentialBackoff = params.exponentialBackoff ?? false;
      super(
        new RedisStore(continueExceeding, exponentialBackoff, redis, 'palisade-rl:'),
        new LocalStore(continueExceeding, exponentialBackoff),
        redis,
        outage,
        log,
      );
    }
  };
}

/**
 * The route the router matched, as the limiter counts it: its pattern (never the raw address, which the router
 * decodes, so `/%61pi/…` or `/api/%73ession` name the same route as the plain spelling), and HEAD counted as the
 * GET it answers. An address that matched no route counts as one route per method.
 */
function routeKey(request: FastifyRequest): string {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return `${method}|${request.routeOptions.url ?? '(unmatched)'}`;
}

/** Pages, assets and the health probes are not limited; the API is — by the route matched, not the raw address. */
const isExempt = (request: FastifyRequest) => {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return !request.url.startsWith('/api/');
  return !pattern.startsWith('/api/') || pattern.startsWith('/api/health');
};

/**
 * The server-side limit (spec §7, ARCHITECTURE §3): `max` calls per window per caller and method+path, shared
 * through Redis when there is one. The caller is the session or API token when it is valid, otherwise the
 * client's address (the proxy's view of it only with TRUST_PROXY), so neither made-up tokens nor forged
 * `X-Forwarded-For` headers open fresh buckets.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  deps: { config: Config; redis: Redis | null },
): Promise<void> {
  const { config, redis } = deps;
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    ...(redis ? { store: storeFor(redis, app.log) } : {}),
    allowList: isExempt,
    keyGenerator: async (request) => {
      const route = routeKey(request);
      if (isExempt(request)) return route;
      // Resolved once for the request (app.auth, plugins/auth.ts): route()'s access check reuses it. The gateway
      // protocol is limited per gateway, the device client per device.
      const who =
        request.routeOptions.config?.access === 'gateway'
          ? await app.auth.gatewayOf(request).then(
              (gateway) => `gateway:${gateway.gatewayId}`,
              () => `address:${normalizeIP(request.ip)}`,
            )
          : request.routeOptions.config?.access === 'device'
            ? await app.auth.deviceOf(request).then(
                (device) => `device:${device.deviceId}`,
                () => `address:${normalizeIP(request.ip)}`,
              )
            : await app.auth.actorOf(request).then(
                (actor) => `session:${actor.sessionHash}`,
                () => `address:${normalizeIP(request.ip)}`,
              );
      return `${who}|${route}`;
    },
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, message: `Retry in ${context.after}` }),
  });
}
