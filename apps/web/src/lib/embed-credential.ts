import { EMBED_LEGACY_SESSION_PARAM, EMBED_TOKEN_PARAM, isEmbedRoute } from '@palisade/contracts';
import { useSyncExternalStore } from 'react';

/**
 * The credential of an embedded dashboard (spec §2, docs/embedding.md): the embed token its link carries
 * (`?token=emb_…`), never a session. It is kept for this tab only (session storage), used for the API calls of
 * the embedded view while one is shown (`Authorization: Bearer emb_…`, lib/api-client.ts) and for nothing
 * else: the console's own session, stored where sign-in stores it, is neither read nor replaced by it, so a
 * link can never sign anybody into someone else's account.
 */

/** Where the tab keeps the token of the embed link it opened. */
const STORAGE_KEY = 'embedToken';

/** The state the embedded view and the API client share. */
interface EmbedState {
  /** The token the mounted embedded view works with, or null when none is shown. */
  token: string | null;
  /** True once the server refused the token (expired, revoked): the view says so. */
  isLost: boolean;
}

let state: EmbedState = { token: null, isLost: false };
const listeners = new Set<() => void>();

function set(next: EmbedState): void {
  if (next.token === state.token && next.isLost === state.isLost) return;
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The stored embed token of this tab, or null. */
export function storedEmbedToken(): string | null {
  return sessionStorage.getItem(STORAGE_KEY) || null;
}

/**
 * The address's embed token (`?token=`) and the address without it — and without the `?sid=` of links made
 * before embed links, which is dropped, never taken. `token` is null when the address carries none.
 */
export function splitEmbedAddress(search: string): {
  token: string | null;
  search: string;
  changed: boolean;
} {
  const params = new URLSearchParams(search);
  const token = params.get(EMBED_TOKEN_PARAM) || null;
  const changed = params.has(EMBED_TOKEN_PARAM) || params.has(EMBED_LEGACY_SESSION_PARAM);
  params.delete(EMBED_TOKEN_PARAM);
  params.delete(EMBED_LEGACY_SESSION_PARAM);
  const rest = params.toString();
  return { token, search: rest ? `?${rest}` : '', changed };
}

/** Keeps an embed token for this tab (a new link replaces the one before). True when it changed. */
export function keepEmbedToken(token: string): boolean {
  if (storedEmbedToken() === token) return false;
  sessionStorage.setItem(STORAGE_KEY, token);
  return true;
}

/**
 * On page load, before the router, the session query or analytics read the address: on an embedded dashboard's
 * path, the link's token is kept for the tab and both it and any legacy `?sid=` leave the address at once
 * (`history.replaceState`: neither shown nor kept in the history nor sent to analytics). The embedded view then
 * starts with it. True when the address held one.
 */
export function takeEmbedTokenFromAddress(
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
): boolean {
  if (!isEmbedRoute(location.pathname)) return false;
  const { token, search, changed } = splitEmbedAddress(location.search);
  if (token) keepEmbedToken(token);
  if (changed) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  if (token || storedEmbedToken()) set({ token: storedEmbedToken(), isLost: false });
  return token !== null;
}

/** The embedded view is shown: its calls use the tab's embed token (null: it has none and says so). */
export function enterEmbedView(): string | null {
  const token = storedEmbedToken();
  set({ token, isLost: token === state.token ? state.isLost : false });
  return token;
}

/** The embedded view is gone (the console is shown): calls use the console's session again. */
export function leaveEmbedView(): void {
  set({ token: null, isLost: false });
}

/** The server refused the token (401): the view says the link has ended; the console session is untouched. */
export function markEmbedTokenLost(): void {
  if (state.token) set({ ...state, isLost: true });
}

/** The token the API client sends while an embedded view is shown, else null. */
export function activeEmbedToken(): string | null {
  return state.token;
}

/** React hook: the embedded view's token and whether the server refused it. */
export function useEmbedCredential(): EmbedState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}
