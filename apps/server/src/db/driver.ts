/**
 * What the two drivers (node-postgres, PGlite) hand over and the code would otherwise pick apart by hand: their
 * errors, and arrays.
 *
 * Errors: both drivers throw a `DatabaseError` carrying the SQLSTATE (`code`), the `severity` and, for a
 * constraint violation, the `constraint`, `table` and `detail`. A query through drizzle throws drizzle's
 * `DrizzleQueryError` (its own message, no code) with the driver's error as its `cause`; a raw script (the
 * migrations) throws the driver's error itself. {@link pgError} finds it either way.
 *
 * Arrays: a JS array given as one bound parameter ({@link pgArray}) is serialised by the driver (node-postgres'
 * `prepareValue`, PGlite's serialiser for the parameter's type), with the quoting, backslash escapes and NULLs
 * of the array syntax done right — never build a `{a,b}` literal by joining items, which breaks on an item with a
 * comma, a quote, a backslash, braces or the text NULL. Arrays in results need no parsing: both drivers parse
 * `text[]`, `uuid[]`, `integer[]`, `jsonb[]` (and so `array_agg` of those) into JS arrays. Only arrays of types
 * they do not parse arrive as the `{…}` text: arrays of timestamps, dates, intervals and numerics (drizzle keeps
 * those raw on purpose) and of enums; select such a column `::text[]` to get a JS array (driver.test.ts holds
 * the drivers to all this).
 */
import { type SQL, sql } from 'drizzle-orm';

/** SQLSTATE of a unique (or primary-key) violation. */
export const UNIQUE_VIOLATION = '23505';

/** What the code looks at of a driver's error. */
export interface PgError {
  /** The SQLSTATE, e.g. `23505`. */
  code: string;
  /** The constraint (or unique index) a violation broke, when PostgreSQL names one. */
  constraint?: string;
  /** The table of a violation. */
  table?: string;
  /** PostgreSQL's detail line, e.g. `Key (name)=(x) already exists.` */
  detail?: string;
}

/** How deep a wrapper chain is followed (drizzle wraps once; an error rethrown with a `cause` adds one). */
const MAX_DEPTH = 5;
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * A driver error: a five-character SQLSTATE `code` and a `severity` (what both drivers' `DatabaseError` carry). An
 * application error's `code` (`conflict`) or a socket's (`EPIPE`, which has five letters) is not one.
 */
function asPgError(value: unknown): PgError | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, severity, constraint, table, detail } = value as Record<string, unknown>;
  if (typeof code !== 'string' || !SQLSTATE.test(code) || typeof severity !== 'string') return null;
  return {
    code,
    ...(typeof constraint === 'string' ? { constraint } : {}),
    ...(typeof table === 'string' ? { table } : {}),
    ...(typeof detail === 'string' ? { detail } : {}),
  };
}

/** The database's error behind `error` (itself, or a `cause` of the wrappers around it), or null. */
export function pgError(error: unknown): PgError | null {
  let e = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof e === 'object' && e !== null; depth++) {
    const found = asPgError(e);
    if (found) return found;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The SQLSTATE of the database's error behind `error`, or null for any other error. */
export const pgErrorCode = (error: unknown): string | null => pgError(error)?.code ?? null;

/** The constraint a unique violation broke (`''` when PostgreSQL names none), or null for any other error. */
export function uniqueViolationConstraint(error: unknown): string | null {
  const found = pgError(error);
  return found?.code === UNIQUE_VIOLATION ? (found.constraint ?? '') : null;
}

/** Whether `error` is a unique violation, of the constraint (or unique index) named `constraint` if given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const broken = uniqueViolationConstraint(error);
  return broken !== null && (constraint === undefined || broken === constraint);
}

/** The element types {@link pgArray} casts to (a closed list: the name goes into the SQL text). */
export type PgArrayType = 'text' | 'uuid' | 'integer' | 'bigint' | 'timestamptz' | 'jsonb';

/**
 * `items` as one bound parameter of type `type[]`: `= any(${pgArray(ids, 'uuid')})`, `unnest(${pgArray(…)})`. A
 * statement over 5 000 ids carries one value, not 5 000 placeholders; the driver writes the array literal (quotes,
 * escapes, NULL for null). Strings, numbers and null; a `jsonb[]` takes each element's JSON text.
 */
export function pgArray(items: readonly (string | number | null)[], type: PgArrayType): SQL {
  return sql`${sql.param(items)}::${sql.raw(type)}[]`;
}
