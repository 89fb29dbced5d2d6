import type { LocalControlsView } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { controlsWith, fieldErrorsOf, isSameList } from './controls';

const t = ((key: string) => `t:${key}`) as unknown as TFunction;

const VIEW: LocalControlsView = {
  gatewayId: 'g1',
  name: 'Berlin office',
  policyIds: ['p1'],
  policies: [],
  categories: ['gambling'],
  countries: ['RU'],
  feeds: ['abuse-ch'],
  updatedAt: null,
};

const refusal = (details: { path: string; message: string }[]) =>
  new ApiError(400, { errcode: 2, code: 'validation_failed', message: 'Invalid input.', details });

describe('local controls', () => {
  it('replaces only the edited list and keeps the others as loaded', () => {
    expect(controlsWith(VIEW, 'countries', ['KP'])).toEqual({
      policyIds: ['p1'],
      categories: ['gambling'],
      countries: ['KP'],
      feeds: ['abuse-ch'],
    });
  });

  it('compares lists regardless of order', () => {
    expect(isSameList(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(isSameList(['a'], ['a', 'b'])).toBe(false);
  });

  it('puts the details of the edited list on the list and on the entries that were sent', () => {
    const error = refusal([
      { path: 'body.policyIds', message: 'validation.maxLocalPolicies' },
      { path: 'body.policyIds.1', message: 'validation.qosNotLocal' },
      { path: 'body.feeds.0', message: 'validation.unknownFeed' },
    ]);
    expect(fieldErrorsOf(error, 'policyIds', ['p1', 'p2'], t)).toEqual({
      list: 't:validation.maxLocalPolicies',
      items: { p2: 't:validation.qosNotLocal' },
    });
    expect(fieldErrorsOf(error, 'categories', ['gambling'], t)).toBeNull();
    expect(fieldErrorsOf(new Error('network'), 'feeds', [], t)).toBeNull();
  });
});
