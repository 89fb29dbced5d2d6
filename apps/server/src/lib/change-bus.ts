import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

/**
 * The PostgreSQL channel every change announcement goes to. A change sends
 * `pg_notify(CHANGE_CHANNEL, '<topic>:<message>')` inside its own transaction, so the announcement reaches every
 * server instance on the database exactly when (and only if) the change commits.
 */
export const CHANGE_CHANNEL = 'palisade_changes';

/** The payload a change sends for `topic` (the topic names what changed, the message which one). */
export function changePayload(topic: string, message: string): string {
  return `${topic}:${message}`;
}

/**
 * What a subscriber hears: the message of each announcement on its topic, or null when the bus has just
 * reconnected and announcements in between may have been missed (drop whatever they would have invalidated).
 */
export type ChangeHandler = (message: string | null) => void;

/** One app instance's view of the changes committed by any instance. */
export interface ChangeBus {
  /** Calls `handler` for every announcement on `topic`; answers the function that stops it. */
  subscribe(topic: string, handler: ChangeHandler): () => void;
  /** Stops listening (the app's `close()` calls it). */
  close(): Promise<void>;
}

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * Opens the change bus of one app instance: a listener on {@link CHANGE_CHANNEL} (its own PostgreSQL connection,
 * or PGlite's client). A dropped connection is reopened with a growing pause, and subscribers then hear null.
 * Never fails the start: without a connection the bus keeps retrying, and what relies on it must stay correct
 * without it (the policy cache checks the tenant's version before every decision anyway).
 */
export async function openChangeBus(database: Database, log: FastifyBaseLogger): Promise<ChangeBus> {
  const handlers = new Map<string, Set<ChangeHandler>>();
  let listener: { close(): Promise<void> } | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = RECONNECT_FIRST_MS;
  let isClosed = false;

  const call = (handler: ChangeHandler, message: string | null) => {
    try {
      handler(message);
    } catch (err) {
      log.error({ err }, 'a change subscriber failed');
    }
  };
  const dispatch = (payload: string) => {
    const at = payload.indexOf(':');
    const topic = at < 0 ? payload : payload.slice(0, at);
    for (const handler of handlers.get(topic) ?? []) call(handler, at < 0 ? '' : payload.slice(at + 1));
  };
  const scheduleReconnect = () => {
    if (isClosed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect(true);
    }, delay);
    // Never what keeps a process alive: the HTTP server does that while the app runs.
    retry.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };
  const onLost = (err: Error) => {
    listener = null;
    if (isClosed) return;
    log.warn({ err }, 'lost the change-notification connection; reconnecting');
    scheduleReconnect();
  };
  async function connect(isReconnect: boolean) {
    try {
      const opened = await database.listen(CHANGE_CHANNEL, dispatch, onLost);
      if (isClosed) {
        await opened.close();
        return;
      }
      listener = opened;
      delay = RECONNECT_FIRST_MS;
      if (isReconnect) {
        log.info('change-notification connection restored');
        for (const set of handlers.values()) for (const handler of set) call(handler, null);
      }
    } catch (err) {
      if (isClosed) return;
      log.warn({ err }, 'cannot listen for changes; retrying');
      scheduleReconnect();
    }
  }

  await connect(false);
  return {
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      set.add(handler);
      handlers.set(topic, set);
      return () => {
        set.delete(handler);
      };
    },
    async close() {
      isClosed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      await listener?.close();
      listener = null;
    },
  };
}
