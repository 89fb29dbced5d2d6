import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_STATE, parseListState, toListQuery, toSearchParams } from './list-params';

describe('users list state', () => {
  it('round-trips through the address and leaves defaults out', () => {
    const state = { page: 3, pageSize: 50, sort: 'createdAt', order: 'desc', q: 'ada' } as const;
    const params = toSearchParams(state);
    expect(params.toString()).toBe('q=ada&page=3&size=50&sort=createdAt&order=desc');
    expect(parseListState(params)).toEqual(state);
    expect(toSearchParams(DEFAULT_LIST_STATE).toString()).toBe('');
  });

  it('falls back to defaults for malformed values', () => {
    const params = new URLSearchParams('page=-2&size=33&sort=password&order=sideways');
    expect(parseListState(params)).toEqual(DEFAULT_LIST_STATE);
  });

  it('pages with limit and offset and sends q only when searching', () => {
    expect(toListQuery({ ...DEFAULT_LIST_STATE, page: 3, pageSize: 100, q: '  ' })).toEqual({
      limit: 100,
      offset: 200,
      sort: 'username',
      order: 'asc',
    });
    expect(toListQuery({ ...DEFAULT_LIST_STATE, q: ' bob ' })).toMatchObject({ q: 'bob', offset: 0 });
  });
});
