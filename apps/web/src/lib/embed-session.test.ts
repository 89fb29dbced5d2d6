import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adoptSessionId, takeSessionFromAddress, withoutSessionId } from './embed-session';

describe('the session id of an embedded dashboard’s link', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('is stored as the session and removed from the address with replaceState, the rest kept', () => {
    const history = { state: { idx: 0 }, replaceState: vi.fn() };
    const taken = takeSessionFromAddress(
      { pathname: '/embed/spa/acme', search: '?range=7d&sid=a%2Bb%2Fc&x=1', hash: '#top' },
      history,
    );
    expect(taken).toBe(true);
    expect(localStorage.getItem('sessid')).toBe('a+b/c');
    expect(history.replaceState).toHaveBeenCalledWith({ idx: 0 }, '', '/embed/spa/acme?range=7d&x=1#top');
  });

  it('is stored where sign-in stores the session, in session storage in session mode', () => {
    sessionStorage.setItem('navigation', 'true');
    takeSessionFromAddress(
      { pathname: '/embed/global', search: '?sid=abc', hash: '' },
      {
        state: null,
        replaceState: vi.fn(),
      },
    );
    expect(sessionStorage.getItem('sessid')).toBe('abc');
    expect(localStorage.getItem('sessid')).toBeNull();
  });

  it('forgets what a sign-in stored for another session, and keeps it for the same one', () => {
    localStorage.setItem('sessid', 'old');
    localStorage.setItem('tenant', 'globex');
    localStorage.setItem('clientAuth', 'true');
    expect(adoptSessionId('new')).toBe(true);
    expect(localStorage.getItem('sessid')).toBe('new');
    expect(localStorage.getItem('tenant')).toBeNull();
    expect(localStorage.getItem('clientAuth')).toBeNull();
    localStorage.setItem('tenant', 'acme');
    expect(adoptSessionId('new')).toBe(false);
    expect(localStorage.getItem('tenant')).toBe('acme');
  });

  it('is read on embedded dashboards only, and only when there is one', () => {
    const history = { state: null, replaceState: vi.fn() };
    expect(takeSessionFromAddress({ pathname: '/users/list', search: '?sid=abc', hash: '' }, history)).toBe(
      false,
    );
    expect(takeSessionFromAddress({ pathname: '/embed/global', search: '?sid=', hash: '' }, history)).toBe(
      false,
    );
    expect(history.replaceState).not.toHaveBeenCalled();
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(withoutSessionId('?sid=a')).toBe('');
  });
});
