import {
  type DeviceCheckin,
  DeviceCheckinAnswer,
  Enrolled as DeviceEnrolledSchema,
  type EnrolInput,
  type GwBundle,
  GwBundle as GwBundleSchema,
  type GwEnrolInput,
  GwEnrolled,
  type GwEvent,
  type GwHeartbeat,
  GwHeartbeatAnswer,
} from '@palisade/contracts';
import {
  applyDelta,
  BUNDLE_DELTA_IM,
  type BundleDelta,
  bundleFromParts,
  bundleParts,
} from '@palisade/gateway-config/bundle-delta';

/**
 * The gateway protocol as a client (contracts/gateways.ts `gwEndpoints`): enrol, the bundle long-poll, heartbeats
 * and event batches, under `<server>/api/gw/`, authenticated by `Authorization: Bearer gw_…`; and the device
 * client's calls (contracts/enrolment.ts `POST /enrol`, contracts/devices.ts `deviceClientEndpoints`: check-in and
 * key rotation, authenticated by `Authorization: Bearer <device credential>`) for `--device`. Answers are checked
 * against the contracts' schemas.
 */

/** The server refused the credential (401): the gateway was retired or its credentials rotated. */
export class GatewayRevokedError extends Error {
  constructor(detail: string) {
    super(
      `The server refused this gateway's credential (401: ${detail}): it was revoked — the gateway was retired ` +
        'or its credentials were rotated. Stopping; enrol again with a new enrolment token (--token).',
    );
    this.name = 'GatewayRevokedError';
  }
}

/** The server refused the device credential (401): the device was deleted, or its owner deleted or disabled. */
export class DeviceRevokedError extends Error {
  constructor(detail: string) {
    super(
      `The server refused this device's credential (401: ${detail}): it was revoked — the device was deleted or ` +
        'its owner deleted or disabled. Stopping; enrol again with a new enrolment token (--token).',
    );
    this.name = 'DeviceRevokedError';
  }
}

/** Any other answer than the expected one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly body: string,
  ) {
    super(`${path}: HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
    this.name = 'HttpError';
  }
  /** Worth trying again later (the server or something in between is busy or broken). */
  get isTransient() {
    return this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** The part of a zod schema used here (the package needs no zod of its own). */
interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}
export type Enrolled = ReturnType<typeof GwEnrolled.parse>;
export type HeartbeatAnswer = ReturnType<typeof GwHeartbeatAnswer.parse>;
export type DeviceEnrolled = ReturnType<typeof DeviceEnrolledSchema.parse>;
export type CheckinAnswer = ReturnType<typeof DeviceCheckinAnswer.parse>;

export type BundleAnswer =
  | { status: 304 }
  /** `bytes`: what came over the wire (compressed), when the server said. */
  | { status: 200; bundle: GwBundle; etag: string | null; bytes: number | null }
  /** A delta from the version held (RFC 3229 226 IM Used), to apply with {@link applyBundleDelta}. */
  | { status: 226; delta: BundleDelta; etag: string | null; bytes: number | null };

/**
 * The bundle a delta makes of `base` (the bundle held, as received), checked: its version is the delta's base,
 * the result's SHA-256 is the delta's, and the result is a bundle. Throws otherwise (fetch the full bundle then).
 */
export function applyBundleDelta(base: GwBundle, delta: BundleDelta): GwBundle {
  if (base.version !== delta.from) throw new Error(`delta from ${delta.from}, but ${base.version} is held`);
  const made = bundleFromParts(applyDelta(bundleParts(base), delta));
  const parsed = GwBundleSchema.safeParse(made);
  if (!parsed.success)
    throw new Error(`delta: the result is not a bundle: ${parsed.error.message.slice(0, 300)}`);
  if (parsed.data.version !== delta.version) throw new Error('delta: the result names another version');
  // As received (key order and all): the next delta's base must be what the server holds.
  return made as GwBundle;
}

const isDelta = (value: unknown): value is BundleDelta => {
  const d = value as Partial<BundleDelta> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.from === 'string' &&
    typeof d.version === 'string' &&
    typeof d.sha256 === 'string' &&
    Array.isArray(d.names) &&
    d.names.every((name) => typeof name === 'string') &&
    typeof d.parts === 'object' &&
    d.parts !== null
  );
};

/** Slack on top of a long-poll's wait before the request is given up. */
const POLL_SLACK_MS = 15_000;
const REQUEST_TIMEOUT_MS = 20_000;

/** `<server>/api`, whether the server was given with `/api` or without. */
function apiBase(server: string): string {
  const url = new URL(server);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/api') ? path : `${path}/api`}`;
}

/** One request under `base`; a 401 is thrown as what `revoked` makes of its message. */
async function send(
  base: string,
  path: string,
  init: { method: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
  timeoutMs: number,
  revoked: (detail: string) => Error,
): Promise<{ status: number; text: string; headers: Headers }> {
  const signals = [AbortSignal.timeout(timeoutMs), ...(init.signal ? [init.signal] : [])];
  const response = await fetch(`${base}${path}`, {
    method: init.method,
    headers: init.headers,
    body: init.body,
    signal: AbortSignal.any(signals),
  });
  const text = await response.text();
  if (response.status === 401) throw revoked(messageOf(text));
  return { status: response.status, text, headers: response.headers };
}

function parseAnswer<T>(schema: Schema<T>, path: string, text: string): T {
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path}: unexpected answer: ${parsed.error.message.slice(0, 300)}`);
  return parsed.data;
}

export class GwClient {
  readonly base: string;
  constructor(server: string) {
    this.base = apiBase(server);
  }

  private request(
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
    timeoutMs: number,
  ): Promise<{ status: number; text: string; headers: Headers }> {
    return send(this.base, path, init, timeoutMs, (detail) => new GatewayRevokedError(detail));
  }

  private static parse<T>(schema: Schema<T>, path: string, text: string): T {
    return parseAnswer(schema, path, text);
  }

  async enrol(input: GwEnrolInput, signal?: AbortSignal): Promise<Enrolled> {
    const path = '/gw/enrol';
    const r = await this.request(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
        signal,
      },
      REQUEST_TIMEOUT_MS,
    );
    if (r.status !== 201) throw new HttpError(r.status, path, r.text);
    return GwClient.parse(GwEnrolled, path, r.text);
  }

  /**
   * The bundle, gzipped on the wire (fetch decompresses it); with `have`, the server holds the request up to
   * `waitSeconds` and answers 304 when unchanged, and with `delta` (default) it may answer the delta from `have`.
   */
  async bundle(
    credential: string,
    have: string | null,
    waitSeconds: number,
    signal?: AbortSignal,
    options: { delta?: boolean } = {},
  ): Promise<BundleAnswer> {
    const path = `/gw/bundle?wait=${have ? waitSeconds : 0}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${credential}`,
      'accept-encoding': 'gzip',
    };
    if (have) headers['if-none-match'] = `"${have}"`;
    if (have && options.delta !== false) headers['a-im'] = BUNDLE_DELTA_IM;
    const r = await this.request(
      path,
      { method: 'GET', headers, signal },
      (have ? waitSeconds * 1000 : 0) + POLL_SLACK_MS,
    );
    if (r.status === 304) return { status: 304 };
    const length = r.headers.get('content-length');
    const bytes = length === null ? null : Number(length);
    if (r.status === 226 && r.headers.get('im') === BUNDLE_DELTA_IM) {
      const delta: unknown = JSON.parse(r.text);
      if (!isDelta(delta)) throw new Error(`${path}: unexpected delta`);
      return { status: 226, delta, etag: r.headers.get('etag'), bytes };
    }
    if (r.status !== 200) throw new HttpError(r.status, path, r.text);
    // Kept as received (the schema's copy orders keys its own way): a delta's base is the server's text of it.
    const bundle = JSON.parse(r.text) as GwBundle;
    const parsed = GwBundleSchema.safeParse(bundle);
    if (!parsed.success) throw new Error(`${path}: unexpected answer: ${parsed.error.message.slice(0, 300)}`);
    return { status: 200, bundle, etag: r.headers.get('etag'), bytes };
  }

  async heartbeat(credential: string, beat: GwHeartbeat, signal?: AbortSignal): Promise<HeartbeatAnswer> {
    const path = '/gw/heartbeat';
    const r = await this.request(
      path,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        body: JSON.stringify(beat),
        signal,
      },
      REQUEST_TIMEOUT_MS,
    );
    if (r.status !== 200) throw new HttpError(r.status, path, r.text);
    return GwClient.parse(GwHeartbeatAnswer, path, r.text);
  }

  /** Sends a batch of events as NDJSON; a batch sent twice is stored once (the ids). */
  async events(
    credential: string,
    events: GwEvent[],
    signal?: AbortSignal,
  ): Promise<{ accepted: number; duplicates: number }> {
    const path = '/gw/events';
    const r = await this.request(
      path,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/x-ndjson' },
        body: events.map((event) => JSON.stringify(event)).join('\n'),
        signal,
      },
      REQUEST_TIMEOUT_MS,
    );
    if (r.status !== 202) throw new HttpError(r.status, path, r.text);
    return JSON.parse(r.text);
  }
}

/**
 * The device client's calls, as the Palisade client makes them: enrol once with an enrolment token (a user link
 * or a deployment key) and the device's public key, then check in and rotate its key with the device credential.
 */
export class DeviceClient {
  readonly base: string;
  constructor(server: string) {
    this.base = apiBase(server);
  }

  private async post(path: string, body: unknown, credential: string | null, signal?: AbortSignal) {
    return send(
      this.base,
      path,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      },
      REQUEST_TIMEOUT_MS,
      // Enrolment is public: a 401 there is no revoked credential, just a refusal.
      credential ? (detail) => new DeviceRevokedError(detail) : (detail) => new HttpError(401, path, detail),
    );
  }

  /** `POST /enrol`: the device credential (shown this once) and, while active, its tunnel. */
  async enrol(input: EnrolInput, signal?: AbortSignal): Promise<DeviceEnrolled> {
    const path = '/enrol';
    const r = await this.post(path, input, null, signal);
    if (r.status !== 201) throw new HttpError(r.status, path, r.text);
    return parseAnswer(DeviceEnrolledSchema, path, r.text);
  }

  /** `POST /device/checkin`: reports the agent, the configuration enforced and the posture; answers the state. */
  async checkin(credential: string, input: DeviceCheckin, signal?: AbortSignal): Promise<CheckinAnswer> {
    const path = '/device/checkin';
    const r = await this.post(path, input, credential, signal);
    if (r.status !== 200) throw new HttpError(r.status, path, r.text);
    return parseAnswer(DeviceCheckinAnswer, path, r.text);
  }

  /** `POST /device/rotate`: a new public key (made on the device) replaces the old one; answers like a check-in. */
  async rotate(credential: string, publicKey: string, signal?: AbortSignal): Promise<CheckinAnswer> {
    const path = '/device/rotate';
    const r = await this.post(path, { publicKey }, credential, signal);
    if (r.status !== 200) throw new HttpError(r.status, path, r.text);
    return parseAnswer(DeviceCheckinAnswer, path, r.text);
  }
}

function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {}
  return text.slice(0, 200) || 'unauthorised';
}

/** Sleeps `ms`, or less when any signal aborts. */
export function sleep(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((done) => {
    if (signals.some((s) => s.aborted)) return done();
    const finish = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    for (const s of signals) s.addEventListener('abort', finish, { once: true });
  });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Enrols with `attempt` (a gateway's or a device's call) until the server answers: a 404 is a token that is used,
 * expired or unknown and another refusal is final (both thrown); a transient failure is retried after
 * `delay(failures)`, told to `onRetry` first. Null when `signal` aborts.
 */
export async function enrolWithRetry<T>(
  attempt: () => Promise<T>,
  options: {
    signal: AbortSignal;
    delay: (failures: number) => number;
    isTransient: (error: unknown) => boolean;
    onRetry: (message: string, waitMs: number) => void;
  },
): Promise<T | null> {
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (error) {
      if (options.signal.aborted) return null;
      if (error instanceof HttpError && error.status === 404) {
        throw new Error(
          'enrolment refused: the token is not valid (used, expired or unknown); ask for a new one',
        );
      }
      if (!options.isTransient(error)) throw new Error(`enrolment refused: ${errorText(error)}`);
      const wait = options.delay(failures);
      options.onRetry(errorText(error), wait);
      await sleep(wait, options.signal);
    }
  }
}
