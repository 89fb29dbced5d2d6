import { HOME_PATH } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { returnPath } from './redirect';

describe('returnPath', () => {
  it('returns to a local path, from a string or a location', () => {
    expect(returnPath('/users/list?q=ada')).toBe('/users/list?q=ada');
    expect(returnPath({ pathname: '/users/42', search: '?x=1', hash: '#top' })).toBe('/users/42?x=1#top');
  });

  it('never leaves the app, and never returns to a sign-in page', () => {
    for (const from of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '', null, 42, {}]) {
      expect(returnPath(from)).toBe(HOME_PATH);
    }
    expect(returnPath('/sign-in')).toBe(HOME_PATH);
    expect(returnPath('/northwind/sign-in')).toBe(HOME_PATH);
  });
});
