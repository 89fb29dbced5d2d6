import { formatTarget, type Session } from '@palisade/contracts';
import { appStorage, clearSessionKeys } from './storage';

/** Stores what later calls and redirects need from a fresh session (spec §3 session-stored keys). */
export function saveSession(session: Session & { sessid: string }): void {
  appStorage.set('sessid', session.sessid);
  appStorage.set('userName', session.username);
  appStorage.set('tenant', session.tenant);
  appStorage.set('role', session.role);
  if (session.partnername !== null) appStorage.set('partnername', session.partnername);
  appStorage.set('clientAuth', String(session.clientAuth));
  saveTarget(session);
}

/**
 * The spec §3 `target` value of a session (see `formatTarget`): the tenant a partner's session opened and
 * whether in edit mode, the partner being the session's partner (its own tenant when it names none). Null when
 * it opened none; undefined when the server does not say (then the stored value is left alone).
 */
export function targetValue(session: Session): string | null | undefined {
  if (session.target === undefined) return undefined;
  if (session.target === null) return null;
  return formatTarget(session.target, session.partnername ?? session.tenant);
}

/** Keeps the stored `target` key in step with the session's opened tenant. */
export function saveTarget(session: Session): void {
  storeTargetValue(targetValue(session));
}

/** Stores a {@link targetValue}: null removes the key, undefined leaves it. */
export function storeTargetValue(value: string | null | undefined): void {
  if (value === undefined) return;
  if (value === null) appStorage.remove('target');
  else appStorage.set('target', value);
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
