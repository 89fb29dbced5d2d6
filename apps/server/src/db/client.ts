import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { migrate } from './migrate';
import type { Db, Tx } from './query';
import * as schema from './schema';

// The types and the raw-query helper live in query.ts, which the migrations use too (no client ↔ migrate cycle).
export { type Db, queryRows, type Tx } from './query';

export interface Database {
  kind: 'pglite' | 'postgres';
  /** Owner access: sign-in look-ups, seeding, cross-tenant reads. Bypasses row-level security. */
  db: Db;
  /**
   * Runs `fn` in a transaction as the restricted role with `app.tenant_id` set, so row-level security
   * hides every other tenant's rows even if a query forgets its tenant filter.
   */
  tenantTx<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Keeps track of work that outlives its request (import and bulk jobs), so that `close()` lets it settle
   * before the connections go. The work must handle its own failures: a rejection here is only logged.
   */
  background(work: Promise<unknown>): void;
  /**
   * Receives what is sent to `channel` with NOTIFY (only on commit of the sending transaction). On PostgreSQL
   * this is a connection of its own outside the pool, since LISTEN belongs to one connection and pooled ones go
   * back to other work; on PGlite it is the one client. `onLost` is called once if that connection drops
   * (PostgreSQL only): the listener is dead then and the caller opens another.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onLost: (error: Error) => void,
  ): Promise<{ close(): Promise<void> }>;
  /** Waits for background work, then closes the connections. */
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, which {@link openDatabase}'s `loadDataDir` starts from. */
  dumpDataDir?(): Promise<Blob>;
}

/** Names this server gives its listening connections (so operators and tests can tell them apart). */
export const LISTENER_APPLICATION_NAME = 'palisade-listener';

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** A dedicated PostgreSQL connection that LISTENs on one channel; see {@link Database.listen}. */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onLost: (error: Error) => void,
): Promise<{ close(): Promise<void> }> {
  // TCP keep-alive, so a connection that silently died (no reset from the network) is noticed too.
  const client = new pg.Client({
    connectionString: url,
    application_name: LISTENER_APPLICATION_NAME,
    keepAlive: true,
  });
  let isDone = false;
  const lose = (error: Error) => {
    if (isDone) return;
    isDone = true;
    client.end().catch(() => undefined);
    onLost(error);
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify(message.payload ?? '');
  });
  // Kept for the client's whole life: an 'error' event without a listener would end the process.
  client.on('error', lose);
  client.on('end', () => lose(new Error('the listening connection closed')));
  try {
    await client.connect();
    await client.query(`LISTEN "${channel}"`);
  } catch (error) {
    isDone = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async close() {
      if (isDone) return;
      isDone = true;
      await client.end().catch(() => undefined);
    },
  };
}

/** The file in DATA_DIR that says which process has the directory open. */
export const DATA_DIR_LOCK = 'palisade.lock';

/** Refused: another server (or this process, a second time) has the data directory open. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Palisade server (process ${pid}): PGlite allows one ` +
        `server per directory. Stop that server, or give this one another DATA_DIR. (Lock file ` +
        `${join(dataDir, DATA_DIR_LOCK)}: once process ${pid} is gone, the next start takes it over.)`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** The data directories this process holds open, so that a lock naming its own PID can be told from a stale one. */
const heldDataDirs = new Set<string>();

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes `DATA_DIR/palisade.lock` for this process (created exclusively, holding the PID), or throws
 * {@link DataDirInUseError} while a live process holds it. A lock left by a process that is gone (killed, crashed;
 * or a previous run with this very PID, as in a restarted container) is taken over. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = resolve(dataDir, DATA_DIR_LOCK);
  const mine = `${process.pid}\n${randomUUID()}\n`;
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o644 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    let held: string;
    let age: number;
    try {
      held = readFileSync(file, 'utf8');
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    const pid = Number.parseInt(held, 10);
    const isHeld =
      Number.isInteger(pid) && pid > 0
        ? pid === process.pid
          ? heldDataDirs.has(file)
          : isAlive(pid)
        : // Just created, its PID not written yet: its writer is alive (unless the file is old).
          age < 10_000;
    if (isHeld) throw new DataDirInUseError(dataDir, pid || 0);
    // Stale: removed only if still the same (another server starting may have just taken it over).
    try {
      if (readFileSync(file, 'utf8') === held) unlinkSync(file);
    } catch {
      // removed meanwhile
    }
  }
  heldDataDirs.add(file);
  return () => {
    heldDataDirs.delete(file);
    try {
      // Only our own: never a lock another process took over meanwhile.
      if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
    } catch {
      // gone already
    }
  };
}

/**
 * Opens PGlite (no URL, a directory, or `memory://`) or PostgreSQL (`postgres://…`) and applies migrations. A
 * PGlite directory is locked for this process ({@link lockDataDir}) until `close()`.
 */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite in memory: start from this dump (Database.dumpDataDir) instead of an empty database (tests). */
  loadDataDir?: Blob;
}): Promise<Database> {
  const url = options.databaseUrl;
  let db: Db;
  let close: () => Promise<void>;
  let kind: Database['kind'];
  let runRaw: (text: string) => Promise<unknown>;
  let listen: Database['listen'];
  let dumpDataDir: Database['dumpDataDir'];
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection the server drops (restart, admin command) is replaced on next use; without a
    // listener the pool's 'error' event would end the process.
    pool.on('error', (error) => console.error('an idle database connection failed', error));
    db = drizzleNodePg(pool, { schema }) as unknown as Db;
    close = () => pool.end();
    kind = 'postgres';
    runRaw = (text) => pool.query(text);
    listen = (channel, onNotify, onLost) => listenPostgres(url, channel, onNotify, onLost);
  } else {
    const dataDir = url?.startsWith('memory://') || !options.dataDir ? undefined : options.dataDir;
    // Two servers on one directory would each run their own PostgreSQL over the same files and corrupt them.
    const unlock = dataDir ? lockDataDir(dataDir) : () => {};
    let client: PGlite;
    try {
      client = await PGlite.create({
        dataDir,
        extensions: { pg_trgm },
        ...(dataDir === undefined && options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      });
    } catch (error) {
      unlock();
      throw error;
    }
    db = drizzlePglite(client, { schema }) as unknown as Db;
    close = () => client.close().finally(unlock);
    kind = 'pglite';
    runRaw = (text) => client.exec(text);
    dumpDataDir = () => client.dumpDataDir('none');
    listen = async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return {
        // The client may be gone already when the database closed first.
        close: () => (client.closed ? Promise.resolve() : unlisten().catch(() => undefined)),
      };
    };
  }
  try {
    await migrate(runRaw, db);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }

  const pending = new Set<Promise<unknown>>();
  return {
    kind,
    db,
    tenantTx: (tenantId, fn) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
        await tx.execute(sql`set local role palisade_app`);
        return fn(tx);
      }),
    listen(channel, onNotify, onLost) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
      return listen(channel, onNotify, onLost);
    },
    background(work) {
      const settled = work.then(
        () => undefined,
        (error: unknown) => console.error('background work failed', error),
      );
      pending.add(settled);
      settled.finally(() => pending.delete(settled));
    },
    async close() {
      await Promise.all(pending);
      await close();
    },
    ...(dumpDataDir ? { dumpDataDir } : {}),
  };
}
