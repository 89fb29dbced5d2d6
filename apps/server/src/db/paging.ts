/**
 * Paging the large lists (end users, groups, group members, the admin event log) at a cost that stays flat as a
 * tenant grows: counts that stop at {@link EXACT_COUNT_LIMIT} and estimate beyond it, and keyset cursors that
 * continue after a row's sort key instead of skipping rows with OFFSET.
 */
import { EXACT_COUNT_LIMIT } from '@palisade/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { invalid } from '../lib/errors';
import { queryRows, type Tx } from './client';

/** A page's total as the contract's `KeysetPage` carries it. */
export interface PageTotal {
  total: number | null;
  totalIsEstimate: boolean;
}

/**
 * How many rows `from` (a `from … where …` fragment) yields: counted exactly up to {@link EXACT_COUNT_LIMIT},
 * beyond that the planner's estimate (at least one more than the limit), flagged as such. Counting 100 000 rows
 * exactly is what made the first page of a large list slow; an index probe and a plan cost the same at any size.
 */
export async function countUpToLimit(tx: Tx, from: SQL, limit = EXACT_COUNT_LIMIT): Promise<PageTotal> {
  const [counted] = await queryRows<{ n: number | string }>(
    tx,
    sql`select count(*) as n from (select 1 ${from} limit ${limit + 1}) counted`,
  );
  const exact = Number(counted?.n ?? 0);
  if (exact <= limit) return { total: exact, totalIsEstimate: false };
  const [plan] = await queryRows<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
    tx,
    sql`explain (format json) select 1 ${from}`,
  );
  const estimate = Math.round(Number(plan?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0));
  return { total: Math.max(limit + 1, estimate), totalIsEstimate: true };
}

/**
 * The total of a page, counting only when it has to: not when the client asked for none, and not when the page
 * itself shows where the list ends (fewer rows than asked for, at a known offset).
 */
export async function pageTotal(
  tx: Tx,
  from: SQL,
  page: {
    withTotal?: 'true' | 'false';
    offset: number;
    cursor?: string;
    rows: number;
    limit: number;
    /** Count every row however many (for callers whose answer has no estimate flag). */
    isExact?: boolean;
  },
): Promise<PageTotal> {
  if (page.withTotal === 'false') return { total: null, totalIsEstimate: false };
  const isOffsetKnown = page.cursor === undefined;
  if (isOffsetKnown && page.rows < page.limit && (page.rows > 0 || page.offset === 0)) {
    return { total: page.offset + page.rows, totalIsEstimate: false };
  }
  if (page.isExact) {
    const [counted] = await queryRows<{ n: number | string }>(tx, sql`select count(*) as n ${from}`);
    return { total: Number(counted?.n ?? 0), totalIsEstimate: false };
  }
  return countUpToLimit(tx, from);
}

const badCursor = () => invalid([{ path: 'query.cursor', message: 'validation.invalid' }]);

/**
 * A cursor after a row: the sort it belongs to and the row's sort key (values as text, so timestamps keep their
 * microseconds), as base64url JSON. Opaque to clients.
 */
export function encodeCursor(sort: string, order: 'asc' | 'desc', key: readonly string[]): string {
  return Buffer.from(JSON.stringify([sort, order, ...key])).toString('base64url');
}

/**
 * The sort key in `cursor`, checked against the sort and order of the request and the key's length; a cursor
 * made for another sort or order, or not made here, is a 400 on `query.cursor`.
 */
export function decodeCursor(
  cursor: string,
  sort: string,
  order: 'asc' | 'desc',
  keyLength: number,
): string[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== keyLength + 2 ||
    decoded[0] !== sort ||
    decoded[1] !== order ||
    !decoded.every((part) => typeof part === 'string')
  ) {
    throw badCursor();
  }
  return decoded.slice(2) as string[];
}

/**
 * `(columns) > (values)` for an ascending order, `<` for descending: the rows after the cursor's in an order
 * over `columns` (all in the same direction, the last one unique). Each value is cast like its column.
 */
export function afterKey(columns: SQL[], values: SQL[], order: 'asc' | 'desc'): SQL {
  const left = sql.join(columns, sql`, `);
  const right = sql.join(values, sql`, `);
  return order === 'asc' ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
}
