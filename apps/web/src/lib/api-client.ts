/**
 * The API client: the one place for the call behaviour of spec §7–§8 (ARCHITECTURE §5). Built on ky, which does
 * the fetching, the timeout, cancellation and the retries; this module configures it and adds what is ours —
 * the client-side rate limit, the lost-session redirect, the network-error page and the calls-in-progress count.
 */
import {
  API_RATE_LIMIT,
  type Endpoint,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
  type ErrorDetail,
  ErrorEnvelope,
  NETWORK_TIMEOUT_MS,
  RETRIES,
  RETRY_DELAY_MS,
} from '@palisade/contracts';
import ky, {
  isHTTPError,
  isTimeoutError,
  type Options as KyOptions,
  type RetryOptions,
  type SearchParamsOption,
} from 'ky';
import { useSyncExternalStore } from 'react';
import { activeEmbedToken, markEmbedTokenLost } from './embed-credential';
import { clearSession, getSessionId, getStoredPartner } from './session-store';

/**
 * The credential header of a call: the embed token while an embedded dashboard is shown (`Authorization:
 * Bearer emb_…`), else the session's `X-Auth-Token` (spec §7), else none. Every request the web sends —
 * JSON calls, file downloads, the live view's stream — takes it from here.
 */
export function credentialHeaders(): Record<string, string> {
  const embedToken = activeEmbedToken();
  if (embedToken) return { Authorization: `Bearer ${embedToken}` };
  const sessid = getSessionId();
  return sessid ? { 'X-Auth-Token': sessid } : {};
}

/**
 * A call answered "no valid session" (401, errcode 1). In an embedded view the link has ended (expired,
 * revoked): the view says so and the console's session stays as it is. Otherwise spec §8's lost session.
 */
export function handleUnauthenticated(): void {
  if (activeEmbedToken()) markEmbedTokenLost();
  else handleLostSession();
}

/** An error answer of the API, built from its envelope `{errcode, code, message, details?}`. */
export class ApiError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable number the UI translates as `error.{errcode}`; 1 means "no valid session". */
  readonly errcode: number;
  /** Stable snake_case name, e.g. `validation_failed`. */
  readonly code: string;
  /** Per-field problems of a validation failure. */
  readonly details?: ErrorDetail[];
  /** `policy_tests_failed`: the pinned policy tests the refused change would break (PolicyTestFailure[]). */
  readonly failures?: unknown[];
  /** How many seconds the server asks to wait (`Retry-After` of a 423 or 429), when it says. */
  readonly retryAfterSeconds?: number;

  constructor(status: number, envelope: ErrorEnvelope, retryAfterSeconds?: number) {
    super(envelope.message);
    this.name = 'ApiError';
    this.status = status;
    this.errcode = envelope.errcode;
    this.code = envelope.code;
    if (envelope.details) this.details = envelope.details;
    if (envelope.failures) this.failures = envelope.failures;
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Thrown without sending when a method+path went over the client-side limit of spec §7. */
export class RateLimitError extends Error {
  /** The `METHOD /path/:pattern` that hit the limit. */
  readonly key: string;

  constructor(key: string) {
    super(RATE_LIMIT_MESSAGE);
    this.name = 'RateLimitError';
    this.key = key;
  }
}

/** What the client needs from the app shell; set once with `configureApiClient`. */
export interface ApiClientHooks {
  /** Shows an error toast for a translation key. */
  toast(messageKey: string, options?: { defaultValue?: string; values?: Record<string, unknown> }): void;
  /** Moves the app to another route. */
  navigate(path: string): void;
  /** Partners whose users go to `/ntgr-signout` instead of a sign-in page (spec §6). */
  signOutPartners: string[];
}

/** Options of one call. */
export interface RequestOptions<E extends Endpoint> {
  /** Values of the path's `:params`, URL-encoded into the path. */
  params?: EndpointParams<E>;
  /** Query string; undefined values are dropped. */
  query?: EndpointQuery<E>;
  /** JSON body (POST, PUT, PATCH, DELETE). */
  body?: EndpointBody<E>;
  /** Multipart body for uploads; takes the place of `body`. */
  formData?: FormData;
  /** Cancels the call; its abort error is rethrown unchanged. */
  signal?: AbortSignal;
  /** Sent as the `Home-Plmn` header. */
  homePlmn?: string;
  /** Use the reports base (`{apiBase}/reports`). */
  reports?: boolean;
  /** Background call (polling): not counted in the calls in progress and no toast when rate-limited. */
  silent?: boolean;
}

const RATE_LIMIT_MESSAGE = 'Too many requests at a time, please wait before trying again.';
const GENERIC_FETCH_ERROR = 'Something went wrong while fetching data.';
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
/** Every method may be retried after a network failure; statuses are retried only for idempotent methods. */
const RETRY_METHODS: RetryOptions['methods'] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
const RETRY_STATUS_CODES = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];
/** Consecutive network failures after which the last retry sends the user to /network-error (spec §4). */
const NETWORK_FAILURES_BEFORE_ERROR_PAGE = 2;

const defaultHooks: ApiClientHooks = { toast: () => {}, navigate: () => {}, signOutPartners: [] };
let hooks: ApiClientHooks = defaultHooks;

/** Connects the client to the app's toasts and router. Missing members fall back to no-ops. */
export function configureApiClient(next: Partial<ApiClientHooks>): void {
  hooks = { ...defaultHooks, ...next };
}

// ---- Calls in progress (spec §4) ----

let inFlight = 0;
const inFlightListeners = new Set<(count: number) => void>();

function changeInFlight(delta: number): void {
  inFlight += delta;
  for (const listener of inFlightListeners) listener(inFlight);
}

/** Calls `listener` with the new count whenever a call begins or ends; returns the unsubscribe function. */
export function subscribeInFlight(listener: (count: number) => void): () => void {
  inFlightListeners.add(listener);
  return () => {
    inFlightListeners.delete(listener);
  };
}

/** The number of calls in progress. */
export function getInFlight(): number {
  return inFlight;
}

/** React hook: the number of calls in progress, re-rendering when it changes. */
export function useInFlightCount(): number {
  return useSyncExternalStore(subscribeInFlight, getInFlight, getInFlight);
}

// ---- Client-side rate limit (spec §7): a sliding window of send times per method+path pattern ----

const sendTimes = new Map<string, number[]>();

/** Records a send for `key` and returns true, or returns false when the window is already full. */
function takeRateLimitSlot(key: string): boolean {
  const now = Date.now();
  const recent = (sendTimes.get(key) ?? []).filter((time) => now - time < API_RATE_LIMIT.windowMs);
  if (recent.length >= API_RATE_LIMIT.max) {
    sendTimes.set(key, recent);
    return false;
  }
  recent.push(now);
  sendTimes.set(key, recent);
  return true;
}

// ---- URL ----

function apiBase(): string {
  return import.meta.env.VITE_API_BASE ?? '/api';
}

/** Fills Fastify-style `:params` (a trailing `?` marks an optional one) with URL-encoded values. */
function fillPath(path: string, params: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return path.replace(
    /(\/?):([A-Za-z_]\w*)(\?)?/g,
    (_match, slash: string, name: string, optional?: string) => {
      const value = values[name];
      if (value === undefined || value === null || value === '') {
        if (optional) return '';
        throw new Error(`Missing path parameter "${name}" for ${path}`);
      }
      return `${slash}${encodeURIComponent(String(value))}`;
    },
  );
}

// ---- Errors ----

/** Fetch failures without an answer: a network error or reset connection (TypeError), a timeout, an abort not asked for. */
function isNetworkFailure(error: Error): boolean {
  return error instanceof TypeError || isTimeoutError(error) || error.name === 'AbortError';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An `ApiError` from an answer body: its envelope when it is one, else `fallback`; with `Retry-After` in seconds. */
function toApiError(
  status: number,
  body: unknown,
  fallback: ErrorEnvelope,
  retryAfter?: string | null,
): ApiError {
  const envelope = ErrorEnvelope.safeParse(body);
  const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError(status, envelope.success ? envelope.data : fallback, seconds);
}

/** Spec §8: the session is gone — forget it and go to the right sign-in (or sign-out) page. */
function handleLostSession(): void {
  const partner = getStoredPartner();
  clearSession();
  if (partner && hooks.signOutPartners.includes(partner)) hooks.navigate('/ntgr-signout');
  else if (partner) hooks.navigate(`/${encodeURIComponent(partner)}/sign-in`);
  else hooks.navigate('/sign-in');
}

/** Thrown in development and tests when an answer does not match its endpoint's response schema. */
export class ContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

/**
 * Whether answers are checked against their contract: in development and in tests, where a server or a fixture
 * that drifted from the contract should fail loudly; never in a production build (Vite folds this to false).
 */
function checksAnswers(): boolean {
  return import.meta.env.DEV || import.meta.env.MODE === 'test';
}

/** Throws a {@link ContractError} naming the endpoint and the fields when `body` does not fit its response schema. */
function checkAnswer(endpoint: Endpoint, body: unknown): void {
  const result = endpoint.response.safeParse(body);
  if (result.success) return;
  const fields = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(answer)'}: ${issue.message}`)
    .join('; ');
  const message = `The answer to ${endpoint.method} ${endpoint.path} does not match its contract — ${fields}`;
  // The test runner reports the thrown error; in development the console also shows the answer itself.
  if (import.meta.env.MODE !== 'test') console.error(message, body);
  throw new ContractError(message);
}

/** Translation key for an error toast (spec §8): `error.{errcode}` for API errors, else the generic text. */
export function errorMessageKey(err: unknown): string {
  if (err instanceof ApiError && err.errcode) return `error.${err.errcode}`;
  if (err instanceof RateLimitError) return 'error.tooManyRequests';
  return 'error.genericFetchErrorText';
}

/**
 * The load-failure toast of spec §8. Cancelled calls stay quiet, and so do rate-limited ones, which were
 * toasted already when they were rejected.
 */
export function reportLoadFailure(err: unknown): void {
  if ((err as Error | null)?.name === 'AbortError' || err instanceof RateLimitError) return;
  const defaultValue = err instanceof ApiError ? err.message : GENERIC_FETCH_ERROR;
  hooks.toast(errorMessageKey(err), { defaultValue });
}

// ---- The call ----

/**
 * Calls an endpoint and resolves with its parsed JSON answer (undefined when it has no body).
 *
 * Rejects with `RateLimitError` (not sent), `ApiError` (error answer, or errcode 1 in any answer), the caller's
 * abort error unchanged, or the last network error / ky `TimeoutError` once the retries are spent.
 */
export async function request<E extends Endpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<EndpointResponse<E>> {
  const { signal, silent = false } = options;
  signal?.throwIfAborted();
  const base = options.reports ? `${apiBase()}/reports` : apiBase();
  const url = `${base}${fillPath(endpoint.path, options.params)}`;

  const limitKey = `${endpoint.method} ${endpoint.path}`;
  if (!takeRateLimitSlot(limitKey)) {
    if (!silent) hooks.toast('error.tooManyRequests', { defaultValue: RATE_LIMIT_MESSAGE });
    throw new RateLimitError(limitKey);
  }

  const isPublic = endpoint.access === 'public';
  const method = endpoint.method;
  const headers: Record<string, string> = {};
  if (options.homePlmn) headers['Home-Plmn'] = options.homePlmn;

  let consecutiveNetworkFailures = 0;
  const kyOptions: KyOptions = {
    method,
    headers,
    signal,
    timeout: NETWORK_TIMEOUT_MS,
    searchParams: options.query as SearchParamsOption,
    retry: {
      limit: RETRIES,
      methods: RETRY_METHODS,
      statusCodes: RETRY_STATUS_CODES,
      afterStatusCodes: RETRY_STATUS_CODES,
      maxRetryAfter: NETWORK_TIMEOUT_MS,
      delay: (attempt) => RETRY_DELAY_MS * attempt,
      retryOnTimeout: true,
      shouldRetry: ({ error, retryCount }) => {
        if (signal?.aborted) return false;
        if (isHTTPError(error)) {
          consecutiveNetworkFailures = 0;
          // Leave ky to check the status and honour Retry-After; writes are never repeated on a status.
          return IDEMPOTENT_METHODS.has(method) ? undefined : false;
        }
        if (!isNetworkFailure(error)) return false;
        consecutiveNetworkFailures += 1;
        if (retryCount >= RETRIES && consecutiveNetworkFailures >= NETWORK_FAILURES_BEFORE_ERROR_PAGE) {
          sessionStorage.setItem('networkError', 'true');
          hooks.navigate('/network-error');
          return false;
        }
        return true;
      },
    },
    hooks: {
      // Read per attempt, so a retry carries the session id current at that time.
      beforeRequest: [
        (req) => {
          if (isPublic) return;
          for (const [name, value] of Object.entries(credentialHeaders())) req.headers.set(name, value);
        },
      ],
    },
  };
  if (options.formData) kyOptions.body = options.formData;
  else if (method !== 'GET' && options.body !== undefined) kyOptions.json = options.body;

  if (!silent) changeInFlight(1);
  try {
    let response: Response;
    try {
      response = await ky(url, kyOptions);
    } catch (error) {
      if (!isHTTPError(error)) throw error;
      const { status, statusText } = error.response;
      const failure = toApiError(
        status,
        parseJson(await error.response.text()),
        { errcode: 7, code: 'internal_error', message: statusText || error.message },
        error.response.headers.get('retry-after'),
      );
      if (!isPublic && (failure.status === 401 || failure.errcode === 1)) handleUnauthenticated();
      throw failure;
    }

    const text = response.status === 204 ? '' : await response.text();
    if (text === '') return undefined as EndpointResponse<E>;
    const body = parseJson(text);
    if (body === undefined) {
      throw new ApiError(response.status, {
        errcode: 7,
        code: 'internal_error',
        message: 'Failed parsing to json',
      });
    }
    if (!isPublic && (body as { errcode?: unknown } | null)?.errcode === 1) {
      const failure = toApiError(response.status, body, {
        errcode: 1,
        code: 'unauthenticated',
        message: 'No valid session',
      });
      handleUnauthenticated();
      throw failure;
    }
    if (checksAnswers()) checkAnswer(endpoint, body);
    return body as EndpointResponse<E>;
  } finally {
    if (!silent) changeInFlight(-1);
  }
}
