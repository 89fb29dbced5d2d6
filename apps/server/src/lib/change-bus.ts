import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../db/client';
import type { Ctx } from './context';

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

// ─── Credentials: long-lived connections end when theirs stops acting ──────────────────────────────────────

/**
 * The topic of changes that may stop a credential acting: a session ended (sign-out, a password change ending
 * the account's other sessions), an account suspended, removed or given another role, a tenant suspended,
 * scheduled for deletion or moved to another partner, a gateway's credential rotated or its gateway retired.
 * Its messages name what changed: `session:<session hash>`, `user:<user id>`, `tenant:<tenant id>`,
 * `gateway:<gateway id>`.
 */
export const CREDENTIALS_TOPIC = 'credentials';

/** What a {@link CREDENTIALS_TOPIC} message names. */
export type CredentialSubject = `${'session' | 'user' | 'tenant' | 'gateway'}:${string}`;

/**
 * Announces, in the caller's transaction (so on commit only, to every instance), that `subjects` may no longer
 * act: the long-lived connections they name re-check their credential at once ({@link watchCredential}).
 */
export async function announceCredentialChange(tx: Db | Tx, ...subjects: CredentialSubject[]): Promise<void> {
  for (const subject of new Set(subjects)) {
    await tx.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${changePayload(CREDENTIALS_TOPIC, subject)})`);
  }
}

/**
 * What a person's connection hears of: its session (or API token), its account, its own tenant and the tenant it
 * works on (a partner's managed one).
 */
export function subjectsOf(ctx: Ctx): CredentialSubject[] {
  return [
    `session:${ctx.actor.sessionHash}`,
    `user:${ctx.actor.id}`,
    `tenant:${ctx.actor.tenantId}`,
    `tenant:${ctx.tenant.id}`,
  ];
}

/** How often a long-lived connection re-checks its credential when nothing was announced. */
export const CREDENTIAL_RECHECK_MS = 5_000;

/**
 * Keeps a long-lived connection (server-sent events, a long-poll) to what its credential may do now: runs
 * `recheck` (the request's credential resolution again, from scratch) every {@link CREDENTIAL_RECHECK_MS}, and at
 * once when a credential change names one of `subjects` or the bus reconnected (an announcement may have been
 * missed). The first refusal — or failure: a connection that cannot be checked is not kept — goes to `onRefused`,
 * and the watch stops. Between checks it holds no database connection. Answers the function that stops it.
 */
export function watchCredential(
  changes: ChangeBus,
  options: {
    subjects: readonly CredentialSubject[];
    recheck: () => Promise<unknown>;
    onRefused: (error: unknown) => void;
    /** Defaults to {@link CREDENTIAL_RECHECK_MS}; null: only when announced (the caller checks before it answers). */
    everyMs?: number | null;
  },
): () => void {
  const subjects = new Set<string>(options.subjects);
  let isStopped = false;
  let isChecking = false;
  let isDue = false;
  const check = () => {
    if (isStopped) return;
    // A change announced during a check may have committed after the check read: check once more after it.
    if (isChecking) {
      isDue = true;
      return;
    }
    isChecking = true;
    options.recheck().then(
      () => {
        isChecking = false;
        if (isDue) {
          isDue = false;
          check();
        }
      },
      (error: unknown) => {
        isChecking = false;
        if (isStopped) return;
        stop();
        options.onRefused(error);
      },
    );
  };
  const unsubscribe = changes.subscribe(CREDENTIALS_TOPIC, (message) => {
    if (message === null || subjects.has(message)) check();
  });
  const everyMs = options.everyMs === undefined ? CREDENTIAL_RECHECK_MS : options.everyMs;
  const timer = everyMs === null ? null : setInterval(check, everyMs);
  timer?.unref();
  function stop() {
    isStopped = true;
    if (timer) clearInterval(timer);
    unsubscribe();
  }
  return stop;
}
