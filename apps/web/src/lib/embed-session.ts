import { EMBED_SESSION_PARAM, isEmbedRoute } from '@palisade/contracts';
import { getSessionId } from './session-store';
import { appStorage } from './storage';

/** What a sign-in stores next to the session id (session-store.ts): another session's must not stay beside a new id. */
const SESSION_DETAIL_KEYS = ['userName', 'tenant', 'role', 'partnername', 'clientAuth'] as const;

/**
 * Takes an embedded dashboard's session id as the session (spec §2: the dashboard host exchanges the id for its
 * own session): stored under `sessid`, where sign-in stores it and API calls read it for `X-Auth-Token`. What a
 * sign-in stored for another session is forgotten; the session itself is fetched again by whoever asked. True
 * when the stored session changed.
 */
export function adoptSessionId(sessionId: string): boolean {
  if (getSessionId() === sessionId) return false;
  for (const key of SESSION_DETAIL_KEYS) appStorage.remove(key);
  appStorage.set('sessid', sessionId);
  return true;
}

/** The session id an address carries (`?sid=`), or null. */
export function sessionIdIn(search: string): string | null {
  return new URLSearchParams(search).get(EMBED_SESSION_PARAM) || null;
}

/** A search string without the session id: `''` or `?…` with the other parameters kept. */
export function withoutSessionId(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(EMBED_SESSION_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * On page load, before the router and the session query read the address: an embedded dashboard opened with
 * `?sid=` stores the id as the session and drops it from the address at once (`history.replaceState`, so it is
 * neither shown nor kept in the history, and never reaches analytics). Only `/embed/…` paths are read. True when
 * an id was taken.
 */
export function takeSessionFromAddress(
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
): boolean {
  if (!isEmbedRoute(location.pathname)) return false;
  const sessionId = sessionIdIn(location.search);
  if (!sessionId) return false;
  adoptSessionId(sessionId);
  history.replaceState(
    history.state,
    '',
    `${location.pathname}${withoutSessionId(location.search)}${location.hash}`,
  );
  return true;
}
