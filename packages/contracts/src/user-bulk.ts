import { z } from 'zod';
import { Uuid } from './common';
import { endpoint } from './endpoint';
import { ImportJob, ImportQuery } from './imports';
import { TenantParams } from './tenants';
import { MAX_STATUS_REASON, USER_SORTS } from './users';

/** Bulk changes to many end users at once (ids of one page or of a whole search). */
export const USER_BULK_ACTIONS = [
  'enablePrivateAccess',
  'disablePrivateAccess',
  'enableInternetAccess',
  'disableInternetAccess',
  'enableXdr',
  'disableXdr',
  'addToGroup',
  'removeFromGroup',
  'disable',
  'enable',
] as const;
export type UserBulkAction = (typeof USER_BULK_ACTIONS)[number];

/**
 * Which end users a bulk change covers when it is not a list of ids: every end user (usertype 0) of the tenant
 * whose username, name or e-mail contains `q` — the same match as the users list's search. `{}` (or an empty
 * `q`) is every end user of the tenant. Unknown keys are refused, so a misspelt filter never means "everyone".
 */
export const UserMatch = z.strictObject({ q: z.string().trim().max(200).optional() });
export type UserMatch = z.infer<typeof UserMatch>;

/** The most ids one request may list; larger selections are sent as a `match`. */
export const MAX_BULK_IDS = 10_000;

const BulkIds = z
  .array(Uuid)
  .min(1, { message: 'validation.required' })
  .max(MAX_BULK_IDS, { message: 'validation.tooMany' });

/** Exactly one of `ids` and `match`; the issue sits on `ids` either way. */
const hasOneSelection = (v: { ids?: unknown; match?: unknown }) =>
  (v.ids === undefined) !== (v.match === undefined);
const ONE_SELECTION = { message: 'validation.idsOrMatch', path: ['ids'] };

export const UserBulkInput = z
  .object({
    /** The users of a page's selection. */
    ids: BulkIds.optional(),
    /** Or every user matching a search. */
    match: UserMatch.optional(),
    action: z.enum(USER_BULK_ACTIONS),
    groupId: Uuid.optional(),
    /** Why the accounts are disabled: required by `disable`, kept on each user (as a single disable keeps it). */
    reason: z.string().trim().max(MAX_STATUS_REASON, { message: 'validation.tooLong' }).optional(),
  })
  .refine(hasOneSelection, ONE_SELECTION)
  .refine((v) => !v.action.endsWith('Group') || v.groupId, {
    message: 'validation.required',
    path: ['groupId'],
  })
  .refine((v) => v.action !== 'disable' || (v.reason ?? '') !== '', {
    message: 'validation.required',
    path: ['reason'],
  });
export type UserBulkInput = z.input<typeof UserBulkInput>;

export const UserBulkDeleteInput = z
  .object({ ids: BulkIds.optional(), match: UserMatch.optional() })
  .refine(hasOneSelection, ONE_SELECTION);
export type UserBulkDeleteInput = z.input<typeof UserBulkDeleteInput>;

/** What a bulk job does: one of the bulk changes, or deleting the users. */
export const USER_BULK_JOB_ACTIONS = [...USER_BULK_ACTIONS, 'delete'] as const;
export type UserBulkJobAction = (typeof USER_BULK_JOB_ACTIONS)[number];

/**
 * The change that undoes each bulk change, applied to exactly the users the change changed (a user whose flag
 * was already set, or who was already in the group, is left as they were). A delete cannot be undone.
 */
export const BULK_UNDO: Record<UserBulkAction, UserBulkAction> = {
  enablePrivateAccess: 'disablePrivateAccess',
  disablePrivateAccess: 'enablePrivateAccess',
  enableInternetAccess: 'disableInternetAccess',
  disableInternetAccess: 'enableInternetAccess',
  enableXdr: 'disableXdr',
  disableXdr: 'enableXdr',
  addToGroup: 'removeFromGroup',
  removeFromGroup: 'addToGroup',
  disable: 'enable',
  enable: 'disable',
};

/**
 * A bulk change or bulk delete. A list of `ids` is applied within the request in one transaction (all or
 * nothing), so its answer is already `completed`. A `match` runs after the answer, batch by batch, each batch
 * in its own transaction: poll the job for `processed`; if it fails, the batches before stay applied
 * (`processed` says how far it got) and sending the same request again finishes the rest. Group changes and
 * deletes are refused when they would break a policy test: a list of ids with 409 `policy_tests_failed`, a
 * match by failing the job at the batch that would (`brokenTests`).
 */
export const UserBulkJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  action: z.enum(USER_BULK_JOB_ACTIONS),
  groupId: z.string().nullable(),
  /** The search the job covers, or null for a list of ids. */
  match: UserMatch.nullable(),
  /** How many end users the selection covered when the job started. */
  matched: z.number().int(),
  /** How many of them were handled so far. */
  processed: z.number().int(),
  /** How many actually changed: a flag set, a membership added or removed, a user deleted. */
  changed: z.number().int(),
  /** The translation key of what went wrong, when `failed`. */
  error: z.string().nullable(),
  /**
   * When the policy-test guard refused a batch (error `jobs.policyTestsFailed`): the names of the policy tests
   * it would have broken. That batch saved nothing; the batches before it stay. Empty otherwise.
   */
  brokenTests: z.array(z.string()),
  /**
   * Whether `POST …/bulk/{id}/undo` can undo it: a completed change (not a delete, not itself an undo) that
   * changed someone and was not undone yet.
   */
  undoable: z.boolean(),
  /** The job that undid this one, once undone. */
  undoneBy: z.string().nullable(),
  /** The job this one undid, when it is an undo. */
  undoOf: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type UserBulkJob = z.infer<typeof UserBulkJob>;

export const UserExportQuery = z.object({
  q: z.string().trim().max(200).optional(),
  sort: z.enum(USER_SORTS).default('username'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

/** Columns of the users CSV, in order; import reads the same header (groups are names joined by `;`). */
export const USER_CSV_COLUMNS = [
  'username',
  'firstname',
  'lastname',
  'email',
  'groups',
  'isprvaccess',
  'issiauser',
  'isxdrenabled',
  'suci',
  'connstatus',
] as const;

export const userBulkEndpoints = {
  bulkUsers: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant/bulk',
    access: 'users:update',
    summary:
      'Change many end users at once: a list of ids, or every user matching a search (answers the job)',
    tags: ['users'],
    params: TenantParams,
    body: UserBulkInput,
    response: UserBulkJob,
    status: 202,
  }),
  bulkDeleteUsers: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant/bulk-delete',
    access: 'users:delete',
    summary: 'Delete many end users: a list of ids, or every user matching a search (answers the job)',
    tags: ['users'],
    params: TenantParams,
    body: UserBulkDeleteInput,
    response: UserBulkJob,
    status: 202,
  }),
  bulkJob: endpoint({
    method: 'GET',
    path: '/subscriber/user/:tenant/bulk/:id',
    access: 'users:view',
    summary: 'Progress of a bulk change or bulk delete',
    tags: ['users'],
    params: TenantParams.extend({ id: Uuid }),
    response: UserBulkJob,
  }),
  undoBulkJob: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant/bulk/:id/undo',
    access: 'users:update',
    summary:
      'Undo a completed bulk change: the opposite change on exactly the users it changed (answers the new job)',
    tags: ['users'],
    params: TenantParams.extend({ id: Uuid }),
    response: UserBulkJob,
    status: 202,
  }),
  exportUsers: endpoint({
    method: 'GET',
    path: '/subscriber/user/:tenant/export',
    access: 'users:view',
    summary: 'All end users matching a search, as CSV',
    tags: ['users'],
    params: TenantParams,
    query: UserExportQuery,
    response: z.string(),
  }),
  importUsers: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant/import',
    access: 'users:create',
    summary: 'Import end users from CSV (text/csv body); answers the job to poll',
    tags: ['users'],
    params: TenantParams,
    query: ImportQuery,
    response: ImportJob,
    status: 202,
  }),
  importJob: endpoint({
    method: 'GET',
    path: '/subscriber/user/:tenant/import/:id',
    access: 'users:create',
    summary: 'Progress and row errors of an import',
    tags: ['users'],
    params: TenantParams.extend({ id: Uuid }),
    response: ImportJob,
  }),
};
