import { z } from 'zod';
import { Uuid } from './common';
import { endpoint } from './endpoint';
import { TenantParams } from './tenants';
import { USER_SORTS } from './users';

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
] as const;
export type UserBulkAction = (typeof USER_BULK_ACTIONS)[number];

export const UserBulkInput = z
  .object({
    ids: z
      .array(Uuid)
      .min(1, { message: 'validation.required' })
      .max(10_000, { message: 'validation.tooMany' }),
    action: z.enum(USER_BULK_ACTIONS),
    groupId: Uuid.optional(),
  })
  .refine((v) => !v.action.endsWith('Group') || v.groupId, {
    message: 'validation.required',
    path: ['groupId'],
  });
export type UserBulkInput = z.input<typeof UserBulkInput>;

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

/** all: nothing is created when any row is bad; valid: the good rows are created, the bad ones reported. */
export const IMPORT_MODES = ['all', 'valid'] as const;
export const ImportQuery = z.object({ mode: z.enum(IMPORT_MODES).default('all') });

export const ImportRowError = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  mode: z.enum(IMPORT_MODES),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  errorCount: z.number().int(),
  /** The first 1 000 row errors. */
  errors: z.array(ImportRowError),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ImportJob>;

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export const userBulkEndpoints = {
  bulkUsers: endpoint({
    method: 'POST',
    path: '/subscriber/user/:tenant/bulk',
    access: 'users:update',
    summary: 'Change many end users at once',
    tags: ['users'],
    params: TenantParams,
    body: UserBulkInput,
    response: z.object({ updated: z.number().int() }),
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
