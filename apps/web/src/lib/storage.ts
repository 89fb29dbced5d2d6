/**
 * Browser storage of spec §3–§4. One flag decides where everything lives: when the session-storage key
 * `navigation` is `'true'` the app keeps its keys in session storage (per tab), otherwise in local storage.
 */

/** The keys spec §3 stores for a session; sign-out removes them (spec §4). */
export const SESSION_KEYS = [
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
] as const;

/** One of the spec §3 session-stored keys. */
export type SessionKey = (typeof SESSION_KEYS)[number];

const HOUR_MS = 3_600_000;

/** True when the `navigation` flag asks for session storage (spec §4 storage mode). */
export function isSessionMode(): boolean {
  return sessionStorage.getItem('navigation') === 'true';
}

/** The storage the current mode uses; decided on every access so flipping the flag takes effect at once. */
function activeStorage(): Storage {
  return isSessionMode() ? sessionStorage : localStorage;
}

interface ExpiringEntry<T> {
  value: T;
  expiry: number;
}

function isExpiringEntry(candidate: unknown): candidate is ExpiringEntry<unknown> {
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    'value' in candidate &&
    'expiry' in candidate &&
    typeof candidate.expiry === 'number'
  );
}

/** App storage that follows the storage mode of spec §4. */
export const appStorage = {
  /** The stored string, or null when absent. */
  get(key: string): string | null {
    return activeStorage().getItem(key);
  },

  /** Stores a string under `key`. */
  set(key: string, value: string): void {
    activeStorage().setItem(key, value);
  },

  /** Removes `key`. */
  remove(key: string): void {
    activeStorage().removeItem(key);
  },

  /** Stores `{value, expiry}` with expiry = now + `hours` hours (spec §4 expiring local values). */
  setExpiring<T>(key: string, value: T, hours: number): void {
    const entry: ExpiringEntry<T> = { value, expiry: Date.now() + hours * HOUR_MS };
    activeStorage().setItem(key, JSON.stringify(entry));
  },

  /** The value stored by `setExpiring`, or null when absent, unreadable or expired (then it is removed). */
  getExpiring<T = unknown>(key: string): T | null {
    const storage = activeStorage();
    const raw = storage.getItem(key);
    if (raw === null) return null;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      entry = undefined;
    }
    if (!isExpiringEntry(entry) || Date.now() >= entry.expiry) {
      storage.removeItem(key);
      return null;
    }
    return entry.value as T;
  },
};

/**
 * Sign-out cleanup (spec §4): removes the spec §3 session keys, and in session mode clears all of session
 * storage.
 */
export function clearSessionKeys(): void {
  const isSession = isSessionMode();
  const storage = activeStorage();
  for (const key of SESSION_KEYS) storage.removeItem(key);
  if (isSession) sessionStorage.clear();
}

/** What the `target` key says (spec §3). */
export interface ParsedTarget {
  /** The `key:value` items. */
  pairs: Record<string, string>;
  /** The last item is `'true'`: the partner may edit this workspace. */
  isPartnerEditAllowed: boolean;
  /** A `wsEditAllowed` item is present: the user was redirected here from a partner. */
  isFromPartner: boolean;
}

/**
 * Parses the `target` value: a comma list of `key:value` pairs whose last item may be `'true'`.
 * Items without a colon (other than that last flag) are ignored; values may themselves contain colons.
 */
export function parseTarget(value: string | null | undefined): ParsedTarget {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  const isPartnerEditAllowed = items.at(-1) === 'true';
  if (isPartnerEditAllowed) items.pop();
  const entries: [string, string][] = [];
  for (const item of items) {
    const colon = item.indexOf(':');
    if (colon > 0) entries.push([item.slice(0, colon).trim(), item.slice(colon + 1).trim()]);
  }
  const pairs: Record<string, string> = Object.fromEntries(entries);
  return { pairs, isPartnerEditAllowed, isFromPartner: Object.hasOwn(pairs, 'wsEditAllowed') };
}
