import { ALL_PERMISSIONS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { columnOf, coverage, rowOf, setPermissions } from './permission-set';

describe('permission matrix helpers', () => {
  it('names the cells of a row and of a column', () => {
    expect(rowOf('users')).toEqual(['users:view', 'users:create', 'users:update', 'users:delete']);
    expect(columnOf('view')).toContain('roles:view');
    expect(columnOf('view')).toHaveLength(ALL_PERMISSIONS.length / 4);
  });

  it('turns permissions on and off, keeping matrix order and no duplicates', () => {
    const on = setPermissions(['users:delete'], ['groups:view', 'users:view', 'users:delete'], true);
    expect(on).toEqual(['users:view', 'users:delete', 'groups:view']);
    expect(setPermissions(on, rowOf('users'), false)).toEqual(['groups:view']);
  });

  it('tells none, some or all', () => {
    expect(coverage([], rowOf('users'))).toBe('none');
    expect(coverage(['users:view'], rowOf('users'))).toBe('some');
    expect(coverage(rowOf('users'), rowOf('users'))).toBe('all');
  });
});
