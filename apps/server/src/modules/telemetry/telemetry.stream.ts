import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Database } from '../../db/client';
import type { StoredEvent } from './telemetry.repository';

/**
 * Ingest through Redis (with `REDIS_URL`): any instance takes a gateway's batch, checks it and appends it to one
 * Redis stream before it answers, and one consumer group — a consumer in every instance — writes the batches to
 * the event store and acknowledges them only then. A batch a consumer read and never acknowledged (its instance
 * killed mid-write) is claimed by another consumer after {@link CLAIM_IDLE_MS}; writing a batch twice stores it
 * once (the gateway's event ids). Without Redis, or while it is down, the instance writes the batch itself.
 */

export const TELEMETRY_STREAM = 'palisade:telemetry';
export const TELEMETRY_GROUP = 'palisade-telemetry-writers';
const GROUP = TELEMETRY_GROUP;
/** Entries kept in the stream (acknowledged ones are trimmed away beyond this, approximately). */
const MAX_LENGTH = 200_000;
/** A batch read but not acknowledged for this long is taken over by another consumer. */
export const CLAIM_IDLE_MS = 30_000;
const READ_COUNT = 20;
const BLOCK_MS = 1_000;

/** One batch in the stream. */
interface StreamBatch {
  tenantId: string;
  gatewayId: string;
  events: Array<Omit<StoredEvent, 'at'> & { at: string }>;
}

const producers = new WeakMap<Database, Redis>();

/** Makes this instance's ingest append to the stream through `redis` (the app's shared client). */
export function produceThrough(database: Database, redis: Redis): void {
  producers.set(database, redis);
}

/** Appends a batch to the stream; false when there is no stream or Redis refused (the caller writes it itself). */
export async function appendBatch(
  database: Database,
  batch: { tenantId: string; gatewayId: string; events: readonly StoredEvent[] },
): Promise<boolean> {
  const redis = producers.get(database);
  if (!redis) return false;
  const payload: StreamBatch = {
    tenantId: batch.tenantId,
    gatewayId: batch.gatewayId,
    events: batch.events.map((event) => ({ ...event, at: event.at.toISOString() })),
  };
  try {
    await redis.xadd(TELEMETRY_STREAM, 'MAXLEN', '~', MAX_LENGTH, '*', 'batch', JSON.stringify(payload));
    return true;
  } catch {
    return false;
  }
}

type Entries = Array<[string, string[]]>;

/**
 * Runs this instance's consumer: reads batches, writes each with `write`, acknowledges it; takes over batches
 * other consumers left unacknowledged. Answers the function that stops it (after the batch in hand).
 */
export function startStreamConsumer(
  url: string,
  write: (batch: { tenantId: string; gatewayId: string; events: StoredEvent[] }) => Promise<void>,
  log: FastifyBaseLogger,
  options: { claimIdleMs?: number; consumer?: string; stream?: string } = {},
): { stop: () => Promise<void> } {
  const stream = options.stream ?? TELEMETRY_STREAM;
  // Its own connection: a blocking read holds it, and the app's client fails commands after 500 ms.
  // No offline queue: while Redis is down a command fails at once and the loop waits a second (and can stop).
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: null,
    retryStrategy: (n) => Math.min(n * 200, 2_000),
  });
  redis.on('error', () => undefined);
  const consumer = options.consumer ?? `consumer-${randomBytes(6).toString('hex')}`;
  const claimIdleMs = options.claimIdleMs ?? CLAIM_IDLE_MS;
  let stopped = false;
  let lastClaim = 0;
  /** An outage is logged once, until a read works again. */
  let warned = false;

  // The entries of one read are written together (the writer merges them into few statements); each is
  // acknowledged once written, and one that failed stays pending for a later try.
  const handle = async (entries: Entries) => {
    const written = await Promise.all(
      entries.map(async ([id, fields]) => {
        const raw = fields[fields.indexOf('batch') + 1];
        try {
          const batch = JSON.parse(raw) as StreamBatch;
          await write({
            tenantId: batch.tenantId,
            gatewayId: batch.gatewayId,
            events: batch.events.map((event) => ({ ...event, at: new Date(event.at) }) as StoredEvent),
          });
          return id;
        } catch (err) {
          // Left unacknowledged: another consumer (or this one) tries it again once it has been idle long enough.
          log.error({ err, id }, 'telemetry batch from the stream not written');
          return null;
        }
      }),
    );
    const done = written.filter((id): id is string => id !== null);
    if (done.length > 0) await redis.xack(stream, GROUP, ...done);
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await redis.xgroup('CREATE', stream, GROUP, '0', 'MKSTREAM').catch((error: Error) => {
          if (!/BUSYGROUP/.test(error.message)) throw error;
        });
        break;
      } catch (err) {
        if (!warned) log.warn({ err }, 'telemetry stream: Redis not reachable yet; retrying every second');
        warned = true;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    while (!stopped) {
      try {
        if (Date.now() - lastClaim >= Math.min(claimIdleMs, 10_000)) {
          lastClaim = Date.now();
          const [, claimed] = (await redis.xautoclaim(
            stream,
            GROUP,
            consumer,
            claimIdleMs,
            '0',
            'COUNT',
            READ_COUNT,
          )) as [string, Entries];
          if (claimed.length > 0) await handle(claimed.filter((entry) => entry?.[1]));
        }
        const read = (await redis.xreadgroup(
          'GROUP',
          GROUP,
          consumer,
          'COUNT',
          READ_COUNT,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          stream,
          '>',
        )) as Array<[string, Entries]> | null;
        for (const [, entries] of read ?? []) await handle(entries);
      } catch (err) {
        if (stopped) break;
        if (!warned) log.warn({ err }, 'telemetry stream: read failed; retrying every second');
        warned = true;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      warned = false;
    }
  })();

  return {
    async stop() {
      stopped = true;
      // Rejects a command waiting on the connection (a blocking read, or any while Redis is down), so the loop ends.
      redis.disconnect();
      await loop;
    },
  };
}
