import { z } from 'zod';
import { Email, NonEmpty, Ok, TenantName } from './common';
import { LOCALES, PALETTES, THEMES } from './constants';
import { endpoint } from './endpoint';
import { ConfigFlagValues, FEATURE_FLAGS } from './features';
import { PermissionSchema, ROLES } from './roles';

export const TenantKind = z.enum(['platform', 'partner', 'customer']);
export type TenantKind = z.infer<typeof TenantKind>;

/** What the client knows about the signed-in user (spec §3 Session, §6 role and flags). */
export const Session = z.object({
  sessid: z.string().optional(),
  userid: z.string(),
  username: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  usertype: z.number().int(),
  role: z.enum(ROLES),
  /** What this user may do: the built-in role's permissions, or the custom role's. */
  permissions: z.array(PermissionSchema),
  /** Name of the custom role when `role` is `custom`. */
  customRoleName: z.string().nullable(),
  tenant: z.string(),
  tenantDisplayName: z.string(),
  tenantKind: TenantKind,
  /** Tenants this user may administer besides its own (partner and platform administrators). */
  managedTenants: z.array(z.string()),
  /** The display name of each of `managedTenants`, by name: what the tenant switcher shows. */
  managedTenantDisplayNames: z.record(z.string(), z.string()),
  partnername: z.string().nullable(),
  /** The features of the tenant the session works in (the one it opened, else its own): spec §2, §6. */
  features: z.array(z.enum(FEATURE_FLAGS)),
  /** The configuration flags of that tenant (`/configurations`); absent from older servers (then the defaults). */
  configurations: ConfigFlagValues.optional(),
  theme: z.enum(THEMES).nullable(),
  palette: z.enum(PALETTES).nullable(),
  tenantTheme: z.enum(THEMES),
  tenantPalette: z.enum(PALETTES),
  language: z.enum(LOCALES).nullable(),
  totpEnabled: z.boolean(),
  clientAuth: z.boolean(),
  expiresAt: z.iso.datetime(),
  /**
   * The managed tenant a partner's session opened, and whether in edit mode (partner-edit mode, spec §3/§6): writes
   * there need `edit`; the session writes in no other managed tenant. Null when it opened none.
   */
  target: z.object({ tenant: z.string(), edit: z.boolean() }).nullable().optional(),
});
export type Session = z.infer<typeof Session>;

/**
 * The spec's session-stored `target` value of an opened tenant: a comma list of key:value pairs whose last item
 * `true` marks partner edit allowed; `wsEditAllowed` marks that a partner opened it.
 */
export function formatTarget(target: { tenant: string; edit: boolean }, partner: string): string {
  return [`tenant:${target.tenant}`, `partner:${partner}`, 'wsEditAllowed:true', String(target.edit)].join(
    ',',
  );
}

/** Reads a `target` value back: the tenant, the partner, and whether edit is allowed; null when it is none. */
export function parseTarget(value: string | null | undefined) {
  if (!value) return null;
  const items = value.split(',');
  const pairs = Object.fromEntries(
    items.filter((item) => item.includes(':')).map((item) => item.split(':', 2) as [string, string]),
  );
  if (!pairs.tenant) return null;
  return {
    tenant: pairs.tenant,
    partner: pairs.partner ?? null,
    fromPartner: pairs.wsEditAllowed === 'true',
    edit: items[items.length - 1] === 'true',
  };
}

export const SignInInput = z.object({
  username: Email,
  password: z.string().min(1, { message: 'validation.required' }).max(1024),
});
export type SignInInput = z.infer<typeof SignInInput>;

/** Sign-in answers a session, or asks for the second factor on a short-lived transaction. */
export const SignInResult = z.union([
  Session.extend({ sessid: z.string() }),
  z.object({ otpRequired: z.literal(true), transid: z.string() }),
]);
export type SignInResult = z.infer<typeof SignInResult>;

export const OtpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'validation.otp' });
export const OtpSignInInput = z.object({ transid: z.string().min(1).max(200), code: OtpCode });

/**
 * Passwords: 10 to 256 characters. The server also refuses guessable ones (a zxcvbn score below
 * {@link PASSWORD_MIN_SCORE}) and ones containing the e-mail address or the workspace name.
 */
export const Password = z.string().min(10, { message: 'validation.passwordTooShort' }).max(256);

/** The lowest zxcvbn score (0–4) a new password may have: 3 is "safely unguessable" (10^8 guesses and more). */
export const PASSWORD_MIN_SCORE = 3;

/**
 * The reasons zxcvbn gives for a guessable password; the server answers `validation.passwordGuessable.<reason>`
 * (or `validation.passwordGuessable.default` when it gives none).
 */
export const PASSWORD_WEAKNESSES = [
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
  'pwned',
] as const;
export type PasswordWeakness = (typeof PASSWORD_WEAKNESSES)[number];

export const SignUpInput = z.object({
  tenant: TenantName,
  organisation: NonEmpty(100),
  firstname: NonEmpty(100),
  lastname: NonEmpty(100),
  email: Email,
  password: Password,
});
export type SignUpInput = z.infer<typeof SignUpInput>;

/**
 * The answer to a sign-up, the same whether the e-mail address is free or already has an account: `transid` is
 * the id the web polls with `GET trans/status/web/{transid}`. It does not verify anything; the secret that does
 * travels only in the e-mail.
 */
export const SignUpResult = z.object({ transid: z.string(), email: z.string() });

export const UserVerifyResult = z.object({
  transid: z.string(),
  userstatus: z.enum(['verified', 'pending']),
});
export const TransStatus = z.object({
  transid: z.string(),
  transstatus: z.enum(['pending', 'completed', 'expired']),
  userstatus: z.enum(['verified', 'pending']),
});
export type TransStatus = z.infer<typeof TransStatus>;

export const ResendInput = z.object({ email: Email });

/** Public branding of a partner's sign-in page. */
export const PartnerBranding = z.object({
  name: z.string(),
  displayName: z.string(),
  primaryColor: z.string().nullable(),
  /** The second colour of a partner's settings (migration 0037); absent from older servers. */
  accentColor: z.string().nullable().optional(),
  /** The logo's public address (`/api/partner/{name}/logo?v=…`), or null. */
  logo: z.string().nullable(),
});
export type PartnerBranding = z.infer<typeof PartnerBranding>;

export const ProfileInput = z.object({
  firstname: NonEmpty(100),
  lastname: NonEmpty(100),
  language: z.enum(LOCALES).nullable(),
  theme: z.enum(THEMES).nullable(),
  palette: z.enum(PALETTES).nullable(),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const PasswordChangeInput = z.object({
  current: z.string().min(1, { message: 'validation.required' }).max(1024),
  next: Password,
  /** Also revoke every API token of the account (its other sessions end in any case). */
  revokeTokens: z.boolean().default(false),
});
export type PasswordChangeInput = z.input<typeof PasswordChangeInput>;

/** What a password change ended besides the password: the account's other sessions, and its tokens if asked. */
export const PasswordChangeResult = z.object({
  ok: z.literal(true),
  endedSessions: z.number().int(),
  revokedTokens: z.number().int(),
});
export type PasswordChangeResult = z.infer<typeof PasswordChangeResult>;
export const TotpEnrolment = z.object({ secret: z.string(), otpauthUrl: z.string(), qr: z.string() });
export const TotpCodeInput = z.object({ code: OtpCode });

const PartnerParams = z.object({ name: TenantName });
const TransParams = z.object({ transid: z.string().min(1).max(200) });

export const sessionEndpoints = {
  signIn: endpoint({
    method: 'POST',
    path: '/session',
    access: 'public',
    summary: 'Sign in',
    tags: ['session'],
    body: SignInInput,
    response: SignInResult,
  }),
  signInOtp: endpoint({
    method: 'POST',
    path: '/session/otp',
    access: 'public',
    summary: 'Complete sign-in with a TOTP code',
    tags: ['session'],
    body: OtpSignInInput,
    response: Session.extend({ sessid: z.string() }),
  }),
  getSession: endpoint({
    method: 'GET',
    path: '/session',
    access: 'session',
    summary: 'The current session',
    tags: ['session'],
    response: Session,
  }),
  openTarget: endpoint({
    method: 'PUT',
    path: '/session/target/:tenant',
    access: 'session',
    summary: 'Opens a managed tenant in edit mode or read-only (partner-edit mode); the own tenant clears it',
    tags: ['session'],
    params: z.object({ tenant: TenantName }),
    body: z.object({ edit: z.boolean() }),
    response: Session,
  }),
  signOut: endpoint({
    method: 'DELETE',
    path: '/session',
    access: 'session',
    summary: 'Sign out',
    tags: ['session'],
    response: Ok,
  }),
  signUp: endpoint({
    method: 'POST',
    path: '/signup',
    access: 'public',
    summary: 'Create a tenant and its owner',
    tags: ['session'],
    body: SignUpInput,
    response: SignUpResult,
    status: 201,
  }),
  resendVerification: endpoint({
    method: 'POST',
    path: '/signup/resend',
    access: 'public',
    summary: 'Send the verification e-mail again',
    tags: ['session'],
    body: ResendInput,
    response: Ok,
    status: 202,
  }),
  verifyUser: endpoint({
    method: 'GET',
    path: '/user/verify/:transid',
    access: 'public',
    summary: 'Verify an e-mail address',
    tags: ['session'],
    params: TransParams,
    response: UserVerifyResult,
  }),
  transStatus: endpoint({
    method: 'GET',
    path: '/trans/status/web/:transid',
    access: 'public',
    summary: 'Status of a transaction',
    tags: ['session'],
    params: TransParams,
    response: TransStatus,
  }),
  partnerBranding: endpoint({
    method: 'GET',
    path: '/partner/:name',
    access: 'public',
    summary: "A partner's sign-in branding",
    tags: ['session'],
    params: PartnerParams,
    response: PartnerBranding,
  }),
  updateProfile: endpoint({
    method: 'PUT',
    path: '/me',
    access: 'session',
    summary: 'Update my profile and preferences',
    tags: ['me'],
    body: ProfileInput,
    response: Session,
  }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/me/password',
    access: 'session',
    summary: 'Change my password; ends my other sessions and, if asked, revokes my API tokens',
    tags: ['me'],
    body: PasswordChangeInput,
    response: PasswordChangeResult,
  }),
  startTotp: endpoint({
    method: 'POST',
    path: '/me/totp',
    access: 'session',
    summary: 'Start TOTP enrolment',
    tags: ['me'],
    response: TotpEnrolment,
  }),
  confirmTotp: endpoint({
    method: 'POST',
    path: '/me/totp/verify',
    access: 'session',
    summary: 'Confirm TOTP enrolment',
    tags: ['me'],
    body: TotpCodeInput,
    response: Ok,
  }),
  disableTotp: endpoint({
    method: 'DELETE',
    path: '/me/totp',
    access: 'session',
    summary: 'Turn TOTP off',
    tags: ['me'],
    body: TotpCodeInput,
    response: Ok,
  }),
};
