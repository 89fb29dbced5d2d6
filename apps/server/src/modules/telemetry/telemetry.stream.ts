import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Database } from '../../db/client';
import { pgErrorCode } from '../../db/driver';
import type { StoredEvent } from './telemetry.repository';

/**
 * Ingest through Redis (with `REDIS_URL`): any instance takes a gateway's batch, checks it and appends it to one
 * Redis stream before it answers, and one consumer group — a consumer in every instance — writes the batches to
 * the event store and acknowledges them only then. A batch a consumer read and never acknowledged (its instance
 * killed mid-write) is claimed by another consumer after {@link CLAIM_IDLE_MS}; writing a batch twice stores it
 * once (the gateway's event ids). Without Redis, or while it is down, the instance writes the batch itself.
 *
 * A batch the writer cannot store (anything but the database being unreachable: a value PostgreSQL refuses, an
 * entry that is not a batch) is tried {@link MAX_ATTEMPTS} times — the stream's own delivery count — and then
 * moved to the dead-letter stream (`<stream>:dead`, with why and how often) and counted (`<stream>:dead:count`),
 * acknowledged on the main stream: never retried for ever. While the database is down nothing is given up on.
 */

/** The stream every instance appends to; the dead letters' keys derive from it ({@link streamKeys}). */
export const TELEMETRY_STREAM = 'palisade:telemetry';
export const TELEMETRY_GROUP = 'palisade-telemetry-writers';
const GROUP = TELEMETRY_GROUP;

/** The keys of a stream: itself, the batches given up on, and how many were. */
export function streamKeys(stream: string) {
  return { stream, dead: `${stream}:dead`, deadCount: `${stream}:dead:count` };
}
/** How often a batch is delivered to a writer before it is moved to the dead letters. */
export const MAX_ATTEMPTS = 5;
/** Dead letters kept (approximately; the count keeps counting). */
const DEAD_MAX_LENGTH = 10_000;

/** How many batches of `stream` were given up on since the count began. */
export async function deadLetterCount(redis: Redis, stream = TELEMETRY_STREAM): Promise<number> {
  return Number((await redis.get(streamKeys(stream).deadCount)) ?? 0);
}

/** Node's codes of a connection that failed or went away. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection error|PGlite is closed|database system is (?:starting up|shutting down)/i;

/**
 * Whether a write failed because the database could not be reached or asked to be tried again — which says
 * nothing about the batch — rather than because of the batch: node's connection errors, SQLSTATE classes 08
 * (connection), 53 (insufficient resources), 57P (shutdown, cannot connect now), and serialization failures and
 * deadlocks. The query builder wraps the driver's error: its causes are looked at too.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const sqlState = pgErrorCode(error);
  if (sqlState && (/^(?:08|53|57P)/.test(sqlState) || sqlState === '40001' || sqlState === '40P01'))
    return true;
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (e instanceof Error && UNREACHABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** What a dead letter says of the failure: the SQLSTATE or error code if any, and the message. */
function failureOf(error: unknown): string {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && e instanceof Error) return `${code}: ${e.message}`.slice(0, 1000);
  }
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

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
  options: {
    claimIdleMs?: number;
    consumer?: string;
    stream?: string;
    maxAttempts?: number;
    /** `REDIS_PREFIX`: before the stream's and its dead letters' names, as on the app's client. */
    keyPrefix?: string;
  } = {},
): { stop: () => Promise<void> } {
  const stream = options.stream ?? TELEMETRY_STREAM;
  const keys = streamKeys(stream);
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  // Its own connection: a blocking read holds it, and the app's client fails commands after 500 ms.
  // No offline queue: while Redis is down a command fails at once and the loop waits a second (and can stop).
  const redis = new Redis(url, {
    keyPrefix: options.keyPrefix ?? '',
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

  /** Moves an entry given up on to the dead letters, counts it and acknowledges it, in one transaction. */
  const bury = async (id: string, raw: string, error: unknown, attempts: number) => {
    const failure = failureOf(error);
    const results = await redis
      .multi()
      .xadd(
        keys.dead,
        'MAXLEN',
        '~',
        DEAD_MAX_LENGTH,
        '*',
        'batch',
        raw,
        'id',
        id,
        'error',
        failure,
        'deliveries',
        String(attempts),
      )
      .incr(keys.deadCount)
      .xack(stream, GROUP, id)
      .exec();
    const count = Number(results?.[1]?.[1] ?? 0);
    log.error(
      { id, attempts, failure, deadLetters: count, stream: keys.dead },
      'telemetry batch not storable: moved to the dead-letter stream',
    );
  };

  // The entries of one read are written together (the writer merges them into few statements); each is
  // acknowledged once written. One that failed stays pending for a later try — unless it has been delivered
  // `maxAttempts` times and the database was reachable: then it goes to the dead letters.
  const handle = async (entries: Entries, deliveries: ReadonlyMap<string, number> = new Map()) => {
    const outcomes = await Promise.all(
      entries.map(async ([id, fields]) => {
        const at = fields.indexOf('batch');
        const raw = at >= 0 ? fields[at + 1] : undefined;
        try {
          if (raw === undefined) throw new Error('stream entry without a batch');
          const batch = JSON.parse(raw) as StreamBatch;
          await write({
            tenantId: batch.tenantId,
            gatewayId: batch.gatewayId,
            events: batch.events.map((event) => ({ ...event, at: new Date(event.at) }) as StoredEvent),
          });
          return { id, isDone: true };
        } catch (err) {
          const attempts = deliveries.get(id) ?? 1;
          if (!isDatabaseUnavailable(err) && attempts >= maxAttempts) {
            await bury(id, raw ?? '', err, attempts);
            return { id, isDone: false };
          }
          // Left unacknowledged: another consumer (or this one) tries it again once it has been idle long enough.
          log.error({ err, id, attempts }, 'telemetry batch from the stream not written');
          return { id, isDone: false };
        }
      }),
    );
    const done = outcomes.filter((o) => o.isDone).map((o) => o.id);
    if (done.length > 0) await redis.xack(stream, GROUP, ...done);
  };

  /** How often each of `ids` (pending under this consumer) was delivered: the stream's own count. */
  const deliveriesOf = async (ids: string[]) => {
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.xpending(stream, GROUP, id, id, 1);
    const answers = (await pipeline.exec()) ?? [];
    const counts = new Map<string, number>();
    for (const [error, rows] of answers) {
      const row =
        !error && Array.isArray(rows) ? (rows[0] as [string, string, number, number] | undefined) : undefined;
      if (row) counts.set(row[0], Number(row[3]));
    }
    return counts;
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
          const live = claimed.filter((entry) => entry?.[1]);
          if (live.length > 0) await handle(live, await deliveriesOf(live.map(([id]) => id)));
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
