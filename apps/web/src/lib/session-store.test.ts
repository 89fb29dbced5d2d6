import type { Session } from '@palisade/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, getSessionId, getStoredPartner, isClientAuth, saveSession } from './session-store';

const session: Session & { sessid: string } = {
  sessid: 'sess-42',
  userid: 'u1',
  username: 'ada@acme.test',
  firstname: 'Ada',
  lastname: 'Lovelace',
  usertype: 1,
  role: 'owner',
  permissions: ['users:view'],
  customRoleName: null,
  tenant: 'acme',
  tenantDisplayName: 'Acme',
  tenantKind: 'customer',
  managedTenants: [],
  managedTenantDisplayNames: {},
  partnername: 'bluenet',
  features: [],
  theme: null,
  palette: null,
  tenantTheme: 'light',
  tenantPalette: 'classic',
  language: null,
  totpEnabled: false,
  clientAuth: true,
  expiresAt: '2030-01-01T00:00:00.000Z',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('session store', () => {
  it('saves the keys later calls need', () => {
    saveSession(session);
    expect(localStorage.getItem('sessid')).toBe('sess-42');
    expect(localStorage.getItem('userName')).toBe('ada@acme.test');
    expect(localStorage.getItem('tenant')).toBe('acme');
    expect(localStorage.getItem('role')).toBe('owner');
    expect(localStorage.getItem('partnername')).toBe('bluenet');
    expect(localStorage.getItem('clientAuth')).toBe('true');
    expect(getSessionId()).toBe('sess-42');
    expect(getStoredPartner()).toBe('bluenet');
    expect(isClientAuth()).toBe(true);
  });

  it('skips a null partner and stores clientAuth false', () => {
    saveSession({ ...session, partnername: null, clientAuth: false });
    expect(localStorage.getItem('partnername')).toBeNull();
    expect(getStoredPartner()).toBeNull();
    expect(localStorage.getItem('clientAuth')).toBe('false');
    expect(isClientAuth()).toBe(false);
  });

  it('answers null when signed out', () => {
    expect(getSessionId()).toBeNull();
    expect(getStoredPartner()).toBeNull();
    expect(isClientAuth()).toBe(false);
  });

  it('writes to session storage in session mode', () => {
    sessionStorage.setItem('navigation', 'true');
    saveSession(session);
    expect(sessionStorage.getItem('sessid')).toBe('sess-42');
    expect(localStorage.getItem('sessid')).toBeNull();
    expect(getSessionId()).toBe('sess-42');
  });

  it('clearSession forgets the session', () => {
    saveSession(session);
    localStorage.setItem('theme', 'dark');
    clearSession();
    expect(getSessionId()).toBeNull();
    expect(getStoredPartner()).toBeNull();
    expect(localStorage.getItem('userName')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
  });
});
