import { HOME_PATH, matchesPattern, PUBLIC_ROUTES } from '@palisade/contracts';

/** Session-storage key of the pending OTP transaction (spec §3 `transid`), read by the OTP step after a reload. */
export const TRANSID_KEY = 'transid';

/** What the sign-in screens carry in router state between steps. */
export interface AuthLocationState {
  /** Where the user was going when the session check sent them to sign in. */
  from?: unknown;
  /**
   * The OTP step's transaction; on `/email-verification`, the id of the sign-up's status (`trans/status/web`),
   * which verifies nothing.
   */
  transid?: string;
  /** The sign-in page the user came from (partner-branded or plain), for "Back to sign in". */
  signInPath?: string;
  /** The address the verification e-mail went to. */
  email?: string;
}

/** Reads our router state, ignoring anything that is not an object. */
export function authState(state: unknown): AuthLocationState {
  return typeof state === 'object' && state !== null ? (state as AuthLocationState) : {};
}

/**
 * The in-app path to return to after sign-in: `from` as a path string or a location object, when it is a local
 * path that is not itself a sign-in or sign-up page; else the home dashboard.
 */
export function returnPath(from: unknown): string {
  let path: string | null = null;
  if (typeof from === 'string') path = from;
  else if (
    typeof from === 'object' &&
    from !== null &&
    typeof (from as { pathname?: unknown }).pathname === 'string'
  ) {
    const { pathname, search, hash } = from as { pathname: string; search?: string; hash?: string };
    path = `${pathname}${search ?? ''}${hash ?? ''}`;
  }
  // Only local paths: `//host` and `/\host` would leave the app.
  if (!path?.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return HOME_PATH;
  const pathname = path.split(/[?#]/)[0];
  if (PUBLIC_ROUTES.some((pattern) => matchesPattern(pattern, pathname))) return HOME_PATH;
  return path;
}
