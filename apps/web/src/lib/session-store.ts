import type { Session } from '@palisade/contracts';
import { appStorage, clearSessionKeys } from './storage';

/** Stores what later calls and redirects need from a fresh session (spec §3 session-stored keys). */
export function saveSession(session: Session & { sessid: string }): void {
  appStorage.set('sessid', session.sessid);
  appStorage.set('userName', session.username);
  appStorage.set('tenant', session.tenant);
  appStorage.set('role', session.role);
  if (session.partnername !== null) appStorage.set('partnername', session.partnername);
  appStorage.set('clientAuth', String(session.clientAuth));
}

/** The stored session id sent as `X-Auth-Token`, or null when signed out. */
export function getSessionId(): string | null {
  return appStorage.get('sessid') || null;
}

/** The stored partner name that picks the sign-in page after a lost session, or null. */
export function getStoredPartner(): string | null {
  return appStorage.get('partnername') || null;
}

/** True when the stored session came through client authentication. */
export function isClientAuth(): boolean {
  return appStorage.get('clientAuth') === 'true';
}

/** Forgets the session: the sign-out cleanup of spec §4. */
export function clearSession(): void {
  clearSessionKeys();
}
