import type { FastifyRequest } from 'fastify';

/**
 * What the server log must never hold: credentials. Three kinds reach a log line — in an address (an embed
 * link's `?token=`/`?sid=`, a mailed link's id in its path), in a header (`X-Auth-Token`, `Authorization`,
 * cookies) and as a prefixed secret quoted anywhere (an error message, a stack). {@link redactSecrets} replaces
 * every one in a whole serialised line, so whatever logs it — the request log, Fastify's own warnings, a module's
 * error — the line written is clean. The request serializer redacts the address too, so a line is clean before
 * it is even written.
 */
const REDACTED = '[redacted]';

/** Query parameters that carry a credential (case-insensitive). */
const CREDENTIAL_PARAMS = [
  'sid',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'code',
  'transid',
  'key',
  'secret',
  'password',
  'signature',
];

/**
 * Paths whose next segment is a credential: mailed links' ids (`/verify/:id`, `/invite/:transid`, the API's
 * `/user/verify/:transid` and `/trans/status/web/:transid`) and a device's enrolment link (`/enrol/:token`).
 * The fixed screens under `/verify/` are words, not ids, and stay.
 */
const CREDENTIAL_PATH =
  /(\/(?:verify\/wg|verify|invite|user\/verify|trans\/status\/web|enrol)\/)(?!(?:email|otp|sso)-verification\b|saml(?:success|failure)\/)[^/?#\s"'\\]+/gi;

/** The value of a credential parameter in an address, wherever the address is quoted (up to `&`, `#` or a quote). */
const CREDENTIAL_QUERY = new RegExp(`([?&](?:${CREDENTIAL_PARAMS.join('|')})=)[^&#\\s"'\\\\]*`, 'gi');

/** Secrets with a prefix of ours: API tokens (`pal_…`, `pal_enr_…`, `pal_dev_…`), gateways' and embed links'. */
const PREFIXED_SECRET = /\b((?:pal(?:_enr|_dev)?|gw|gwe|emb)_)[A-Za-z0-9_-]{16,}/g;

/** Headers that carry a credential, as a serialised object quotes them (`"authorization":"Bearer …"`). */
const CREDENTIAL_HEADER =
  /("(?:authorization|x-auth-token|cookie|set-cookie|proxy-authorization)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Replaces every credential in a text: an address, a serialised log line, a message. */
export function redactSecrets(text: string): string {
  return text
    .replace(CREDENTIAL_QUERY, `$1${REDACTED}`)
    .replace(CREDENTIAL_PATH, `$1${REDACTED}`)
    .replace(PREFIXED_SECRET, `$1${REDACTED}`)
    .replace(CREDENTIAL_HEADER, `$1"${REDACTED}"`);
}

/** An address as the request log keeps it: its credentials replaced ({@link redactSecrets}). */
export function loggedUrl(url: string): string {
  return redactSecrets(url);
}

/** Fastify's own request serializer, with the address through {@link loggedUrl}. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Where log lines go: anything with pino's `write(line)`. */
export interface LogSink {
  write(line: string): unknown;
}

/**
 * The log's destination with every line through {@link redactSecrets} first: the one place that sees each line
 * whole, whoever wrote it (Fastify quotes the raw address in some of its own warnings).
 */
export function redactingSink(sink: LogSink = process.stdout): LogSink {
  return { write: (line: string) => sink.write(redactSecrets(line)) };
}
