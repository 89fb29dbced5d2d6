import { systemEndpoints as e, type Health } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/client';
import { route } from '../../lib/route';
import { pingDatabase } from './health.repository';

/** A dependency that takes longer than this to answer a probe counts as down. */
const PROBE_TIMEOUT_MS = 2_000;

/** Whether `probe` settles within the timeout without failing. */
async function answers(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/api/health/live` answers while the process runs (restart me if not); `/api/health` checks each dependency:
 * 503 without the database (take me out of the load balancer), 200 `degraded` without Redis, which only costs the
 * shared rate-limit counters.
 */
export function healthRoutes(app: FastifyInstance, deps: { database: Database; redis: Redis | null }) {
  const { database, redis } = deps;
  route(app, database, e.healthLive, () => ({ status: 'ok' as const }));
  route(app, database, e.health, async ({ reply }) => {
    const [isDatabaseUp, isRedisUp] = await Promise.all([
      answers(() => pingDatabase(database.db)),
      redis ? answers(() => redis.ping()) : Promise.resolve(null),
    ]);
    const health: Health = {
      status: !isDatabaseUp ? 'down' : isRedisUp === false ? 'degraded' : 'ok',
      database: isDatabaseUp ? 'ok' : 'down',
      redis: isRedisUp === null ? 'none' : isRedisUp ? 'ok' : 'down',
    };
    if (!isDatabaseUp) reply.status(503);
    return health;
  });
}
