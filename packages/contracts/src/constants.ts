/** Business constants and limits of spec §9, shared by server and web. */
export const RETRIES = 3;
export const RETRY_DELAY_MS = 2000;
export const NETWORK_TIMEOUT_MS = 120_000;
export const API_RATE_LIMIT = { max: 100, windowMs: 60_000 } as const;

export const SESSION_POLL_MS = 60_000;
export const SESSION_DURATION_MS = 3_600_000;
export const REINVITE_ALL_USERS_MS = 3_600_000;
export const GATEWAY_UPGRADE_TIMEOUT_MS = 900_000;
export const ONE_DAY_MS = 86_400_000;

export const MAX_APP_ID_IP_COUNT = 8;
export const MAX_PORTS_LOCATIONS = 16;
export const MAX_CUSTOM_DOMAINS_PER_APP = 64;
export const MAX_LOCAL_POLICIES = 8;
export const MAX_GATEWAY_VLAN_IDS = 50;
export const MAX_LAN_IDS = 10;
export const MAX_TRAFFIC_FLOW_LIST = 10;
export const MAX_GATEWAY_WAN_IPS = 1;
export const LAN_PORT = 9630;
export const DEFAULT_SESSION_QOS = '00000000-0000-0000-0000-000000000000';

export const PORT_MIN = 1;
export const PORT_MAX = 65_535;
export const SUBSCRIPTION_INCLUDE = 'all';

export const TOAST_FADE_MS = 300;
export const TOAST_REMOVE_MS = 400;
export const TOAST_PLACEMENTS = [
  'topCenter',
  'bottomCenter',
  'topStart',
  'topEnd',
  'bottomStart',
  'bottomEnd',
] as const;
export type ToastPlacement = (typeof TOAST_PLACEMENTS)[number];

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const I18N_NAMESPACES = [
  'translation',
  'routeTranslation',
  'subscriptionHistory',
  'paymentHistory',
] as const;
/**
 * The namespaces the web app fetches before its first paint (the others load when a screen asks for them); the
 * server names them in index.html so the browser fetches them alongside the scripts.
 */
export const I18N_INITIAL_NAMESPACES = ['translation', 'routeTranslation'] as const satisfies ReadonlyArray<
  (typeof I18N_NAMESPACES)[number]
>;
/** The cookie the web app keeps the chosen language in (besides local storage), for the server to read. */
export const LANGUAGE_COOKIE = 'i18nextLng';
export const ANALYTICS_START_DELAY_MS = 500;

/**
 * Sign-in lockout. This many wrong passwords from one source (address) within the window lock that source out of
 * that account for LOCKOUT_MS; other sources are not locked. This many wrong second-factor codes in a row (across
 * password steps) lock the account itself for LOCKOUT_MS.
 */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_FAILURE_WINDOW_MS = 60_000;
export const LOCKOUT_MS = 15 * 60_000;
/**
 * Across sources, from this many wrong passwords in a row on (more than one source may make before it is locked
 * out), an account takes the next attempt from a source it was never signed in from only after a delay that
 * doubles with every further failure (1 s, 2 s, 4 s…), at most LOGIN_DELAY_MAX_MS — so a guesser spread over
 * many addresses still crawls, while one guessing address never delays the owner.
 */
export const LOGIN_DELAY_AFTER_FAILURES = 10;
export const LOGIN_DELAY_MAX_MS = 5 * 60_000;
/** A source an account signed in from within this time is familiar: the account's delay does not apply to it. */
export const FAMILIAR_SOURCE_MS = 90 * 86_400_000;

/** Largest page a list endpoint returns. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 25;

/** Themes and palettes of spec §1. */
export const THEMES = ['light', 'dark', 'mixed', 'colored'] as const;
export type Theme = (typeof THEMES)[number];
export const PALETTES = ['classic', 'corporate', 'modern'] as const;
export type Palette = (typeof PALETTES)[number];
