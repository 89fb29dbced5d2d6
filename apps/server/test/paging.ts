import { expect } from 'vitest';
import type { Fixture } from './helper';

/** What a keyset page answers (the contract's `KeysetPage`), as far as the paging tests read it. */
export interface KeysetPageBody {
  items: Array<{ id: string }>;
  total: number | null;
  totalIsEstimate: boolean;
  nextCursor: string | null;
}

/**
 * Reads a large list to its end by following `nextCursor` from the first page of `url` (which carries the
 * list's query, `limit` included); returns the ids in the order the pages showed them. Fails on any non-200
 * and on a loop (more pages than `maxPages`).
 */
export async function idsByCursor(
  f: Fixture,
  url: string,
  headers: Record<string, string>,
  maxPages = 100,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const res = await f.app.inject({
      url: cursor ? `${url}&withTotal=false&cursor=${cursor}` : url,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as KeysetPageBody;
    ids.push(...body.items.map((item) => item.id));
    cursor = body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error(`${url}: still a next page after ${maxPages} pages`);
}
