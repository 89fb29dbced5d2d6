import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  AUDIT_AREAS,
  AUDIT_OBJECT_TYPES,
  auditArea,
  auditCount,
  auditCountName,
} from './audit';
import { USER_BULK_JOB_ACTIONS } from './user-bulk';

describe('audit constants', () => {
  it('list each action and object type once, every bulk job action among the actions', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    expect(new Set(AUDIT_OBJECT_TYPES).size).toBe(AUDIT_OBJECT_TYPES.length);
    for (const action of USER_BULK_JOB_ACTIONS) expect(AUDIT_ACTIONS).toContain(`user.bulk.${action}`);
    expect(AUDIT_AREAS).toContain('policyGroup');
    expect(auditArea('policy.feed.create')).toBe('policy');
    expect(auditArea('custom')).toBe('custom');
  });

  it('word counts of users and groups, and read them back from old and new object names', () => {
    expect(auditCountName(1, 'user')).toBe('1 user');
    expect(auditCountName(0, 'user')).toBe('0 users');
    expect(auditCountName(2, 'group')).toBe('2 groups');
    expect(auditCount({ action: 'user.bulk.delete', objectName: '1 users' })).toEqual({
      count: 1,
      noun: 'user',
    });
    expect(auditCount({ action: 'user.import', objectName: '1200 users' })).toEqual({
      count: 1200,
      noun: 'user',
    });
    expect(auditCount({ action: 'group.import', objectName: '3 groups' })).toEqual({
      count: 3,
      noun: 'group',
    });
    expect(auditCount({ action: 'user.create', objectName: '2 users' })).toBeNull();
    expect(auditCount({ action: 'user.bulk.delete', objectName: null })).toBeNull();
  });
});
