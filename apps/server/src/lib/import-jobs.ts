import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ImportJob, ImportRowError, PolicyTestFailure } from '@palisade/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client';
import { pgArray } from '../db/driver';
import { importJobs } from '../db/schema';
import type { Ctx } from './context';
import { isCsvError } from './csv';
import { AppError, notFound } from './errors';

/**
 * CSV imports run as jobs (table `import_jobs`): the upload is answered at once with the job, the rows are
 * processed afterwards, and the browser polls the job row for progress and row errors. The row lives in the
 * database so any server behind a load balancer can answer the poll. Shared by every import.
 */

export type JobRow = typeof importJobs.$inferSelect;
export type ImportKind = JobRow['kind'];
export type ImportMode = JobRow['mode'];
/** Changes to a job's progress, counts, errors or status. */
export type JobChange = {
  [K in keyof typeof importJobs.$inferInsert]?: (typeof importJobs.$inferInsert)[K] | SQL;
};

/** Imports that update existing objects as well as create them report how many they changed. */
const UPDATING_KINDS: ReadonlySet<ImportKind> = new Set(['groups']);

export function presentJob(row: JobRow): ImportJob {
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    dryRun: row.isDryRun,
    total: row.total,
    processed: row.processed,
    created: row.created,
    ...(UPDATING_KINDS.has(row.kind) ? { updated: row.updated } : {}),
    errorCount: row.errorCount,
    errors: (row.errors as ImportRowError[]).slice(0, MAX_KEPT_ERRORS),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function insertJob(tx: Tx, values: typeof importJobs.$inferInsert) {
  const [row] = await tx.insert(importJobs).values(values).returning();
  return row;
}

/**
 * Records a running job's progress, counts, errors or end, and that it is alive (`heartbeat_at`). A job that is
 * no longer running (finished, or settled as interrupted) is left as it is: the answer is then undefined.
 */
export async function updateJob(
  tx: Tx,
  tenantId: string,
  id: string,
  values: JobChange,
): Promise<JobRow | undefined> {
  const [row] = await tx
    .update(importJobs)
    .set({ ...values, heartbeatAt: sql`now()` })
    .where(and(eq(importJobs.tenantId, tenantId), eq(importJobs.id, id), eq(importJobs.status, 'running')))
    .returning();
  return row;
}

/**
 * How long a running job may go without a sign of life before it counts as interrupted. A job's server stamps
 * it every {@link HEARTBEAT_INTERVAL_MS} whatever the job is doing, so silence this long means that server
 * stopped: it restarted, or crashed.
 */
export const JOB_STALE_AFTER_SECONDS = 120;
/** How often the server running a job says it is alive, besides every progress write. */
export const HEARTBEAT_INTERVAL_MS = 30_000;

/**
 * The jobs this process is running. They are alive whatever their row says: one long transaction (an "all or
 * nothing" import) holds the embedded database's only connection, so no heartbeat gets through until it ends.
 */
const runningHere = new Set<string>();

/**
 * Runs a job's work in the background (tracked by the database, so `close()` waits for it). Until the work
 * settles, this process counts the job as running and stamps its row alive every `heartbeatMs`, so a server
 * answering the progress poll elsewhere does not take it for interrupted. `work` must handle its own failures.
 */
export function runJob(
  database: Database,
  tenantId: string,
  id: string,
  work: () => Promise<void>,
  heartbeatMs = HEARTBEAT_INTERVAL_MS,
): Promise<void> {
  runningHere.add(id);
  let beat: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    // A beat still waiting (for a long transaction on the embedded database) is enough.
    beat ??= database
      .tenantTx(tenantId, (tx) => updateJob(tx, tenantId, id, {}))
      .catch((error: unknown) => console.error('could not record that a job is alive', error))
      .finally(() => {
        beat = null;
      });
  }, heartbeatMs);
  timer.unref();
  const done = work().finally(async () => {
    clearInterval(timer);
    runningHere.delete(id);
    await beat;
  });
  database.background(done);
  return done;
}

/**
 * A job of this kind, for its progress poll. A job still marked running whose server has gone silent is settled
 * first as failed, with the row error `jobs.interrupted`, so the browser stops waiting and says what happened.
 * Another kind's or another tenant's id is not found.
 */
export async function findJob(tx: Tx, tenantId: string, kind: ImportKind, id: string) {
  const here = and(eq(importJobs.tenantId, tenantId), eq(importJobs.kind, kind), eq(importJobs.id, id));
  if (runningHere.has(id)) {
    const [row] = await tx.select().from(importJobs).where(here).limit(1);
    return row ?? null;
  }
  const [interrupted] = await tx
    .update(importJobs)
    .set({
      status: 'failed',
      finishedAt: sql`now()`,
      errorCount: sql`${importJobs.errorCount} + 1`,
      errors: sql`${importJobs.errors} || ${JSON.stringify([INTERRUPTED])}::jsonb`,
    })
    .where(
      and(
        here,
        eq(importJobs.status, 'running'),
        sql`${importJobs.heartbeatAt} < now() - make_interval(secs => ${JOB_STALE_AFTER_SECONDS})`,
      ),
    )
    .returning();
  if (interrupted) return interrupted;
  const [row] = await tx.select().from(importJobs).where(here).limit(1);
  return row ?? null;
}

/** The row error of a job its server stopped running. */
const INTERRUPTED: ImportRowError = { row: 0, field: 'job', message: 'jobs.interrupted' };

/**
 * The row errors of a job whose change the policy-test guard refused (`policy_tests_failed`), or null for any
 * other failure: first the job's reason (`jobs.policyTestsFailed`), then one per broken test with the test's
 * name as its field (`jobs.policyTestBroken`). Jobs that write batch by batch stop at the refused batch: it
 * saved nothing, the batches before it stay.
 */
export function policyTestErrors(error: unknown): ImportRowError[] | null {
  if (!(error instanceof AppError) || error.code !== 'policy_tests_failed') return null;
  const failures = (error.failures ?? []) as PolicyTestFailure[];
  return [
    { row: 0, field: 'job', message: 'jobs.policyTestsFailed' },
    ...failures.map((failure) => ({ row: 0, field: failure.name, message: 'jobs.policyTestBroken' })),
  ];
}

/** How many row errors a job keeps (and answers); the count goes on beyond. */
export const MAX_KEPT_ERRORS = 1000;

/** The row errors of an import: the first {@link MAX_KEPT_ERRORS} kept, all counted, bad lines remembered. */
export class RowErrors {
  readonly kept: ImportRowError[] = [];
  readonly lines = new Set<number>();
  count = 0;

  add(row: number, field: string, message: string): void {
    this.count++;
    this.lines.add(row);
    if (this.kept.length < MAX_KEPT_ERRORS) this.kept.push({ row, field, message });
  }

  /** The kept errors in line order. */
  sorted(): ImportRowError[] {
    return [...this.kept].sort((a, b) => a.row - b.row);
  }
}

/** What an import's work receives: its job id and a way to record progress. */
export interface RunningJob {
  id: string;
  update: (values: JobChange) => Promise<void>;
  /**
   * Call with the count of rows read so far, once per row, while reading a file: now and then lets other
   * requests through (the embedded database shares this thread).
   */
  pace: (rowsRead: number) => Promise<void>;
}

/** While reading a file, a job yields to other requests every this many rows. */
const YIELD_ROWS = 500;

/**
 * Starts an import job and answers it at once; `run` processes the rows afterwards (`done` settles when it
 * has). A failure of `run` marks the job failed: a file the parser cannot read as the uploader's problem,
 * anything else as ours (logged).
 */
export async function startImportJob(
  database: Database,
  ctx: Ctx,
  kind: ImportKind,
  options: { mode: ImportMode; isDryRun: boolean },
  run: (job: RunningJob) => Promise<void>,
) {
  const tenantId = ctx.tenant.id;
  const row = await database.tenantTx(tenantId, (tx) =>
    insertJob(tx, { tenantId, kind, mode: options.mode, isDryRun: options.isDryRun, actorId: ctx.actor.id }),
  );
  const update = async (values: JobChange) => {
    await database.tenantTx(tenantId, (tx) => updateJob(tx, tenantId, row.id, values));
  };
  const pace = async (rowsRead: number) => {
    if (rowsRead % YIELD_ROWS === 0) await nextTurn();
  };
  const work = () =>
    run({ id: row.id, update, pace }).catch(async (error: unknown) => {
      const isUnreadable = isCsvError(error);
      if (!isUnreadable) console.error(`${kind} import failed`, error);
      await update({
        status: 'failed',
        finishedAt: new Date(),
        errors: [{ row: 0, field: 'file', message: isUnreadable ? 'validation.csvUnreadable' : 'error.7' }],
        errorCount: 1,
      }).catch((markError: unknown) => console.error(`could not mark the ${kind} import failed`, markError));
    });
  return { job: presentJob(row), done: runJob(database, tenantId, row.id, work) };
}

/** Thrown to roll a dry run's transaction back once it has done everything; carries what it did. */
class DryRunDone<T> extends Error {
  constructor(readonly result: T) {
    super('dry run: rolled back');
  }
}

/**
 * Runs `work` in a transaction opened by `transaction` and rolls it back at the end, answering what `work`
 * answered: an import's dry run does exactly what the import would, and keeps none of it.
 */
export async function rolledBack<T>(
  transaction: (fn: (tx: Tx) => Promise<never>) => Promise<unknown>,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  try {
    await transaction(async (tx) => {
      throw new DryRunDone(await work(tx));
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.result as T;
    throw error;
  }
  throw new Error('a dry run must not commit');
}

/** An import job of this kind, for the progress poll; another kind's or another tenant's id is not found. */
export async function getImportJob(database: Database, ctx: Ctx, kind: ImportKind, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => findJob(tx, ctx.tenant.id, kind, id));
  if (!row) throw notFound('Import');
  return presentJob(row);
}

/** Appends a batch's changed users to a bulk job's `changedIds` (a value for {@link updateJob}). */
export const appendChangedIds = (ids: string[]) => sql`${importJobs.changedIds} || ${pgArray(ids, 'uuid')}`;

/**
 * Locks a completed bulk change for its undo (`for update`, so a second undo waits and then sees `undoneBy`);
 * answers the users it changed, or null when there is no such completed job.
 */
export async function lockForUndo(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select({ changedIds: importJobs.changedIds, undoneBy: importJobs.undoneBy })
    .from(importJobs)
    .where(
      and(
        eq(importJobs.tenantId, tenantId),
        eq(importJobs.kind, 'userBulk'),
        eq(importJobs.id, id),
        eq(importJobs.status, 'completed'),
      ),
    )
    .for('update');
  return row ?? null;
}

/** Marks a bulk change as undone by the job `undoneBy`. */
export async function markUndone(tx: Tx, tenantId: string, id: string, undoneBy: string) {
  await tx
    .update(importJobs)
    .set({ undoneBy })
    .where(and(eq(importJobs.tenantId, tenantId), eq(importJobs.id, id)));
}
