import { randomBytes } from 'node:crypto';
import {
  FAMILIAR_SOURCE_MS,
  isIpv4,
  LOCKOUT_MS,
  LOGIN_DELAY_AFTER_FAILURES,
  LOGIN_DELAY_MAX_MS,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES,
  normaliseCidr,
  type PasswordChangeInput,
  type PasswordChangeResult,
  type ProfileInput,
  type Reauthentication,
  type Role,
  SESSION_DURATION_MS,
  type Session,
  type SignInResult,
  type SignUpInput,
  unmapIpv4,
} from '@palisade/contracts';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Database, Tx } from '../../db/client';
import { uniqueViolationConstraint } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import { announceCredentialChange } from '../../lib/change-bus';
import type { Actor, Ctx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { AppError, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { assertPasswordAcceptable } from '../../lib/password-policy';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { SecretBox } from '../../lib/secret-box';
import { flagsOf, sessionFlags } from '../features/features.service';
import { customRoleName, permissionsOfUser } from '../roles/roles.service';
import { startTrial } from '../subscriptions/subscriptions.service';
import { revokeAllTokens } from '../tokens/tokens.service';
import * as repo from './session.repository';

const OTP_SIGN_IN_MS = 5 * 60_000;
const EMAIL_VERIFICATION_MS = 24 * 3_600_000;

const newId = () => randomBytes(32).toString('base64url');

export interface SessionDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
  /** Seals TOTP secrets at rest. */
  secrets: SecretBox;
}

/**
 * Where a sign-in comes from, as throttling counts it: the address, an IPv4-mapped one as its IPv4 address, or its
 * /64 network for IPv6 (normalised, `2001:db8:1:2::/64`; a zone id is dropped). Anything else counts as itself.
 */
export function sourceKey(ip: string | null): string {
  if (!ip) return 'unknown';
  const address = unmapIpv4(ip.split('%')[0]);
  if (address === null) return ip;
  if (isIpv4(address)) return address;
  // One host usually holds a whole /64: counting addresses inside it separately would let it rotate freely.
  return normaliseCidr(`${address}/64`) as string;
}

/**
 * Whether a User-Agent header is Internet Explorer's: `MSIE ` up to IE 10 (and IE 11 in compatibility view),
 * `Trident/` (its engine) in IE 11, which dropped `MSIE`. Edge, old (`Edge/`) or new (`Edg/`), names neither.
 */
export function isInternetExplorer(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && (userAgent.includes('MSIE ') || userAgent.includes('Trident/'));
}

/**
 * Refuses (403 `browser_unsupported`) a sign-in from Internet Explorer into a tenant whose `ieDisabled`
 * configuration flag is on (spec §6 "IE disabled"). Asked only once the credentials are right, so the answer
 * tells a stranger nothing; the flag is read only for Internet Explorer.
 */
async function assertBrowserAllowed(
  deps: SessionDeps,
  tenant: { id: string; name: string },
  userAgent: string | null,
) {
  if (!isInternetExplorer(userAgent)) return;
  const { configurations } = await flagsOf(deps, tenant);
  if (configurations.ieDisabled) {
    throw new AppError(
      'browser_unsupported',
      'This workspace does not allow Internet Explorer. Sign in with a current browser.',
    );
  }
}

type ThemeValue = Session['tenantTheme'];
type PaletteValue = Session['tenantPalette'];

/** The session as the client sees it. */
export async function presentSession(
  deps: SessionDeps,
  tenantId: string,
  userId: string,
  idHash: string,
): Promise<Session> {
  const { db } = deps.database;
  const user = await repo.findUser(db, tenantId, userId);
  const tenant = await repo.findTenantById(db, tenantId);
  if (!user || !tenant) throw notFound('Session');
  const parent = tenant.parentId ? await repo.findTenantById(db, tenant.parentId) : null;
  const partnername =
    tenant.kind === 'partner' ? tenant.name : parent?.kind === 'partner' ? parent.name : null;
  const expiresAt = (await repo.sessionExpiry(db, idHash)) ?? new Date(Date.now() + SESSION_DURATION_MS);
  const managed = await repo.managedTenants(db, user.role, tenant.id);
  const target = await repo.sessionTarget(db, idHash);
  return {
    userid: user.id,
    username: user.username,
    firstname: user.firstname,
    lastname: user.lastname,
    usertype: user.usertype,
    role: user.role as Role,
    permissions: await permissionsOfUser(db, user),
    customRoleName: await customRoleName(db, user.tenantId, user.customRoleId),
    tenant: tenant.name,
    tenantDisplayName: tenant.displayName,
    tenantKind: tenant.kind,
    managedTenants: managed.map((m) => m.name),
    managedTenantDisplayNames: Object.fromEntries(managed.map((m) => [m.name, m.displayName])),
    partnername,
    // The flags of the tenant the session works in: the one a partner's session opened, else its own.
    ...(await sessionFlags(
      deps,
      target?.tenantId ? { id: target.tenantId, name: target.name } : { id: tenant.id, name: tenant.name },
    )),
    theme: (user.theme as ThemeValue | null) ?? null,
    palette: (user.palette as PaletteValue | null) ?? null,
    tenantTheme: tenant.themevalue as ThemeValue,
    tenantPalette: tenant.palette as PaletteValue,
    language: (user.language as Session['language']) ?? null,
    totpEnabled: user.isTotpEnabled,
    clientAuth: false,
    expiresAt: expiresAt.toISOString(),
    target: target && { tenant: target.name, edit: target.edit === true },
  };
}

/**
 * Partner-edit mode: a partner's (or the platform's) session opens a tenant it manages in edit mode or read-only;
 * opening its own tenant closes it. The access check (plugins/auth.ts) holds writes to it. Not for API tokens
 * (`session` access).
 */
export async function openTarget(deps: SessionDeps, ctx: Ctx, edit: boolean): Promise<Session> {
  const own = ctx.tenant.id === ctx.actor.tenantId;
  await repo.setSessionTarget(
    deps.database.db,
    ctx.actor.sessionHash,
    own ? null : { tenantId: ctx.tenant.id, edit },
  );
  return presentSession(deps, ctx.actor.tenantId, ctx.actor.id, ctx.actor.sessionHash);
}

async function createSession(
  deps: SessionDeps,
  user: { tenantId: string; id: string },
  meta: { ip: string | null; userAgent: string | null },
) {
  const sessid = newId();
  const idHash = hashToken(sessid);
  await repo.insertSession(deps.database.db, {
    idHash,
    tenantId: user.tenantId,
    userId: user.id,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    expiresAt: new Date(Date.now() + SESSION_DURATION_MS),
  });
  return { ...(await presentSession(deps, user.tenantId, user.id, idHash)), sessid };
}

type UserRow = NonNullable<Awaited<ReturnType<typeof repo.findUserByUsername>>>;

function lockedError(until: Date) {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError('account_locked', 'Too many failed sign-ins. Try again later.', undefined, {
    'retry-after': String(seconds),
  });
}

const isLocked = (until: Date | null | undefined): until is Date =>
  Boolean(until && until.getTime() > Date.now());

/**
 * How long an account makes sources it does not know wait after its `failures`-th wrong password in a row: 1 s
 * at {@link LOGIN_DELAY_AFTER_FAILURES}, doubling with each further failure, at most {@link LOGIN_DELAY_MAX_MS}.
 */
export function accountDelayMs(failures: number): number {
  if (failures < LOGIN_DELAY_AFTER_FAILURES) return 0;
  return Math.min(1000 * 2 ** Math.min(failures - LOGIN_DELAY_AFTER_FAILURES, 30), LOGIN_DELAY_MAX_MS);
}

/**
 * Refuses (423, Retry-After) an attempt that throttling holds back: the source is locked out of this username, or
 * the account's delay since its last wrong password has not passed and the source is not one it signed in from.
 * Works the same whether or not the username has an account.
 */
async function assertNotThrottled(deps: SessionDeps, username: string, source: string) {
  const { db } = deps.database;
  const rows = await repo.readThrottle(db, username, source);
  if (isLocked(rows.source?.lockedUntil)) throw lockedError(rows.source.lockedUntil);
  const lastSuccess = rows.source?.lastSuccessAt?.getTime() ?? 0;
  const isFamiliar = Date.now() - lastSuccess < FAMILIAR_SOURCE_MS;
  const delay = accountDelayMs(rows.account?.failures ?? 0);
  if (isFamiliar || delay === 0) return;
  if (!(await repo.claimDelayedAttempt(db, username, delay))) {
    throw lockedError(new Date((rows.account?.lastFailedAt?.getTime() ?? Date.now()) + delay));
  }
}

const THROTTLE_LIMITS = {
  windowMs: LOGIN_FAILURE_WINDOW_MS,
  maxFailures: LOGIN_MAX_FAILURES,
  lockMs: LOCKOUT_MS,
};

/** Counts a wrong second-factor code: 423 when it locked the account, else `otp_invalid` (on `path` if given). */
async function wrongCode(deps: SessionDeps, user: { tenantId: string; id: string }, path?: string) {
  const lockedUntil = await repo.recordWrongCode(deps.database.db, user.tenantId, user.id, {
    maxFailures: LOGIN_MAX_FAILURES,
    lockMs: LOCKOUT_MS,
  });
  if (lockedUntil) return lockedError(lockedUntil);
  return new AppError(
    'otp_invalid',
    'The code is not valid.',
    path ? [{ path, message: 'validation.otpInvalid' }] : undefined,
  );
}

/** A sign-in that has proved everything it must: the source becomes familiar and the code count starts again. */
async function completeSignIn(
  deps: SessionDeps,
  user: UserRow,
  meta: { ip: string | null; userAgent: string | null },
) {
  await repo.markFamiliar(deps.database.db, user.username.toLowerCase(), sourceKey(meta.ip));
  if (user.totpFailures > 0) {
    await repo.updateUser(deps.database.db, user.tenantId, user.id, { totpFailures: 0 });
  }
  return createSession(deps, user, meta);
}

/**
 * Password sign-in; answers a session, or a transaction for the TOTP step. The password is checked (argon2) for
 * unknown usernames too, and throttling counts them alike, so neither the answer nor its time tells whether an
 * account exists. Only a right password learns more (not verified, suspended, locked by wrong codes, a browser the
 * tenant refuses).
 */
export async function signIn(
  deps: SessionDeps,
  input: { username: string; password: string },
  meta: { ip: string | null; userAgent: string | null },
): Promise<SignInResult> {
  const { db } = deps.database;
  const username = input.username.toLowerCase();
  const source = sourceKey(meta.ip);
  await assertNotThrottled(deps, username, source);
  const user = await repo.findUserByUsername(db, username);
  // A sign-up waiting for its e-mail: a right password hears that the address needs verifying.
  const [signup] = user ? [] : await repo.findPendingSignupsByEmail(db, username, { includeExpired: false });
  const isValid = await verifyPassword(user?.passwordHash ?? signup?.passwordHash ?? null, input.password);
  if (!isValid) {
    const lockedUntil = await repo.recordWrongPassword(db, username, source, THROTTLE_LIMITS);
    throw lockedUntil
      ? lockedError(lockedUntil)
      : new AppError('invalid_credentials', 'Wrong e-mail or password.');
  }
  await repo.clearWrongPasswords(db, username, source);
  if (!user?.isEmailVerified) {
    throw new AppError('email_not_verified', 'Verify your e-mail address first.');
  }
  if (isLocked(user.lockedUntil)) throw lockedError(user.lockedUntil);
  if (user.isSuspended) throw new AppError('account_suspended', 'This account is suspended.');
  const tenant = await repo.findTenantById(db, user.tenantId);
  // Deleted by its partner (migration 0037): suspended meanwhile, with its own answer.
  if (tenant?.deletionDueAt) {
    throw new AppError('tenant_pending_deletion', 'This workspace is scheduled for deletion.');
  }
  if (tenant?.suspendedAt) throw new AppError('tenant_suspended', 'This workspace is suspended.');
  // Before the second step too: a browser the tenant refuses is not asked for a code it cannot use.
  if (tenant) await assertBrowserAllowed(deps, tenant, meta.userAgent);
  if (user.isTotpEnabled) {
    const transid = newId();
    await repo.insertTransaction(db, {
      id: transid,
      tenantId: user.tenantId,
      userId: user.id,
      kind: 'otp_sign_in',
      expiresAt: new Date(Date.now() + OTP_SIGN_IN_MS),
    });
    return { otpRequired: true, transid };
  }
  return completeSignIn(deps, user, meta);
}

/** The additional data a user's TOTP secret is sealed with: it opens for that user only. */
const totpPurpose = (user: { tenantId: string; id: string }) => `totp:${user.tenantId}:${user.id}`;

async function checkTotp(
  deps: SessionDeps,
  user: { tenantId: string; id: string },
  sealed: string | null,
  code: string,
): Promise<boolean> {
  if (!sealed) return false;
  const secret = deps.secrets.open(sealed, totpPurpose(user));
  const result = await verifyTotp({ secret, token: code, epochTolerance: 30 }).catch(() => ({
    valid: false,
  }));
  return result.valid;
}

/**
 * Second step of sign-in: the TOTP code for a pending transaction. Wrong codes count toward the account's
 * lockout across password steps; only a completed sign-in starts the count again.
 */
export async function signInOtp(
  deps: SessionDeps,
  input: { transid: string; code: string },
  meta: { ip: string | null; userAgent: string | null },
) {
  const trans = await repo.findTransaction(deps.database.db, input.transid);
  if (trans?.kind !== 'otp_sign_in') throw notFound('Transaction');
  if (trans.status !== 'pending' || trans.expiresAt.getTime() < Date.now()) {
    throw new AppError('transaction_expired', 'This sign-in has expired. Sign in again.');
  }
  const user = await repo.findUser(deps.database.db, trans.tenantId, trans.userId);
  if (!user) throw notFound('Transaction');
  if (isLocked(user.lockedUntil)) throw lockedError(user.lockedUntil);
  if (!(await checkTotp(deps, user, user.totpSecret, input.code))) throw await wrongCode(deps, user);
  await repo.completeTransaction(deps.database.db, trans.id);
  // Asked again of the browser that finishes the sign-in (and of the flag as it is now); the step is spent.
  if (isInternetExplorer(meta.userAgent)) {
    const tenant = await repo.findTenantById(deps.database.db, user.tenantId);
    if (tenant) await assertBrowserAllowed(deps, tenant, meta.userAgent);
  }
  return completeSignIn(deps, user, meta);
}

/** Ends the session; its open live views end at once, on every instance. */
export async function signOut(deps: SessionDeps, actor: Actor) {
  await deps.database.db.transaction(async (tx) => {
    await repo.deleteSession(tx, actor.sessionHash);
    await announceCredentialChange(tx, `session:${actor.sessionHash}`);
  });
}

// ---- Sign-up ------------------------------------------------------------------------------------------------------

/** Mails the link that verifies a sign-up; its secret is kept only as a hash. */
async function mailVerification(deps: SessionDeps, email: string, secret: string) {
  const link = `${deps.config.publicUrl}/verify/${secret}`;
  await deps.mailer.send({
    to: email,
    subject: 'Verify your Palisade e-mail address',
    text: `Welcome to Palisade.\n\nOpen this link to verify your e-mail address:\n${link}\n\nOr enter this code at /verify/email-verification:\n${secret}\n\nThe link is valid for 24 hours.`,
  });
}

/** Tells the owner of an address that already has an account that someone signed up with it. */
async function mailAccountExists(deps: SessionDeps, email: string, tenantName: string) {
  await deps.mailer.send({
    to: email,
    subject: 'You already have a Palisade account',
    text: `Someone, perhaps you, tried to create the Palisade workspace "${tenantName}" with this e-mail address.\n\nThis address already has a Palisade account. Sign in here:\n${deps.config.publicUrl}/sign-in\n\nIf you forgot your password, ask an administrator of your organisation to help. If this was not you, you can ignore this e-mail: nothing was created.`,
  });
}

const tenantTaken = () =>
  new AppError('tenant_exists', 'This workspace name is taken.', [
    { path: 'body.tenant', message: 'validation.tenantTaken' },
  ]);

/**
 * Sign-up: reserves the workspace name for 24 hours and mails a verification link; the tenant and its owner are
 * created when the link is opened. An address that already has an account gets the same answer (and the
 * workspace name is reserved the same way), but its mail says so instead of carrying a link — the answer tells
 * nobody which addresses have accounts. A taken workspace name is said: it is a public name. Signing up again
 * with the same name and address starts the sign-up afresh.
 */
export async function signUp(deps: SessionDeps, input: SignUpInput) {
  const { db } = deps.database;
  assertPasswordAcceptable(
    input.password,
    {
      email: input.email,
      tenantName: input.tenant,
      words: [input.firstname, input.lastname, input.organisation],
    },
    'body.password',
  );
  if (await repo.findTenantByName(db, input.tenant)) throw tenantTaken();
  const reserved = await repo.findOpenSignupForTenant(db, input.tenant);
  if (reserved && reserved.email !== input.email) throw tenantTaken();
  // Hashed either way, so both answers take the same time.
  const passwordHash = await hashPassword(input.password);
  const hasAccount = Boolean(await repo.findUserByUsername(db, input.email));
  const secret = newId();
  const values = {
    statusId: newId(),
    verifyHash: hasAccount ? null : hashToken(secret),
    tenantName: input.tenant,
    organisation: input.organisation,
    firstname: input.firstname,
    lastname: input.lastname,
    email: input.email,
    passwordHash: hasAccount ? null : passwordHash,
    expiresAt: new Date(Date.now() + EMAIL_VERIFICATION_MS),
  };
  if (reserved) await repo.updateSignup(db, reserved.id, { ...values, createdAt: new Date() });
  else await repo.insertSignup(db, values);
  if (hasAccount) await mailAccountExists(deps, input.email, input.tenant);
  else await mailVerification(deps, input.email, secret);
  return { transid: values.statusId, email: input.email };
}

/**
 * Sends a new link for the address's waiting sign-up, valid 24 hours from now (the old link stops working). An
 * expired sign-up is opened again when its workspace name is still free. Says nothing either way.
 */
export async function resendVerification(deps: SessionDeps, email: string) {
  const { db } = deps.database;
  const [signup] = await repo.findPendingSignupsByEmail(db, email, { includeExpired: true });
  if (!signup) return;
  if (signup.expiresAt.getTime() < Date.now()) {
    const holder = await repo.findOpenSignupForTenant(db, signup.tenantName);
    if ((await repo.findTenantByName(db, signup.tenantName)) || (holder && holder.id !== signup.id)) return;
  }
  const secret = newId();
  await repo.updateSignup(db, signup.id, {
    verifyHash: hashToken(secret),
    expiresAt: new Date(Date.now() + EMAIL_VERIFICATION_MS),
  });
  await mailVerification(deps, email, secret);
}

const expired = () => new AppError('transaction_expired', 'This link has expired. Ask for a new one.');

/**
 * `GET user/verify/{secret}`: the mailed secret proves the mailbox; the workspace and its owner are created now.
 * Answers the id the web then polls (`GET trans/status/web/{transid}`). Opening the link again is harmless.
 */
export async function verifyUser(deps: SessionDeps, secret: string, ip: string | null) {
  const signup = await repo.findSignupByVerifyHash(deps.database.db, hashToken(secret));
  if (!signup) throw notFound('Transaction');
  if (signup.status === 'pending') {
    if (signup.expiresAt.getTime() < Date.now()) throw expired();
    await deps.database.db
      .transaction(async (tx) => {
        const { tenant, owner } = await repo.insertTenantWithOwner(tx, signup);
        await repo.updateSignup(tx, signup.id, {
          status: 'completed',
          completedAt: new Date(),
          createdTenantId: tenant.id,
        });
        const ctx = {
          tenant: { id: tenant.id, name: tenant.name, kind: tenant.kind },
          actor: { id: owner.id, username: owner.username },
          ip,
        };
        await recordEvent(tx, ctx, {
          action: 'tenant.create',
          objectType: 'tenant',
          objectId: tenant.id,
          objectName: tenant.name,
          after: { name: tenant.name, displayName: tenant.displayName },
        });
        // A signed-up workspace starts on the 14-day trial.
        await startTrial(tx, ctx);
      })
      .catch((error: unknown) => {
        // Taken meanwhile: the address (by an invitation, or another sign-up), or the workspace name.
        const constraint = uniqueViolationConstraint(error);
        if (constraint === null) throw error;
        throw constraint.startsWith('users')
          ? new AppError('user_exists', 'An account with this e-mail exists.')
          : tenantTaken();
      });
  }
  return { transid: signup.statusId, userstatus: 'verified' as const };
}

/** `GET trans/status/web/{transid}`: how a sign-up stands, by the id its answer gave (it verifies nothing). */
export async function transStatus(deps: SessionDeps, statusId: string) {
  const signup = await repo.findSignupByStatusId(deps.database.db, statusId);
  if (!signup) throw notFound('Transaction');
  const isCompleted = signup.status === 'completed';
  const isExpired = !isCompleted && signup.expiresAt.getTime() < Date.now();
  return {
    transid: statusId,
    transstatus: isCompleted
      ? ('completed' as const)
      : isExpired
        ? ('expired' as const)
        : ('pending' as const),
    userstatus: isCompleted ? ('verified' as const) : ('pending' as const),
  };
}

// ---- The signed-in user's own account ------------------------------------------------------------------------

export async function updateProfile(deps: SessionDeps, actor: Actor, input: ProfileInput) {
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, input);
  return presentSession(deps, actor.tenantId, actor.id, actor.sessionHash);
}

/**
 * Changes the password (the new one must meet the password policy), ends the account's other sessions (this one
 * stays) and, when asked, revokes its API tokens — all in one transaction, recorded in the admin event log.
 */
export async function changePassword(
  deps: SessionDeps,
  ctx: Ctx,
  input: z.output<typeof PasswordChangeInput>,
): Promise<PasswordChangeResult> {
  const { actor } = ctx;
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user || !(await verifyPassword(user.passwordHash, input.current))) {
    throw new AppError('password_incorrect', 'The current password is not correct.', [
      { path: 'body.current', message: 'validation.passwordIncorrect' },
    ]);
  }
  assertPasswordAcceptable(
    input.next,
    { email: user.email, tenantName: actor.tenantName, words: [user.firstname, user.lastname] },
    'body.next',
  );
  const passwordHash = await hashPassword(input.next);
  // `/me/password` names no tenant: the context's tenant is the actor's own.
  return deps.database.tenantTx(actor.tenantId, async (tx) => {
    await repo.updateUser(tx, actor.tenantId, actor.id, { passwordHash });
    const endedSessions = await repo.deleteOtherSessions(tx, actor.tenantId, actor.id, actor.sessionHash);
    const revokedTokens = input.revokeTokens ? await revokeAllTokens(tx, ctx, actor.id) : 0;
    // The account's open live views re-check at once: those of the ended sessions and revoked tokens end.
    await announceCredentialChange(tx, `user:${actor.id}`);
    await recordEvent(tx, ctx, {
      action: 'account.password.change',
      objectType: 'user',
      objectId: actor.id,
      objectName: user.username,
      after: { endedSessions, revokedTokens },
    });
    return { ok: true as const, endedSessions, revokedTokens };
  });
}

/**
 * Asks the signed-in person to prove who they are again before something that outlives the session (a long-lived
 * API token or embed link): their password, or a current TOTP code when they use one. Nothing given answers 403
 * `reauthentication_required`; a wrong password or code counts toward the account's lockout like a wrong code
 * (5 in a row lock it for 15 minutes, 423), so the step cannot be guessed through. `path` names the proof's field.
 */
export async function confirmIdentity(
  deps: SessionDeps,
  actor: Actor,
  proof: Reauthentication | undefined,
  path: string,
): Promise<void> {
  if (!proof?.password && !proof?.code) {
    throw new AppError(
      'reauthentication_required',
      'Confirm it is you: enter your password or a code from your authenticator app.',
      [{ path, message: 'validation.reauthRequired' }],
    );
  }
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user) throw notFound('User');
  if (isLocked(user.lockedUntil)) throw lockedError(user.lockedUntil);
  if (proof.code) {
    const isValid = user.isTotpEnabled && (await checkTotp(deps, user, user.totpSecret, proof.code));
    if (!isValid) throw await wrongCode(deps, user, `${path}.code`);
  } else if (!(await verifyPassword(user.passwordHash, proof.password ?? ''))) {
    const lockedUntil = await repo.recordWrongCode(deps.database.db, user.tenantId, user.id, {
      maxFailures: LOGIN_MAX_FAILURES,
      lockMs: LOCKOUT_MS,
    });
    if (lockedUntil) throw lockedError(lockedUntil);
    throw new AppError('password_incorrect', 'The password is not correct.', [
      { path: `${path}.password`, message: 'validation.passwordIncorrect' },
    ]);
  }
  if (user.totpFailures > 0) {
    await repo.updateUser(deps.database.db, user.tenantId, user.id, { totpFailures: 0 });
  }
}

/** Second-factor changes refuse (423) while wrong codes have locked the account. */
async function unlockedUser(deps: SessionDeps, actor: Actor) {
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user) throw notFound('User');
  if (isLocked(user.lockedUntil)) throw lockedError(user.lockedUntil);
  return user;
}

/** Starts TOTP enrolment: a new secret, kept pending (sealed) until a code proves the app has it. */
export async function startTotp(deps: SessionDeps, actor: Actor) {
  const user = await unlockedUser(deps, actor);
  const secret = generateSecret();
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    totpPendingSecret: deps.secrets.seal(secret, totpPurpose(user)),
  });
  const otpauthUrl = generateURI({ issuer: 'Palisade', label: actor.username, secret });
  return { secret, otpauthUrl, qr: await QRCode.toDataURL(otpauthUrl) };
}

export async function confirmTotp(deps: SessionDeps, actor: Actor, code: string) {
  const user = await unlockedUser(deps, actor);
  if (!(await checkTotp(deps, user, user.totpPendingSecret, code))) {
    throw await wrongCode(deps, user, 'body.code');
  }
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    totpSecret: user.totpPendingSecret,
    totpPendingSecret: null,
    isTotpEnabled: true,
    totpFailures: 0,
  });
}

export async function disableTotp(deps: SessionDeps, actor: Actor, code: string) {
  const user = await unlockedUser(deps, actor);
  if (!(await checkTotp(deps, user, user.totpSecret, code))) throw await wrongCode(deps, user, 'body.code');
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    totpSecret: null,
    isTotpEnabled: false,
    totpFailures: 0,
  });
}

/** Seals TOTP secrets stored in clear by an earlier version (start-up; idempotent). Answers how many users. */
export async function sealClearTotpSecrets(database: Database, secrets: SecretBox): Promise<number> {
  const rows = await repo.usersWithClearTotpSecrets(database.db);
  const seal = (value: string | null, user: { tenantId: string; id: string }) =>
    value === null || value.startsWith('v1.') ? value : secrets.seal(value, totpPurpose(user));
  for (const row of rows) {
    await repo.updateUser(database.db, row.tenantId, row.id, {
      totpSecret: seal(row.totpSecret, row),
      totpPendingSecret: seal(row.totpPendingSecret, row),
    });
  }
  return rows.length;
}

/** Signs an account out everywhere, in the caller's transaction (disabling an end user); answers how many ended. */
export async function endSessionsOf(tx: Tx, tenantId: string, userId: string) {
  const ended = await repo.deleteSessionsOf(tx, tenantId, userId);
  await announceCredentialChange(tx, `user:${userId}`);
  return ended;
}

/** Signs many accounts out everywhere, in the caller's transaction (a bulk disable); answers how many ended. */
export async function endSessionsOfUsers(tx: Tx, tenantId: string, userIds: string[]) {
  const ended = await repo.deleteSessionsOfUsers(tx, tenantId, userIds);
  // Past a hundred accounts one announcement for the tenant: its open views all check again, the others stay.
  if (userIds.length > 100) await announceCredentialChange(tx, `tenant:${tenantId}`);
  else await announceCredentialChange(tx, ...userIds.map((id) => `user:${id}` as const));
  return ended;
}

/**
 * When each of these accounts last signed in with their password, by lower-case username (absent: never since
 * sign-in hardening kept it): what the security-compliance report (modules/reports) checks.
 */
export async function lastSignIns(database: Database, usernames: string[]): Promise<Map<string, Date>> {
  const names = [...new Set(usernames.map((name) => name.toLowerCase()))];
  if (names.length === 0) return new Map();
  const rows = await repo.lastSuccessfulSignIns(database.db, names);
  return new Map(rows.flatMap((row) => (row.at ? [[row.username, new Date(row.at)] as const] : [])));
}

/** The language an account chose for the console, or null (the browser's): a report's PDF is written in it. */
export async function accountLanguage(database: Database, tenantId: string, userId: string) {
  const user = await repo.findUser(database.db, tenantId, userId);
  return (user?.language as Session['language'] | undefined) ?? null;
}
