import { z } from 'zod';

/**
 * CSV imports run as jobs: the upload answers at once with a job, which the browser polls for progress and,
 * once done, the row errors. Shared by every import (end users, groups).
 */

/** all: nothing is saved when any row is bad; valid: the good rows are saved, the bad ones reported. */
export const IMPORT_MODES = ['all', 'valid'] as const;
export const ImportQuery = z.object({ mode: z.enum(IMPORT_MODES).default('all') });

/** A problem in one row: the file's line number (1 is the header), the column, a translation key. */
export const ImportRowError = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  mode: z.enum(IMPORT_MODES),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  /** Existing objects the file changed; only imports that update as well as create (groups) report it. */
  updated: z.number().int().optional(),
  errorCount: z.number().int(),
  /** The first 1 000 row errors. */
  errors: z.array(ImportRowError),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ImportJob>;

/** The largest CSV file an import accepts. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
