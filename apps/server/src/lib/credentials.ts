import { createHash } from 'node:crypto';

/**
 * Sessions, API tokens, enrolment tokens and mailed links are stored by the SHA-256 of their secret: a leaked
 * table holds no usable credential.
 */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Refresh a session's idle expiry or a token's last use at most this often, not on every call. */
export const CREDENTIAL_TOUCH_MS = 60_000;

/** The credential of `Authorization: Bearer <credential>`, or null when the header is absent or another scheme. */
export function bearerToken(authorization: unknown): string | null {
  if (typeof authorization !== 'string') return null;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match ? match[1] : null;
}
