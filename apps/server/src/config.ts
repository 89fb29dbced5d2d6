import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { API_RATE_LIMIT, isIpOrCidr } from '@palisade/contracts';

/** Server configuration, read once from the environment (README lists every variable). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; when set PGlite is not used. `memory://` runs PGlite in memory (tests). */
  databaseUrl: string | null;
  redisUrl: string | null;
  /**
   * `REDIS_PREFIX`: put before every Redis key and stream name this server uses (rate-limit counters, the
   * telemetry stream and its dead letters), so several deployments can share one Redis. Empty by default.
   */
  redisPrefix: string;
  /**
   * `TRUST_PROXY`: the reverse proxies whose `X-Forwarded-For`/`-Proto`/`-Host` are believed — a hop count, or
   * addresses and CIDRs (Fastify's `trustProxy`). `false` (unset): the socket's address is the client's.
   */
  trustProxy: number | string[] | false;
  smtpUrl: string | null;
  /**
   * `SECRET_KEY`: the 32-byte key (64 hex characters) that seals secrets at rest. Required with PostgreSQL; in
   * embedded mode one is generated once into DATA_DIR when it is not set.
   */
  secretKey: string | null;
  /**
   * `DEV_OUTBOX=true`: serve the local mail outbox at /api/dev/outbox, to platform administrators only. Never with
   * `NODE_ENV=production`.
   */
  devOutbox: boolean;
  adminEmail: string | null;
  adminPassword: string | null;
  demoPassword: string;
  isDemoPasswordGenerated: boolean;
  /** Seed the demo tenants: always on first embedded start, on PostgreSQL only with --demo. */
  seedDemo: boolean;
  rateLimit: { max: number; windowMs: number };
  /** Partners whose users land on /ntgr-signout instead of sign-in. */
  signOutPartners: string[];
  /** Public origin used in e-mailed links. */
  publicUrl: string;
  /**
   * `DASHBOARD_BASE_URL`: the host embedded-dashboard links point to (spec §2), an http(s) URL that may carry a
   * path prefix (kept without a trailing slash). Null (unset): this server, whose `/embed/…` views serve them.
   */
  dashboardBaseUrl: string | null;
  webDist: string;
  localesDir: string;
  logLevel: string;
  /**
   * Let URL feeds point at private, loopback and other special-purpose addresses. Off by default, so a feed URL
   * cannot be used to reach the server's own network (SSRF); tests and lab set-ups turn it on.
   */
  feedAllowPrivateNetworks: boolean;
  /** `PAYMENT_PROVIDER`: the payment provider of subscriptions; `sandbox` (default) is Stripe-like test mode. */
  paymentProvider: string;
  /**
   * `PAYMENT_WEBHOOK_SECRET`: the secret of the provider's webhook signatures (HMAC-SHA256). No default: null
   * when unset, and then the webhook route answers 503 `payment_webhook_closed` (start-up warns).
   */
  paymentWebhookSecret: string | null;
  /**
   * Without `PAYMENT_WEBHOOK_SECRET`, outside `NODE_ENV=production` and with the sandbox provider only: a random
   * secret of this process, so the sandbox's own signed deliveries verify (start-up says so). Null otherwise.
   */
  paymentWebhookDevSecret: string | null;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** proxy-addr's names for the loopback, link-local and private ranges, accepted in `TRUST_PROXY` too. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`: `1` (hops) or `10.0.0.2,10.1.0.0/16`. Anything else stops the start:
 * `true` would believe a forged `X-Forwarded-For` from anyone, and a typo would silently trust nobody.
 */
export function parseTrustProxy(value: string | undefined): number | string[] | false {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text) > 0 ? Number(text) : false;
  const entries = list(text);
  for (const entry of entries) {
    // An address or CIDR of either family, strict as everywhere (the contracts' address helper).
    if (!PROXY_RANGES.includes(entry) && !isIpOrCidr(entry)) {
      throw new Error(
        `TRUST_PROXY: "${entry}" is neither a hop count nor an IP address or CIDR of a proxy (e.g. 1 or 10.0.0.2,10.1.0.0/16)`,
      );
    }
  }
  return entries.length > 0 ? entries : false;
}

/**
 * `DASHBOARD_BASE_URL` as the base of embedded-dashboard links: an absolute http(s) URL, optionally with a path
 * prefix, without a query, fragment or credentials (the links append their path and `?sid=`). Unset or empty:
 * null. Anything else stops the start: every link built from it would be broken.
 */
export function parseDashboardBaseUrl(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  const fail = (why: string): never => {
    throw new Error(
      `DASHBOARD_BASE_URL: "${text}" ${why} (e.g. https://dashboards.example.com or https://example.com/palisade)`,
    );
  };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('is not an http or https URL');
  if (url.username || url.password) fail('must not carry a user name or password');
  if (url.search || url.hash || text.includes('?') || text.includes('#')) {
    fail('must not carry a query or fragment');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The webhook secret the README once published as the development default: never accepted. */
const PUBLISHED_WEBHOOK_SECRETS = ['whsec_palisade_development'];

/**
 * `PAYMENT_WEBHOOK_SECRET`: unset or empty is null (no default). The formerly published development default, or
 * a secret shorter than 16 characters, stops the start: anyone could sign events with it.
 */
export function parsePaymentWebhookSecret(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (PUBLISHED_WEBHOOK_SECRETS.includes(text)) {
    throw new Error(
      'PAYMENT_WEBHOOK_SECRET: this is the published development default, which anyone can sign with; set the secret of the webhook endpoint at your provider',
    );
  }
  if (text.length < 16) {
    throw new Error('PAYMENT_WEBHOOK_SECRET: too short (at least 16 characters, as the provider gives it)');
  }
  return text;
}

/** `REDIS_PREFIX`: letters, digits and `:_.-`, at most 64; anything else stops the start with its reason. */
export function parseRedisPrefix(value: string | undefined): string {
  const prefix = value ?? '';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(prefix)) {
    throw new Error(
      'REDIS_PREFIX: use at most 64 letters, digits and the characters : _ . - (e.g. "prod-eu:")',
    );
  }
  return prefix;
}

/** Builds the configuration from an environment (defaults per the README). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const root = resolve(import.meta.dirname, '../../..');
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const databaseUrl = env.DATABASE_URL || null;
  const isEmbedded = !databaseUrl || databaseUrl.startsWith('memory://');
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    redisUrl: env.REDIS_URL || null,
    redisPrefix: parseRedisPrefix(env.REDIS_PREFIX),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || null,
    secretKey: env.SECRET_KEY || null,
    devOutbox: env.DEV_OUTBOX === 'true' && env.NODE_ENV !== 'production',
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    demoPassword: env.DEMO_PASSWORD || randomBytes(9).toString('base64url'),
    isDemoPasswordGenerated: !env.DEMO_PASSWORD,
    seedDemo: argv.includes('--demo') || (isEmbedded && env.SEED_DEMO !== 'false'),
    rateLimit: {
      max: Number(env.RATE_LIMIT_MAX ?? API_RATE_LIMIT.max),
      windowMs: Number(env.RATE_LIMIT_WINDOW_MS ?? API_RATE_LIMIT.windowMs),
    },
    signOutPartners: list(env.SIGNOUT_PARTNERS ?? 'ntgr'),
    publicUrl: env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
    dashboardBaseUrl: parseDashboardBaseUrl(env.DASHBOARD_BASE_URL),
    webDist: resolve(env.WEB_DIST ?? resolve(root, 'apps/web/dist')),
    localesDir: resolve(root, 'apps/web/public/locales'),
    logLevel: env.LOG_LEVEL ?? 'info',
    feedAllowPrivateNetworks: env.FEED_ALLOW_PRIVATE_NETWORKS === 'true',
    paymentProvider: env.PAYMENT_PROVIDER || 'sandbox',
    paymentWebhookSecret: parsePaymentWebhookSecret(env.PAYMENT_WEBHOOK_SECRET),
    paymentWebhookDevSecret:
      !env.PAYMENT_WEBHOOK_SECRET?.trim() &&
      env.NODE_ENV !== 'production' &&
      (env.PAYMENT_PROVIDER || 'sandbox') === 'sandbox'
        ? `whsec_dev_${randomBytes(24).toString('hex')}`
        : null,
  };
}
