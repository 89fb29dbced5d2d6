import { randomBytes } from 'node:crypto';
import {
  FEATURE_FLAGS,
  type FeatureFlag,
  LOCKOUT_MS,
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES,
  type ProfileInput,
  type Role,
  SESSION_DURATION_MS,
  type Session,
  type SignInResult,
  type SignUpInput,
} from '@palisade/contracts';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { tenants, users } from '../../db/schema';
import type { Actor } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken } from '../../plugins/auth';
import { recordEvent } from '../events/events.repository';
import { customRoleName, permissionsOf } from '../roles/roles.repository';
import * as repo from './session.repository';

const OTP_SIGN_IN_MS = 5 * 60_000;
const EMAIL_VERIFICATION_MS = 24 * 3_600_000;

const newId = () => randomBytes(32).toString('base64url');

export interface SessionDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
}

type ThemeValue = Session['tenantTheme'];
type PaletteValue = Session['tenantPalette'];

/** Features a tenant sees: all for the main admin tenant, configured ones for other named tenants. */
function featuresFor(config: Config, tenantName: string): FeatureFlag[] {
  if (tenantName === config.mainAdminTenant) return [...FEATURE_FLAGS];
  return config.featureTenants[tenantName] ?? [];
}

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
  return {
    userid: user.id,
    username: user.username,
    firstname: user.firstname,
    lastname: user.lastname,
    usertype: user.usertype,
    role: user.role as Role,
    permissions: await permissionsOf(db, user),
    customRoleName: await customRoleName(db, user.tenantId, user.customRoleId),
    tenant: tenant.name,
    tenantDisplayName: tenant.displayName,
    tenantKind: tenant.kind,
    managedTenants: await repo.managedTenantNames(db, user.role, tenant.id),
    partnername,
    features: featuresFor(deps.config, tenant.name),
    theme: (user.theme as ThemeValue | null) ?? null,
    palette: (user.palette as PaletteValue | null) ?? null,
    tenantTheme: tenant.themevalue as ThemeValue,
    tenantPalette: tenant.palette as PaletteValue,
    language: (user.language as Session['language']) ?? null,
    totpEnabled: user.isTotpEnabled,
    clientAuth: false,
    expiresAt: expiresAt.toISOString(),
  };
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

/** Counts a failure; the fifth within a minute locks the account. */
async function recordFailure(deps: SessionDeps, user: UserRow): Promise<AppError> {
  const now = Date.now();
  const isWindowOpen = user.firstFailedAt && now - user.firstFailedAt.getTime() < LOGIN_FAILURE_WINDOW_MS;
  const failures = isWindowOpen ? user.failedLogins + 1 : 1;
  const lockedUntil = failures >= LOGIN_MAX_FAILURES ? new Date(now + LOCKOUT_MS) : null;
  await repo.updateUser(deps.database.db, user.tenantId, user.id, {
    failedLogins: lockedUntil ? 0 : failures,
    firstFailedAt: isWindowOpen ? user.firstFailedAt : new Date(now),
    lockedUntil,
  });
  return lockedUntil
    ? lockedError(lockedUntil)
    : new AppError('invalid_credentials', 'Wrong e-mail or password.');
}

/** Password sign-in; answers a session, or a transaction for the TOTP step. */
export async function signIn(
  deps: SessionDeps,
  input: { username: string; password: string },
  meta: { ip: string | null; userAgent: string | null },
): Promise<SignInResult> {
  const user = await repo.findUserByUsername(deps.database.db, input.username);
  if (user?.lockedUntil && user.lockedUntil.getTime() > Date.now()) throw lockedError(user.lockedUntil);
  const isValid = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user) throw new AppError('invalid_credentials', 'Wrong e-mail or password.');
  if (!isValid) throw await recordFailure(deps, user);
  if (!user.isEmailVerified) throw new AppError('email_not_verified', 'Verify your e-mail address first.');
  if (user.isSuspended) throw new AppError('account_suspended', 'This account is suspended.');
  await repo.updateUser(deps.database.db, user.tenantId, user.id, {
    failedLogins: 0,
    firstFailedAt: null,
    lockedUntil: null,
  });
  if (user.isTotpEnabled) {
    const transid = newId();
    await repo.insertTransaction(deps.database.db, {
      id: transid,
      tenantId: user.tenantId,
      userId: user.id,
      kind: 'otp_sign_in',
      expiresAt: new Date(Date.now() + OTP_SIGN_IN_MS),
    });
    return { otpRequired: true, transid };
  }
  return createSession(deps, user, meta);
}

async function checkTotp(secret: string | null, code: string): Promise<boolean> {
  if (!secret) return false;
  const result = await verifyTotp({ secret, token: code, epochTolerance: 30 }).catch(() => ({
    valid: false,
  }));
  return result.valid;
}

/** Second step of sign-in: the TOTP code for a pending transaction. */
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
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now()) throw lockedError(user.lockedUntil);
  if (!(await checkTotp(user.totpSecret, input.code))) {
    const error = await recordFailure(deps, user);
    throw error.code === 'account_locked' ? error : new AppError('otp_invalid', 'The code is not valid.');
  }
  await repo.completeTransaction(deps.database.db, trans.id);
  return createSession(deps, user, meta);
}

export async function signOut(deps: SessionDeps, actor: Actor) {
  await repo.deleteSession(deps.database.db, actor.sessionHash);
}

async function sendVerification(deps: SessionDeps, user: { tenantId: string; id: string; email: string }) {
  const transid = newId();
  await repo.insertTransaction(deps.database.db, {
    id: transid,
    tenantId: user.tenantId,
    userId: user.id,
    kind: 'email_verification',
    expiresAt: new Date(Date.now() + EMAIL_VERIFICATION_MS),
  });
  const link = `${deps.config.publicUrl}/verify/${transid}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Verify your Palisade e-mail address',
    text: `Welcome to Palisade.\n\nOpen this link to verify your e-mail address:\n${link}\n\nOr enter this code at /verify/email-verification:\n${transid}\n\nThe link is valid for 24 hours.`,
  });
  return transid;
}

/** Sign-up: a new customer tenant, its owner, and a verification e-mail. */
export async function signUp(deps: SessionDeps, input: SignUpInput, ip: string | null) {
  const { db } = deps.database;
  if (await repo.findTenantByName(db, input.tenant)) {
    throw new AppError('tenant_exists', 'This workspace name is taken.', [
      { path: 'body.tenant', message: 'validation.tenantTaken' },
    ]);
  }
  if (await repo.findUserByUsername(db, input.email)) {
    throw new AppError('user_exists', 'An account with this e-mail exists.', [
      { path: 'body.email', message: 'validation.emailTaken' },
    ]);
  }
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(tenants)
      .values({
        name: input.tenant,
        displayName: input.organisation,
        kind: 'customer',
        themevalue: 'light',
        palette: 'classic',
      })
      .returning();
    const [owner] = await tx
      .insert(users)
      .values({
        tenantId: tenant.id,
        username: input.email,
        email: input.email,
        firstname: input.firstname,
        lastname: input.lastname,
        usertype: 1,
        role: 'owner',
        passwordHash,
      })
      .returning();
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
    return owner;
  });
  const transid = await sendVerification(deps, user);
  return { transid, email: user.email };
}

/** Sends a new verification e-mail when an unverified account exists; says nothing either way. */
export async function resendVerification(deps: SessionDeps, email: string) {
  const user = await repo.findUserByUsername(deps.database.db, email);
  if (user && !user.isEmailVerified) await sendVerification(deps, user);
}

async function loadVerification(deps: SessionDeps, transid: string) {
  const trans = await repo.findTransaction(deps.database.db, transid);
  if (trans?.kind !== 'email_verification') throw notFound('Transaction');
  const user = await repo.findUser(deps.database.db, trans.tenantId, trans.userId);
  if (!user) throw notFound('Transaction');
  return { trans, user };
}

/** `GET user/verify/{transid}`: marks the address verified. */
export async function verifyUser(deps: SessionDeps, transid: string) {
  const { trans, user } = await loadVerification(deps, transid);
  if (trans.status === 'pending') {
    if (trans.expiresAt.getTime() < Date.now()) {
      throw new AppError('transaction_expired', 'This link has expired. Ask for a new one.');
    }
    await deps.database.db.transaction(async (tx) => {
      await repo.completeTransaction(tx, trans.id);
      await repo.updateUser(tx, user.tenantId, user.id, { isEmailVerified: true });
    });
  }
  return { transid, userstatus: 'verified' as const };
}

/** `GET trans/status/web/{transid}`. */
export async function transStatus(deps: SessionDeps, transid: string) {
  const { trans, user } = await loadVerification(deps, transid);
  const isExpired = trans.status === 'pending' && trans.expiresAt.getTime() < Date.now();
  return {
    transid,
    transstatus: isExpired ? ('expired' as const) : trans.status,
    userstatus: user.isEmailVerified ? ('verified' as const) : ('pending' as const),
  };
}

export async function updateProfile(deps: SessionDeps, actor: Actor, input: ProfileInput) {
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, input);
  return presentSession(deps, actor.tenantId, actor.id, actor.sessionHash);
}

export async function changePassword(
  deps: SessionDeps,
  actor: Actor,
  input: { current: string; next: string },
) {
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user || !(await verifyPassword(user.passwordHash, input.current))) {
    throw new AppError('password_incorrect', 'The current password is not correct.', [
      { path: 'body.current', message: 'validation.passwordIncorrect' },
    ]);
  }
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    passwordHash: await hashPassword(input.next),
  });
}

/** Starts TOTP enrolment: a new secret, kept pending until a code proves the app has it. */
export async function startTotp(deps: SessionDeps, actor: Actor) {
  const secret = generateSecret();
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, { totpPendingSecret: secret });
  const otpauthUrl = generateURI({ issuer: 'Palisade', label: actor.username, secret });
  return { secret, otpauthUrl, qr: await QRCode.toDataURL(otpauthUrl) };
}

export async function confirmTotp(deps: SessionDeps, actor: Actor, code: string) {
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user || !(await checkTotp(user.totpPendingSecret, code))) {
    throw new AppError('otp_invalid', 'The code is not valid.', [
      { path: 'body.code', message: 'validation.otpInvalid' },
    ]);
  }
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    totpSecret: user.totpPendingSecret,
    totpPendingSecret: null,
    isTotpEnabled: true,
  });
}

export async function disableTotp(deps: SessionDeps, actor: Actor, code: string) {
  const user = await repo.findUser(deps.database.db, actor.tenantId, actor.id);
  if (!user || !(await checkTotp(user.totpSecret, code))) {
    throw new AppError('otp_invalid', 'The code is not valid.', [
      { path: 'body.code', message: 'validation.otpInvalid' },
    ]);
  }
  await repo.updateUser(deps.database.db, actor.tenantId, actor.id, {
    totpSecret: null,
    isTotpEnabled: false,
  });
}
