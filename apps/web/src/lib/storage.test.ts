import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStorage, clearSessionKeys, isSessionMode, parseTarget, SESSION_KEYS } from './storage';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('storage mode', () => {
  it('uses local storage unless the navigation flag is true', () => {
    sessionStorage.setItem('navigation', 'false');
    expect(isSessionMode()).toBe(false);
    appStorage.set('tenant', 'acme');
    expect(localStorage.getItem('tenant')).toBe('acme');
    expect(sessionStorage.getItem('tenant')).toBeNull();
    expect(appStorage.get('tenant')).toBe('acme');
    appStorage.remove('tenant');
    expect(localStorage.getItem('tenant')).toBeNull();
  });

  it('uses session storage when the navigation flag is true', () => {
    sessionStorage.setItem('navigation', 'true');
    expect(isSessionMode()).toBe(true);
    appStorage.set('tenant', 'acme');
    expect(sessionStorage.getItem('tenant')).toBe('acme');
    expect(localStorage.getItem('tenant')).toBeNull();
    expect(appStorage.get('tenant')).toBe('acme');
    appStorage.remove('tenant');
    expect(sessionStorage.getItem('tenant')).toBeNull();
  });

  it('follows the flag on every access', () => {
    localStorage.setItem('role', 'owner');
    sessionStorage.setItem('role', 'auditor');
    expect(appStorage.get('role')).toBe('owner');
    sessionStorage.setItem('navigation', 'true');
    expect(appStorage.get('role')).toBe('auditor');
  });
});

describe('expiring values', () => {
  it('stores {value, expiry} with expiry = now + hours and returns the value until then', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    appStorage.setExpiring('banner', { dismissed: true }, 2);
    expect(JSON.parse(localStorage.getItem('banner')!)).toEqual({
      value: { dismissed: true },
      expiry: Date.parse('2030-01-01T02:00:00Z'),
    });
    vi.advanceTimersByTime(2 * 3_600_000 - 1);
    expect(appStorage.getExpiring('banner')).toEqual({ dismissed: true });
  });

  it('removes an expired value and returns null', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    appStorage.setExpiring('banner', 'x', 1);
    vi.advanceTimersByTime(3_600_000);
    expect(appStorage.getExpiring('banner')).toBeNull();
    expect(localStorage.getItem('banner')).toBeNull();
  });

  it('returns null for missing or unreadable values', () => {
    expect(appStorage.getExpiring('nothing')).toBeNull();
    localStorage.setItem('broken', 'not json');
    expect(appStorage.getExpiring('broken')).toBeNull();
    expect(localStorage.getItem('broken')).toBeNull();
  });
});

describe('clearSessionKeys', () => {
  it('lists the spec §3 session keys', () => {
    expect(SESSION_KEYS).toEqual([
      'selectedGroupName',
      'userName',
      'sessid',
      'transid',
      'tenant',
      'subsmessage',
      'retainTPLabel',
      'groupvalue',
      'retainLoader',
      'selectedCachePVDropdown',
      'role',
      'apps',
      'globalViewCisoData',
      'partnername',
      'navigation',
      'clientAuth',
      'target',
    ]);
  });

  it('in local mode removes exactly the listed keys', () => {
    for (const key of SESSION_KEYS) localStorage.setItem(key, 'v');
    localStorage.setItem('theme', 'dark');
    sessionStorage.setItem('networkError', 'true');
    clearSessionKeys();
    for (const key of SESSION_KEYS) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(sessionStorage.getItem('networkError')).toBe('true');
  });

  it('in session mode clears all of session storage', () => {
    sessionStorage.setItem('navigation', 'true');
    sessionStorage.setItem('sessid', 's');
    sessionStorage.setItem('anything', 'else');
    localStorage.setItem('theme', 'dark');
    clearSessionKeys();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('theme')).toBe('dark');
  });
});

describe('parseTarget', () => {
  it('reads key:value pairs', () => {
    expect(parseTarget('tenant:acme,user:ada@acme.test')).toEqual({
      pairs: { tenant: 'acme', user: 'ada@acme.test' },
      isPartnerEditAllowed: false,
      isFromPartner: false,
    });
  });

  it("marks partner edit allowed when the last item is 'true'", () => {
    const target = parseTarget('tenant:acme, wsEditAllowed:yes, true');
    expect(target.pairs).toEqual({ tenant: 'acme', wsEditAllowed: 'yes' });
    expect(target.isPartnerEditAllowed).toBe(true);
    expect(target.isFromPartner).toBe(true);
  });

  it("only looks at the last item for 'true'", () => {
    const target = parseTarget('true,tenant:acme');
    expect(target.isPartnerEditAllowed).toBe(false);
    expect(target.pairs).toEqual({ tenant: 'acme' });
  });

  it('keeps colons inside values', () => {
    expect(parseTarget('url:https://x.test:8443/a').pairs).toEqual({ url: 'https://x.test:8443/a' });
  });

  it('handles empty and missing values', () => {
    const empty = { pairs: {}, isPartnerEditAllowed: false, isFromPartner: false };
    expect(parseTarget(null)).toEqual(empty);
    expect(parseTarget('')).toEqual(empty);
    expect(parseTarget(undefined)).toEqual(empty);
  });
});
