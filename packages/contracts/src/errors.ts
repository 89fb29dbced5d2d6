import { z } from 'zod';

/**
 * Stable error catalogue shared by server and web. `errcode` is the number the client translates
 * (`error.{errcode}`); `code` is the stable snake_case name. errcode 1 always means "no valid session" (spec §8).
 */
export const ERRORS = {
  unauthenticated: { errcode: 1, status: 401 },
  validation_failed: { errcode: 2, status: 400 },
  forbidden: { errcode: 3, status: 403 },
  not_found: { errcode: 4, status: 404 },
  conflict: { errcode: 5, status: 409 },
  rate_limited: { errcode: 6, status: 429 },
  internal_error: { errcode: 7, status: 500 },
  invalid_credentials: { errcode: 8, status: 401 },
  account_locked: { errcode: 9, status: 423 },
  email_not_verified: { errcode: 10, status: 403 },
  otp_required: { errcode: 11, status: 401 },
  otp_invalid: { errcode: 12, status: 400 },
  user_exists: { errcode: 13, status: 409 },
  tenant_exists: { errcode: 14, status: 409 },
  transaction_expired: { errcode: 15, status: 410 },
  password_incorrect: { errcode: 16, status: 400 },
  last_owner: { errcode: 17, status: 409 },
  account_suspended: { errcode: 18, status: 403 },
  policy_tests_failed: { errcode: 19, status: 409 },
  object_in_use: { errcode: 20, status: 409 },
  tenant_suspended: { errcode: 21, status: 403 },
  partner_read_only: { errcode: 22, status: 403 },
  seat_limit_reached: { errcode: 23, status: 409 },
  payment_declined: { errcode: 24, status: 402 },
  trial_not_cancellable: { errcode: 25, status: 409 },
  /** The payment webhook without PAYMENT_WEBHOOK_SECRET (docs/subscriptions.md): nothing is accepted. */
  payment_webhook_closed: { errcode: 30, status: 503 },
  tenant_pending_deletion: { errcode: 27, status: 403 },
  feature_disabled: { errcode: 26, status: 403 },
  /**
   * A long-lived credential (an API token or embed link past 30 days, tokens.ts `REAUTH_AFTER_DAYS`) asks for the
   * password or a TOTP code again. 403, never 401: the session itself is fine.
   */
  reauthentication_required: { errcode: 28, status: 403 },
  report_mail_quota: { errcode: 33, status: 429 },
  report_recipients_unverified: { errcode: 34, status: 409 },
  report_recipient_recently_mailed: { errcode: 35, status: 429 },
  /** The same user (or tunnel address) already waits for a decision on this host. */
  access_request_pending: { errcode: 36, status: 409 },
  /** An access request already approved, declined or expired. */
  access_request_decided: { errcode: 37, status: 409 },
  /** Approving needs the user or device behind the request's tunnel address; it named none. */
  access_request_no_identity: { errcode: 38, status: 409 },
  /** A device without a tunnel now (not active, or no WireGuard key): there is no configuration to hand out. */
  device_no_tunnel: { errcode: 44, status: 409 },
  /**
   * Sign-in from Internet Explorer into a tenant whose `ieDisabled` configuration flag is on (spec §6); said only
   * once the credentials are right, and no session is made.
   */
  browser_unsupported: { errcode: 45, status: 403 },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/**
 * Per-field problem in a 400 answer: `path` is the dotted field name, `message` a translation key, `values`
 * (optional) what the message is about — the offending item of a list field (`{ item: 'example.com' }`).
 */
export const ErrorDetail = z.object({
  path: z.string(),
  message: z.string(),
  values: z.record(z.string(), z.string()).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** The one error envelope every API error uses. */
export const ErrorEnvelope = z.object({
  errcode: z.number().int(),
  code: z.string(),
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
  /** `policy_tests_failed`: the pinned expectations the refused change would break (policies.ts PolicyTestFailure). */
  failures: z.array(z.unknown()).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
