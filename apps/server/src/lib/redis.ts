import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** How long the first connection may take before the server starts without it. */
const CONNECT_TIMEOUT_MS = 1_000;
/** A command on a connection that hangs fails after this long, so a request never waits on Redis for longer. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis client whose outage costs a request nothing: while it is disconnected a command fails at once (no
 * offline queue, no retries) and the client keeps reconnecting in the background, every 2 s at most. Waits a
 * moment for the first connection, so a server that starts next to a healthy Redis uses it from its first call,
 * and never fails: Redis being down is the rate limiter's to report (plugins/rate-limit.ts). `keyPrefix`
 * (`REDIS_PREFIX`) goes before every key the client names, so deployments sharing a Redis never meet.
 */
export async function openRedis(url: string, keyPrefix = ''): Promise<Redis> {
  const redis = new Redis(url, {
    // Every key and stream name gets the deployment's prefix (REDIS_PREFIX), whoever uses the client.
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // Without a listener ioredis prints every failed reconnection; the outage is logged once by its users.
  redis.on('error', () => undefined);
  await Promise.race([once(redis, 'ready'), sleep(CONNECT_TIMEOUT_MS, undefined, { ref: false })]).catch(
    () => undefined,
  );
  return redis;
}

/** Closes the client, also while it is still trying to reconnect (QUIT cannot be sent then). */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
