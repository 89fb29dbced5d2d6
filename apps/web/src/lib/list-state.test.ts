import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fetchListPage, type KeysetPageData, TOTAL_REUSE_MS } from './list-state';

type Query = { limit?: number; offset?: number; q?: string; cursor?: string; withTotal?: 'true' | 'false' };
const LIST = ['tenant', 'acme', 'users', 'list'] as const;
const key = (query: Query) => [...LIST, query] as const;

const page = (over: Partial<KeysetPageData<{ id: string }>> = {}): KeysetPageData<{ id: string }> => ({
  items: [{ id: 'a' }, { id: 'b' }],
  total: 40,
  totalIsEstimate: false,
  nextCursor: 'after-b',
  ...over,
});

/** Runs fetchListPage with a fake server that records what it was asked and answers `answer`. */
async function fetchWith(client: QueryClient, query: Query, answer = page({ total: null })) {
  const asked: Query[] = [];
  const result = await fetchListPage(client, LIST, query, async (q) => {
    asked.push(q);
    return answer;
  });
  return { asked: asked[0], result };
}

describe('fetchListPage', () => {
  it('asks the first page of a filter with its count, and keeps what the server answers', async () => {
    const client = new QueryClient();
    const { asked, result } = await fetchWith(client, { limit: 2, offset: 0 }, page());
    expect(asked).toEqual({ limit: 2, offset: 0 });
    expect(result).toMatchObject({ total: 40, totalIsEstimate: false, nextCursor: 'after-b' });
  });

  it('turns to the next page after the cached page’s cursor, without a count, keeping the total', async () => {
    const client = new QueryClient();
    client.setQueryData(
      key({ limit: 2, offset: 0, q: 'an' }),
      page({ total: 12_345, totalIsEstimate: true }),
    );
    const { asked, result } = await fetchWith(client, { limit: 2, offset: 2, q: 'an' });
    expect(asked).toEqual({ limit: 2, offset: 2, q: 'an', withTotal: 'false', cursor: 'after-b' });
    expect(result).toMatchObject({ total: 12_345, totalIsEstimate: true });
  });

  it('jumps to a far page by offset, still without a count', async () => {
    const client = new QueryClient();
    client.setQueryData(key({ limit: 2, offset: 0 }), page());
    const { asked } = await fetchWith(client, { limit: 2, offset: 20 });
    expect(asked).toEqual({ limit: 2, offset: 20, withTotal: 'false' });
  });

  it('counts again for another filter, after a change invalidated the list, and once the total is old', async () => {
    const client = new QueryClient();
    client.setQueryData(key({ limit: 2, offset: 0, q: 'an' }), page());
    expect((await fetchWith(client, { limit: 2, offset: 2, q: 'bo' })).asked).toEqual({
      limit: 2,
      offset: 2,
      q: 'bo',
    });

    await client.invalidateQueries({ queryKey: LIST, refetchType: 'none' });
    expect((await fetchWith(client, { limit: 2, offset: 2, q: 'an' })).asked.withTotal).toBeUndefined();

    const stale = new QueryClient();
    stale.setQueryData(key({ limit: 2, offset: 0 }), page(), { updatedAt: Date.now() - TOTAL_REUSE_MS - 1 });
    const { asked } = await fetchWith(stale, { limit: 2, offset: 2 });
    expect(asked.withTotal).toBeUndefined();
    // The cursor does not age: the next page is still the one after the cached page.
    expect(asked.cursor).toBe('after-b');
  });

  it('takes the exact total from the last page, even when the known one was an estimate', async () => {
    const client = new QueryClient();
    client.setQueryData(key({ limit: 2, offset: 0 }), page({ total: 12_000, totalIsEstimate: true }));
    const { result } = await fetchWith(
      client,
      { limit: 2, offset: 2 },
      page({ total: null, items: [{ id: 'c' }], nextCursor: null }),
    );
    expect(result).toMatchObject({ total: 3, totalIsEstimate: false });
  });
});
