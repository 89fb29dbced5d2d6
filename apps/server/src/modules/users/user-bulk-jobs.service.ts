import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  auditCountName,
  BULK_UNDO,
  type UserBulkAction,
  type UserBulkJob,
  type UserBulkJobAction,
  type UserMatch,
} from '@palisade/contracts';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import {
  appendChangedIds,
  findJob,
  insertJob,
  type JobRow,
  lockForUndo,
  markUndone,
  policyTestErrors,
  runJob,
  updateJob,
} from '../../lib/import-jobs';
import { revokeLinksOfUsers } from '../enrolment/enrolment.service';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import { endSessionsOfUsers } from '../session/session.service';
import * as jobs from './user-bulk-jobs.repository';
import * as repo from './users.repository';
import { assertXdrIncluded } from './users.service';

/**
 * Bulk changes and bulk deletes of end users, set-based: the selection is read once as ids ordered by id, then
 * changed {@link BULK_BATCH} users per statement.
 *
 * - A list of `ids` (at most 10 000, one page's selection) runs within the request in ONE transaction: all or
 *   nothing. The answer is the job, already completed.
 * - A `match` (a whole search, up to every end user of the tenant) runs after the answer as a job: one
 *   transaction PER BATCH, and the job row's progress is written in the same transaction as the batch, so the
 *   progress the browser polls is exactly what is committed. It is not all or nothing: if a batch fails, the
 *   batches before it stay applied, the job says `failed` and how many users it processed, and the admin event
 *   records that partial count. Every action is idempotent, so sending the same request again finishes the rest.
 *   Users created after the job started are not part of it; users deleted meanwhile are skipped.
 *
 * Each operation writes one admin event (action, group, search, counts), never a row per user.
 *
 * Group changes and deletes change which policies apply to users, so their transactions go through the
 * policy-test guard: a list of ids that would break a pinned test is refused with 409 `policy_tests_failed`
 * (no job, nothing changed); a match stops at the batch that would, which saves nothing, and the job fails with
 * `jobs.policyTestsFailed` and the broken tests' names. Access flags take no part in a decision.
 *
 * The XDR actions (and the undo of one) need the tenant to have XDR: without it they are refused with 403
 * `feature_disabled` before anything is read or changed (contracts `FEATURE_PARTS.xdr`).
 *
 * Disabling accounts signs the users out and revokes their pending enrolment links in the same transaction,
 * as a single disable does. A completed change keeps the ids it actually changed (written with each batch), so
 * {@link undoBulk} can apply the opposite change to exactly those users, once.
 */
export const BULK_BATCH = 5000;

const FLAG_ACTIONS = {
  enablePrivateAccess: ['isprvaccess', true],
  disablePrivateAccess: ['isprvaccess', false],
  enableInternetAccess: ['issiauser', true],
  disableInternetAccess: ['issiauser', false],
  enableXdr: ['isxdrenabled', true],
  disableXdr: ['isxdrenabled', false],
} as const satisfies Record<
  Exclude<UserBulkAction, 'addToGroup' | 'removeFromGroup' | 'disable' | 'enable'>,
  unknown
>;

/** The actions that change users' XDR flag. */
const isXdrAction = (action: UserBulkJobAction) => action === 'enableXdr' || action === 'disableXdr';

/** What a bulk operation asks for: an action on `ids` or on every user matching `match`. */
export interface BulkRequest {
  action: UserBulkJobAction;
  groupId?: string;
  reason?: string;
  ids?: string[];
  match?: UserMatch;
}

/** What the job row keeps of the request (never the ids). */
interface StoredInput {
  action: UserBulkJobAction;
  groupId: string | null;
  match: UserMatch | null;
  /** Why the accounts were disabled (`disable` only). */
  reason?: string | null;
}

/** What disabling accounts also did, for the bulk event. */
interface Effects {
  endedSessions: number;
  revokedLinks: number;
}

/** Runs a change in one transaction, through the policy-test guard when it changes memberships or users. */
function inTransaction<T>(
  database: Database,
  ctx: Ctx,
  input: StoredInput,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  const isMembershipChange =
    input.action === 'delete' || input.action === 'addToGroup' || input.action === 'removeFromGroup';
  return isMembershipChange
    ? commitPolicyChange(database, ctx, change)
    : database.tenantTx(ctx.tenant.id, change);
}

/** Changes one batch; answers the users that actually changed. */
async function applyBatch(
  tx: Tx,
  ctx: Ctx,
  input: StoredInput,
  ids: string[],
  effects: Effects,
): Promise<string[]> {
  const tenantId = ctx.tenant.id;
  const { action, groupId } = input;
  if (action === 'delete') return jobs.deleteUsers(tx, tenantId, ids);
  if (action === 'addToGroup') return jobs.addToGroup(tx, tenantId, ids, groupId as string);
  if (action === 'removeFromGroup') return jobs.removeFromGroup(tx, tenantId, ids, groupId as string);
  if (action === 'disable' || action === 'enable') {
    const isDisabled = action === 'disable';
    const changed = await jobs.setStatus(tx, tenantId, ids, {
      isDisabled,
      reason: isDisabled ? (input.reason ?? null) : null,
      by: ctx.actor.username,
    });
    if (isDisabled) {
      effects.endedSessions += await endSessionsOfUsers(tx, tenantId, changed);
      effects.revokedLinks += await revokeLinksOfUsers(tx, tenantId, changed);
    }
    return changed;
  }
  const [column, value] = FLAG_ACTIONS[action];
  return jobs.setFlag(tx, tenantId, ids, column, value);
}

/** The ids a job keeps for its undo: none for a delete (it cannot be undone). */
const keptIds = (input: StoredInput, changed: string[]) => (input.action === 'delete' ? [] : changed);

export function presentBulkJob(row: JobRow): UserBulkJob {
  const input = row.input as StoredInput;
  const errors = row.errors as Array<{ field: string; message: string }>;
  const [firstError] = errors;
  return {
    id: row.id,
    status: row.status,
    action: input.action,
    groupId: input.groupId,
    match: input.match,
    matched: row.total,
    processed: row.processed,
    changed: row.updated,
    error: firstError?.message ?? null,
    brokenTests: errors.filter((e) => e.message === 'jobs.policyTestBroken').map((e) => e.field),
    // An undo is not undone in turn: the change can be made again.
    undoable:
      row.status === 'completed' &&
      input.action !== 'delete' &&
      row.updated > 0 &&
      row.undoneBy === null &&
      row.undoOf === null,
    undoneBy: row.undoneBy,
    undoOf: row.undoOf,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The most users one bulk event names (a selection may hold 10 000); the counts give the total. */
const MAX_LOGGED_USERS = 1000;

/**
 * The one admin event of a bulk operation: what, on which search, and how many. Users and the group are named
 * (as they were named then), not given by id: the log is read by people, and a deleted user has no name later.
 */
async function recordBulkEvent(
  tx: Tx,
  ctx: Ctx,
  jobId: string,
  input: StoredInput,
  counts: { matched: number; processed: number; changed: number; status: 'completed' | 'failed' },
  extra: { usernames?: string[]; effects?: Effects; undoOf?: string } = {},
) {
  const { groupId, reason, ...rest } = input;
  const { usernames, effects, undoOf } = extra;
  const groupName = groupId
    ? (await repo.groupNamesById(tx, ctx.tenant.id, [groupId])).get(groupId)
    : undefined;
  return recordEvent(tx, ctx, {
    action: `user.bulk.${input.action}`,
    objectType: 'user',
    objectId: jobId,
    objectName: auditCountName(counts.changed, 'user'),
    after: {
      ...rest,
      ...(groupId ? { group: { id: groupId, name: groupName ?? groupId } } : {}),
      ...(reason ? { reason } : {}),
      ...counts,
      ...(input.action === 'disable' && effects ? effects : {}),
      ...(undoOf ? { undoOf } : {}),
      // A page's selection is small enough to name; a search is named by its text.
      ...(usernames ? { users: usernames } : {}),
    },
  });
}

async function checkGroup(tx: Tx, ctx: Ctx, input: StoredInput) {
  if (input.action !== 'addToGroup' && input.action !== 'removeFromGroup') return;
  const groupId = input.groupId as string;
  const found = await repo.existingGroupIds(tx, ctx.tenant.id, [groupId]);
  if (!found.has(groupId)) throw invalid([{ path: 'body.groupId', message: 'validation.unknownGroup' }]);
}

/**
 * Starts a bulk operation and answers its job: completed for a list of ids, running for a match (`done`
 * settles when the job has finished, failed or not).
 */
export async function startBulk(
  database: Database,
  ctx: Ctx,
  request: BulkRequest,
): Promise<{ job: UserBulkJob; done: Promise<void> }> {
  if (isXdrAction(request.action)) await assertXdrIncluded(database, ctx.tenant);
  const tenantId = ctx.tenant.id;
  const isGroupAction = request.action === 'addToGroup' || request.action === 'removeFromGroup';
  const q = request.match?.q?.trim();
  const input: StoredInput = {
    action: request.action,
    groupId: isGroupAction ? (request.groupId ?? null) : null,
    match: request.match ? (q ? { q } : {}) : null,
    ...(request.action === 'disable' ? { reason: request.reason?.trim() || null } : {}),
  };

  if (request.ids) {
    const requested = [...new Set(request.ids)];
    const job = await inTransaction(database, ctx, input, (tx) => applyToIds(tx, ctx, input, requested));
    return { job: presentBulkJob(job), done: Promise.resolve() };
  }

  const { row, ids } = await database.tenantTx(tenantId, async (tx) => {
    await checkGroup(tx, ctx, input);
    const matching = await jobs.matchingIds(tx, tenantId, q);
    const inserted = await insertJob(tx, {
      kind: 'userBulk',
      tenantId,
      mode: 'valid',
      actorId: ctx.actor.id,
      total: matching.length,
      input,
    });
    return { row: inserted, ids: matching };
  });
  const done = runJob(database, tenantId, row.id, () => runBatches(database, ctx, row.id, input, ids));
  return { job: presentBulkJob(row), done };
}

/**
 * Applies a change to a list of ids within the caller's transaction (all or nothing) and answers the completed
 * job row. `undoOf` names the job this one undoes.
 */
async function applyToIds(
  tx: Tx,
  ctx: Ctx,
  input: StoredInput,
  requested: string[],
  undoOf?: string,
): Promise<JobRow> {
  const tenantId = ctx.tenant.id;
  await checkGroup(tx, ctx, input);
  const ids = await jobs.existingIds(tx, tenantId, requested);
  // Named before the change: a delete leaves nobody to name.
  const usernames = await jobs.usernames(tx, tenantId, ids.slice(0, MAX_LOGGED_USERS));
  const row = await insertJob(tx, {
    kind: 'userBulk',
    tenantId,
    mode: 'all',
    actorId: ctx.actor.id,
    total: ids.length,
    input,
    undoOf: undoOf ?? null,
  });
  const effects: Effects = { endedSessions: 0, revokedLinks: 0 };
  const changed: string[] = [];
  for (let i = 0; i < ids.length; i += BULK_BATCH) {
    changed.push(...(await applyBatch(tx, ctx, input, ids.slice(i, i + BULK_BATCH), effects)));
  }
  const counts = {
    matched: ids.length,
    processed: ids.length,
    changed: changed.length,
    status: 'completed' as const,
  };
  await recordBulkEvent(tx, ctx, row.id, input, counts, { usernames, effects, undoOf });
  const finished = await updateJob(tx, tenantId, row.id, {
    status: 'completed',
    processed: ids.length,
    updated: changed.length,
    changedIds: keptIds(input, changed),
    finishedAt: new Date(),
  });
  // Inserted running in this very transaction, so the update always finds it.
  if (!finished) throw new Error('the bulk job row was not found in its own transaction');
  return finished;
}

/** Works through the snapshot batch by batch; each batch and its progress commit together. */
async function runBatches(database: Database, ctx: Ctx, jobId: string, input: StoredInput, ids: string[]) {
  const tenantId = ctx.tenant.id;
  const matched = ids.length;
  const effects: Effects = { endedSessions: 0, revokedLinks: 0 };
  let processed = 0;
  let changed = 0;
  try {
    // A search that matches nobody still finishes (and is logged) through the loop's one empty batch.
    for (let start = 0; start === 0 || start < matched; start += BULK_BATCH) {
      const batch = ids.slice(start, start + BULK_BATCH);
      const isLast = start + BULK_BATCH >= matched;
      const batchChanged = await inTransaction(database, ctx, input, async (tx) => {
        const changedIds = batch.length > 0 ? await applyBatch(tx, ctx, input, batch, effects) : [];
        const after = {
          processed: processed + batch.length,
          updated: changed + changedIds.length,
          changedIds: appendChangedIds(keptIds(input, changedIds)),
        };
        if (isLast) {
          const counts = {
            matched,
            processed: after.processed,
            changed: after.updated,
            status: 'completed' as const,
          };
          await recordBulkEvent(tx, ctx, jobId, input, counts, { effects });
          await updateJob(tx, tenantId, jobId, { ...after, status: 'completed', finishedAt: new Date() });
        } else {
          await updateJob(tx, tenantId, jobId, after);
        }
        return changedIds.length;
      });
      processed += batch.length;
      changed += batchChanged;
      // The embedded database shares this thread: let other requests (progress polls) through.
      await nextTurn();
    }
  } catch (error) {
    const refused = policyTestErrors(error);
    if (!refused) console.error('bulk change of users failed', error);
    const errors = refused ?? [{ row: 0, field: 'job', message: 'error.7' }];
    await database
      .tenantTx(tenantId, async (tx) => {
        const counts = { matched, processed, changed, status: 'failed' as const };
        await recordBulkEvent(tx, ctx, jobId, input, counts, { effects });
        await updateJob(tx, tenantId, jobId, {
          status: 'failed',
          processed,
          updated: changed,
          errorCount: errors.length,
          errors,
          finishedAt: new Date(),
        });
      })
      .catch((markError: unknown) => console.error('could not mark the bulk job failed', markError));
  }
}

/** A bulk job that cannot be undone (a delete, a failed or running job, one undone already, no change). */
const notUndoable = () =>
  new AppError('conflict', 'This bulk change cannot be undone.', [
    { path: 'params.id', message: 'validation.bulkNotUndoable' },
  ]);

/**
 * Undoes a completed bulk change: the opposite change (enable for disable, remove for add…) on exactly the users
 * it changed, in one transaction, answered as the new completed job. The job row is locked and marked undone in
 * the same transaction, so two undos of one change never both run. Re-enabling restores access, not the
 * sessions a disable ended. Group changes go through the policy-test guard like any membership change.
 */
export async function undoBulk(database: Database, ctx: Ctx, id: string): Promise<UserBulkJob> {
  const tenantId = ctx.tenant.id;
  const original = await database.tenantTx(tenantId, (tx) => findJob(tx, tenantId, 'userBulk', id));
  if (!original) throw notFound('Bulk job');
  const before = original.input as StoredInput;
  if (!presentBulkJob(original).undoable || before.action === 'delete') throw notUndoable();
  if (isXdrAction(before.action)) await assertXdrIncluded(database, ctx.tenant);
  const input: StoredInput = {
    action: BULK_UNDO[before.action],
    groupId: before.groupId,
    match: null,
    ...(before.action === 'enable' ? { reason: null } : {}),
  };
  const job = await inTransaction(database, ctx, input, async (tx) => {
    const locked = await lockForUndo(tx, tenantId, id);
    if (!locked || locked.undoneBy !== null) throw notUndoable();
    const undo = await applyToIds(tx, ctx, input, locked.changedIds, id);
    await markUndone(tx, tenantId, id, undo.id);
    return undo;
  });
  return presentBulkJob(job);
}

export async function getBulkJob(database: Database, ctx: Ctx, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => findJob(tx, ctx.tenant.id, 'userBulk', id));
  if (!row) throw notFound('Bulk job');
  return presentBulkJob(row);
}
