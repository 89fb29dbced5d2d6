import { randomBytes } from 'node:crypto';
import {
  type ConfirmedRecipient,
  type Locale,
  REPORT_MAIL_QUOTAS,
  REPORT_RECIPIENT_LINK_DAYS,
  REPORT_RECIPIENT_RESEND_MINUTES,
  type ReportMailQuota,
  type ReportRecipient,
} from '@palisade/contracts';
import type { Config } from '../../config';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { hashToken } from '../../lib/credentials';
import { AppError, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { adminSecurityFacts } from '../admins/admins.service';
import { subscriptionSummaries } from '../subscriptions/subscriptions.service';
import { getTenant } from '../tenants/tenants.service';
import { REPORT_LABELS } from './reports.labels';
import * as repo from './reports.repository';

/*
 * Who may be mailed a report, and how many mails a tenant may send (issue 31: reports are no mail relay).
 * - A recipient is mailed reports when it is an active administrator of the tenant (a member: an account whose
 *   invitation link proved the mailbox, matched without case), or an outside address that confirmed the link of
 *   its verification mail. End users are not members: administrators create them with any address.
 * - An outside address gets one verification mail per tenant, when a schedule first names it; another only when
 *   an administrator asks for it, at most every REPORT_RECIPIENT_RESEND_MINUTES. The link's secret is kept as its
 *   SHA-256 only, is valid REPORT_RECIPIENT_LINK_DAYS and confirms once.
 * - Every mail of this module — reports and verification mails — counts for the tenant's hourly and daily quota
 *   (REPORT_MAIL_QUOTAS, lower on the trial plan). A mailing that would pass it sends nothing.
 * - Subjects and texts are our templates (reports.labels.ts); the only words of the tenant in them are its
 *   display name, made safe by {@link mailSafeName}.
 */

export interface ReportDeps {
  database: Database;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl'>;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The longest tenant name a mail carries, in characters. */
export const MAIL_NAME_MAX = 60;

/**
 * A tenant's display name as our mail templates carry it: compatibility-normalised, with only letters, marks,
 * digits, spaces and `. , & ' ( ) + - _` kept — so no line breaks (no header injection), no control or format
 * characters (no bidi tricks), no markup and no `:`, `@` or `/` for links and addresses — each run of anything
 * else one space, at most {@link MAIL_NAME_MAX} characters (cut with "…"). Empty after that: `fallback`.
 */
export function mailSafeName(value: string, fallback: string): string {
  const cleaned = value
    .normalize('NFKC')
    .replace(/[^\p{L}\p{M}\p{N} .,&'()+\-_]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  const chars = [...cleaned];
  const capped =
    chars.length > MAIL_NAME_MAX
      ? `${chars
          .slice(0, MAIL_NAME_MAX - 1)
          .join('')
          .trimEnd()}…`
      : cleaned;
  return capped || fallback;
}

/** The tenant's name for our mail templates (see {@link mailSafeName}). */
export async function tenantMailName(database: Database, ctx: Ctx): Promise<string> {
  const tenant = await getTenant(database, ctx);
  return mailSafeName(tenant.displayName, mailSafeName(tenant.name, 'Palisade'));
}

/** The tenant's active administrators' addresses, lower-case: the recipients mailed without confirming. */
export async function memberAddresses(database: Database, tenantId: string): Promise<Set<string>> {
  const admins = await adminSecurityFacts(database, tenantId);
  return new Set(
    admins.filter((admin) => admin.status === 'active').map((admin) => admin.username.toLowerCase()),
  );
}

/** The tenant's mail quota: the trial's while it is on the trial plan, else the standard one. */
export async function mailQuotaOf(database: Database, tenantId: string): Promise<ReportMailQuota> {
  const summary = (await subscriptionSummaries(database, [tenantId])).get(tenantId);
  const isTrial = summary?.plan === 'trial' || summary?.status === 'trial';
  return isTrial ? REPORT_MAIL_QUOTAS.trial : REPORT_MAIL_QUOTAS.standard;
}

/** How long until `n` more mails fit in a window holding `times` (oldest first) with room for `limit`. */
function waitFor(times: Date[], n: number, limit: number, window: number, now: number): number {
  const over = times.length + n - limit;
  if (over <= 0) return 0;
  // The over-th oldest mail has to leave the window; more than the whole limit never fits.
  const leaving = times[over - 1];
  return leaving ? leaving.getTime() + window - now : window;
}

const quotaExceeded = (retryAfterMs: number) => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'report_mail_quota',
    `This workspace has sent as many report mails as its quota allows; try again in ${seconds} s.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
};

/**
 * Counts `n` mails of `kind` against the tenant's quota at `now`, in the caller's transaction (they count from
 * now, sent or not), or refuses them all (429 `report_mail_quota`, Retry-After) when they would pass the hourly
 * or the daily quota. The count is locked until the transaction ends, so mailings at once cannot both take the
 * last of it.
 */
export async function takeMailQuota(
  tx: Tx,
  tenantId: string,
  quota: ReportMailQuota,
  kind: 'report' | 'verification',
  n: number,
  now: Date,
): Promise<void> {
  if (n <= 0) return;
  await repo.lockMailQuota(tx, tenantId);
  const at = now.getTime();
  await repo.purgeMails(tx, tenantId, new Date(at - 2 * DAY));
  const day = await repo.mailTimesSince(tx, tenantId, new Date(at - DAY));
  const hour = day.filter((sent) => sent.getTime() > at - HOUR);
  const wait = Math.max(waitFor(hour, n, quota.perHour, HOUR, at), waitFor(day, n, quota.perDay, DAY, at));
  if (wait > 0) throw quotaExceeded(wait);
  await repo.insertMails(tx, tenantId, kind, n, now);
}

/** A new confirmation link: its secret (mailed, never stored) and what is stored of it. */
function newLink(now: Date): { token: string; link: repo.RecipientLink } {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    link: {
      tokenHash: hashToken(token),
      tokenExpiresAt: new Date(now.getTime() + REPORT_RECIPIENT_LINK_DAYS * DAY),
      mailedAt: now,
    },
  };
}

/** A verification mail to send once the transaction that stored its link has committed. */
export interface PendingMail {
  email: string;
  token: string;
  language: Locale;
  mailedAt: Date;
}

/**
 * Stores a link for each address of `recipients` that is neither a member nor known to the tenant yet, in the
 * caller's transaction, and counts their verification mails against the quota (refusing the whole change when
 * they would pass it). Answers the mails to send after the commit ({@link sendVerificationMails}).
 */
export async function addRecipients(
  tx: Tx,
  tenantId: string,
  recipients: readonly string[],
  facts: { members: Set<string>; quota: ReportMailQuota; language: Locale; now: Date },
): Promise<PendingMail[]> {
  const outside = recipients.filter((email) => !facts.members.has(email));
  const known = new Set((await repo.recipientsOf(tx, tenantId, outside)).map((row) => row.email));
  const fresh = outside.filter((email) => !known.has(email));
  if (fresh.length === 0) return [];
  const links = fresh.map((email) => ({ email, ...newLink(facts.now) }));
  const added = new Set(
    await repo.insertPendingRecipients(
      tx,
      tenantId,
      links.map(({ email, link }) => ({ email, language: facts.language, ...link })),
    ),
  );
  const mails = links
    .filter(({ email }) => added.has(email))
    .map(({ email, token }) => ({ email, token, language: facts.language, mailedAt: facts.now }));
  await takeMailQuota(tx, tenantId, facts.quota, 'verification', mails.length, facts.now);
  return mails;
}

/** The link a verification mail carries: the public page that confirms it. */
const confirmLink = (deps: ReportDeps, token: string) =>
  `${deps.config.publicUrl}/verify/report-recipient/${token}`;

/**
 * Sends the verification mails of committed links, each in its language, with our template and the tenant's safe
 * name only. A mail that could not be sent is marked so (not mailed): the screen offers to send it again.
 */
export async function sendVerificationMails(
  deps: ReportDeps,
  tenantId: string,
  tenantName: string,
  mails: readonly PendingMail[],
): Promise<void> {
  for (const mail of mails) {
    const labels = REPORT_LABELS[mail.language].mail;
    try {
      await deps.mailer.send({
        to: mail.email,
        subject: labels.verifySubject(tenantName),
        text: labels.verifyBody(tenantName, confirmLink(deps, mail.token), REPORT_RECIPIENT_LINK_DAYS),
      });
    } catch {
      await deps.database.tenantTx(tenantId, (tx) =>
        repo.unmarkMailed(tx, tenantId, mail.email, mail.mailedAt),
      );
    }
  }
}

/** Whether each address is mailed: member, verified, pending or expired (see ReportRecipient). */
export function stateOf(
  email: string,
  members: Set<string>,
  row: repo.RecipientRow | undefined,
  now: number,
): ReportRecipient {
  if (members.has(email)) return { email, state: 'member', mailedAt: null, expiresAt: null };
  if (row?.verifiedAt)
    return { email, state: 'verified', mailedAt: row.mailedAt?.toISOString() ?? null, expiresAt: null };
  const expiresAt = row?.tokenExpiresAt ?? null;
  return {
    email,
    state: expiresAt && expiresAt.getTime() <= now ? 'expired' : 'pending',
    mailedAt: row?.mailedAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
  };
}

/** The recipients of a mailing that are mailed (members and verified) and those still waiting. */
export async function deliverable(
  database: Database,
  tenantId: string,
  recipients: readonly string[],
): Promise<{ to: string[]; waiting: string[] }> {
  const members = await memberAddresses(database, tenantId);
  const rows = await database.tenantTx(tenantId, (tx) => repo.recipientsOf(tx, tenantId, recipients));
  const verified = new Set(rows.filter((row) => row.verifiedAt).map((row) => row.email));
  const to = recipients.filter((email) => members.has(email) || verified.has(email));
  return { to, waiting: recipients.filter((email) => !to.includes(email)) };
}

/**
 * Mails a recipient of the tenant's schedules a new confirmation link (the old one stops working): not before
 * REPORT_RECIPIENT_RESEND_MINUTES after the last (429 `report_recipient_recently_mailed`), and counted against
 * the quota. A member or a confirmed address is answered as it is, mailed nothing. 404 for an address no
 * schedule of the tenant names.
 */
export async function resendRecipientLink(
  deps: ReportDeps,
  ctx: Ctx,
  email: string,
  named: (tx: Tx) => Promise<{ language: Locale } | null>,
  now = new Date(),
): Promise<ReportRecipient> {
  const { database } = deps;
  const tenantId = ctx.tenant.id;
  const [members, quota, tenantName] = await Promise.all([
    memberAddresses(database, tenantId),
    mailQuotaOf(database, tenantId),
    tenantMailName(database, ctx),
  ]);
  const result = await database.tenantTx(tenantId, async (tx) => {
    const schedule = await named(tx);
    if (!schedule) throw notFound('Report recipient');
    const [row] = await repo.recipientsOf(tx, tenantId, [email]);
    if (members.has(email) || row?.verifiedAt) return { state: stateOf(email, members, row, now.getTime()) };
    const wait = row?.mailedAt
      ? row.mailedAt.getTime() + REPORT_RECIPIENT_RESEND_MINUTES * MINUTE - now.getTime()
      : 0;
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new AppError(
        'report_recipient_recently_mailed',
        `A confirmation link was mailed to this address less than ${REPORT_RECIPIENT_RESEND_MINUTES} minutes ago.`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    const { token, link } = newLink(now);
    const language = row?.language ?? schedule.language;
    const saved = await repo.upsertRecipientLink(tx, tenantId, email, language, link);
    await takeMailQuota(tx, tenantId, quota, 'verification', 1, now);
    await recordEvent(tx, ctx, {
      action: 'report.recipient.resend',
      objectType: 'reportRecipient',
      objectId: email,
      objectName: email,
      after: { email, expiresAt: link.tokenExpiresAt.toISOString() },
    });
    return {
      state: stateOf(email, members, saved, now.getTime()),
      mail: { email, token, language: saved.language, mailedAt: now },
    };
  });
  if (!result.mail) return result.state;
  await sendVerificationMails(deps, tenantId, tenantName, [result.mail]);
  const [after] = await database.tenantTx(tenantId, (tx) => repo.recipientsOf(tx, tenantId, [email]));
  return stateOf(email, members, after, now.getTime());
}

const linkExpired = () =>
  new AppError('transaction_expired', 'This confirmation link has expired. Ask for a new one.');

/**
 * The public confirmation: the link's secret, hashed, names one waiting recipient of one tenant; it is confirmed
 * and the link spent in one transaction (logged for the tenant, by the address). 404 for a secret no link has
 * (never, used, or replaced by a newer one), 410 for an expired one.
 */
export async function confirmRecipient(
  database: Database,
  token: string,
  ip: string | null,
  now = new Date(),
): Promise<ConfirmedRecipient> {
  const tokenHash = hashToken(token);
  const row = await repo.findRecipientByToken(database.db, tokenHash);
  if (!row) throw notFound('Confirmation link');
  if (!row.tokenExpiresAt || row.tokenExpiresAt.getTime() <= now.getTime()) throw linkExpired();
  const ctx = { tenant: { id: row.tenantId }, actor: { id: null, username: row.email }, ip };
  const confirmed = await database.tenantTx(row.tenantId, async (tx) => {
    const done = await repo.confirmRecipient(tx, row.tenantId, tokenHash, now);
    if (!done) return null;
    await recordEvent(tx, ctx, {
      action: 'report.recipient.confirm',
      objectType: 'reportRecipient',
      objectId: done.email,
      objectName: done.email,
      after: { email: done.email, verifiedAt: now.toISOString() },
    });
    return done;
  });
  if (!confirmed) throw notFound('Confirmation link');
  const tenant = await getTenant(database, { tenant: { id: row.tenantId } } as Ctx);
  return {
    email: confirmed.email,
    tenantDisplayName: mailSafeName(tenant.displayName, mailSafeName(tenant.name, 'Palisade')),
  };
}
