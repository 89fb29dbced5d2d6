import { describe, expect, it } from 'vitest';
import { parseRolesState, toRolesSearchParams } from './assignment-params';

describe('roles screen address state', () => {
  it('defaults to the roles tab and ignores malformed values', () => {
    expect(parseRolesState(new URLSearchParams('tab=nope&page=-2&size=7'))).toEqual({
      tab: 'roles',
      page: 1,
      pageSize: 25,
      q: '',
    });
  });

  it('round-trips the assignments tab with its search and page', () => {
    const state = parseRolesState(new URLSearchParams('tab=assignments&q=ada&page=3&size=50'));
    expect(toRolesSearchParams(state).toString()).toBe('tab=assignments&q=ada&page=3&size=50');
  });
});
