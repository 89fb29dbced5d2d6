import {
  ADMIN_SIGN_IN_DAYS,
  type AnalyticsQuery,
  type AnalyticsReport,
  type CheckStatus,
  type ComplianceCheck,
  type ComplianceReport,
  type DsbPeriod,
  type DsbQuery,
  type DsbReport,
  type Locale,
  MAX_CHECK_EVIDENCE,
  MAX_REPORT_SCHEDULES,
  type NewDevice,
  REPORT_TOP_LIMIT,
  type ReportKind,
  type ReportRecipient,
  type ReportSchedule,
  type ReportScheduleInput,
  type ReportSent,
  type ReportSkipReason,
  type ReportTopItem,
  type SeriesPoint,
  STALE_DEVICE_DAYS,
  type TelemetryDimension,
  type TelemetryOverview,
  type TelemetryQuery,
  type TelemetrySource,
  type TrendMetric,
  type WeeklyInsightsReport,
} from '@palisade/contracts';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { adminSecurityFacts } from '../admins/admins.service';
import { listDevices } from '../enrolment/devices.service';
import { getPolicy, listPolicies } from '../policies/policies.service';
import { listCategories } from '../policy-objects/categories.service';
import { listFeeds } from '../policy-objects/feeds.service';
import { accountLanguage, lastSignIns } from '../session/session.service';
import { privateAccessSummary, telemetryOverview, telemetryTop } from '../telemetry/telemetry.service';
import { getTenant } from '../tenants/tenants.service';
import { REPORT_LABELS } from './reports.labels';
import { type AnyReport, formatterOf, renderReportPdf, reportFileName } from './reports.pdf';
import {
  addRecipients,
  deliverable,
  mailQuotaOf,
  mailSafeName,
  memberAddresses,
  type ReportDeps,
  resendRecipientLink,
  sendVerificationMails,
  stateOf,
  takeMailQuota,
  tenantMailName,
} from './reports.recipients';
import * as repo from './reports.repository';

/**
 * Reports (contracts: reports.ts): each built from other modules' services — the telemetry's overview, top lists
 * and private-access summary, the devices, administrators, feeds, categories and policies — never from their
 * tables; rendered as PDF by reports.pdf.ts; and mailed weekly by the schedules (table `report_schedules`), whose
 * due runs one runner claims (see {@link runDueSchedules}).
 */

export type { ReportDeps } from './reports.recipients';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

async function tenantOf(database: Database, ctx: Ctx) {
  const tenant = await getTenant(database, ctx);
  return { name: tenant.name, displayName: tenant.displayName };
}

/** A report's series: the overview's buckets up to 3 days, summed per UTC day beyond. */
function seriesOf(overview: TelemetryOverview): DsbReport['series'] {
  if (Date.parse(overview.to) - Date.parse(overview.from) <= 3 * DAY) {
    return { bucket: overview.bucket, points: overview.series };
  }
  const days = new Map<number, SeriesPoint>();
  for (const point of overview.series) {
    const day = Math.floor(Date.parse(point.at) / DAY) * DAY;
    const sum = days.get(day) ?? { at: iso(day), allowed: 0, blocked: 0, connections: 0, bytes: 0 };
    sum.allowed += point.allowed;
    sum.blocked += point.blocked;
    sum.connections += point.connections;
    sum.bytes += point.bytes;
    days.set(day, sum);
  }
  return { bucket: 'day', points: [...days.values()] };
}

/**
 * A report's range with whose decisions it counts, as the telemetry takes it: `source` only when one was asked
 * for (absent: both). Spread into the report, it says which source its figures are of.
 */
function withSource(
  range: { from: string; to: string },
  source: TelemetrySource | undefined,
): TelemetryQuery {
  return source ? { ...range, source } : range;
}

function top(
  database: Database,
  ctx: Ctx,
  range: TelemetryQuery,
  dimension: TelemetryDimension,
  decision?: 'allow' | 'block',
): Promise<ReportTopItem[]> {
  return telemetryTop(database, ctx, { ...range, dimension, decision, limit: REPORT_TOP_LIMIT }).then(
    (answer) => answer.items,
  );
}

const NEW_DEVICE_PAGE = 100;
const NEW_DEVICE_PAGES = 20;
const NEW_DEVICES_LISTED = 50;

/** Endpoints enrolled since `from`, newest first: at most 50 listed, all (up to 2,000) counted. */
async function newDevicesSince(database: Database, ctx: Ctx, from: number) {
  const listed: NewDevice[] = [];
  let total = 0;
  let cursor: string | undefined;
  for (let page = 0; page < NEW_DEVICE_PAGES; page += 1) {
    const answer = await listDevices(database, ctx, {
      kind: 'endpoint',
      sort: 'enrolledAt',
      order: 'desc',
      limit: NEW_DEVICE_PAGE,
      offset: 0,
      cursor,
      withTotal: 'false',
    });
    for (const device of answer.items) {
      if (!device.enrolledAt) continue;
      if (Date.parse(device.enrolledAt) < from) return { listed, total };
      total += 1;
      if (listed.length < NEW_DEVICES_LISTED) {
        listed.push({
          id: device.id,
          name: device.name,
          os: device.os,
          username: device.username,
          enrolledAt: device.enrolledAt,
        });
      }
    }
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return { listed, total };
}

// ─── The reports ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The daily security brief of the last 24 hours or 7 days; with `source`, every decision figure (KPIs, series,
 * top lists) counts that source only (`gateway`: real traffic, none simulated). New devices are not decisions.
 */
export async function dsbReport(
  database: Database,
  ctx: Ctx,
  query: Pick<DsbQuery, 'period' | 'source'>,
  now = Date.now(),
): Promise<DsbReport> {
  const { period, source } = query;
  const range = { from: iso(now - (period === '7d' ? 7 * DAY : DAY)), to: iso(now) };
  const counted = withSource(range, source);
  const [tenant, overview, threats, destinations, categories, devices] = await Promise.all([
    tenantOf(database, ctx),
    telemetryOverview(database, ctx, counted),
    top(database, ctx, counted, 'threat'),
    top(database, ctx, counted, 'destination', 'block'),
    top(database, ctx, counted, 'category', 'block'),
    newDevicesSince(database, ctx, Date.parse(range.from)),
  ]);
  return {
    kind: 'dsb',
    tenant,
    generatedAt: iso(now),
    ...counted,
    period,
    kpis: { ...overview.totals, newDevices: devices.total },
    series: seriesOf(overview),
    topBlockedDestinations: destinations,
    topBlockedCategories: categories,
    topThreats: threats,
    newDevices: devices.listed,
  };
}

/** Traffic analytics over a range (else the last 7 days); with `source`, of that source's decisions only. */
export async function analyticsReport(
  database: Database,
  ctx: Ctx,
  query: AnalyticsQuery,
  now = Date.now(),
): Promise<AnalyticsReport> {
  const range = withSource(
    query.from && query.to
      ? { from: iso(Date.parse(query.from)), to: iso(Date.parse(query.to)) }
      : lastWeek(now),
    query.source,
  );
  const [tenant, overview, categories, apps, destinations, users] = await Promise.all([
    tenantOf(database, ctx),
    telemetryOverview(database, ctx, range),
    top(database, ctx, range, 'category'),
    top(database, ctx, range, 'app'),
    top(database, ctx, range, 'destination'),
    top(database, ctx, range, 'user'),
  ]);
  return {
    kind: 'analytics',
    tenant,
    generatedAt: iso(now),
    ...range,
    totals: overview.totals,
    series: seriesOf(overview),
    layers: overview.layers,
    topCategories: categories,
    topApps: apps,
    topDestinations: destinations,
    topUsers: users,
  };
}

/** The 7 days before `now`, to the minute. */
function lastWeek(now: number) {
  const to = Math.floor(now / MINUTE) * MINUTE;
  return { from: iso(to - 7 * DAY), to: iso(to) };
}

const percentChange = (current: number, previous: number) =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;

/** Per UTC day of a week: the decisions allowed and blocked (the overview's hourly buckets summed). */
function daysOf(overview: TelemetryOverview, week: 'current' | 'previous') {
  const days = new Map<string, { allowed: number; blocked: number }>();
  for (const point of overview.series) {
    const day = point.at.slice(0, 10);
    const sum = days.get(day) ?? { allowed: 0, blocked: 0 };
    sum.allowed += point.allowed;
    sum.blocked += point.blocked;
    days.set(day, sum);
  }
  return [...days].map(([day, sum]) => ({ day, week, ...sum }));
}

export async function weeklyInsightsReport(
  database: Database,
  ctx: Ctx,
  now = Date.now(),
): Promise<WeeklyInsightsReport> {
  // Whole hours, so both weeks are made of whole hourly buckets, none counted in both: to the end of this hour.
  const to = Math.ceil(now / HOUR) * HOUR;
  const current = { from: iso(to - 7 * DAY), to: iso(to) };
  const previous = { from: iso(to - 14 * DAY), to: current.from };
  const [tenant, thisWeek, weekBefore, destinations, categories, privateAccess] = await Promise.all([
    tenantOf(database, ctx),
    telemetryOverview(database, ctx, current),
    telemetryOverview(database, ctx, previous),
    top(database, ctx, current, 'destination', 'block'),
    top(database, ctx, current, 'category', 'block'),
    privateAccessSummary(database, ctx, current),
  ]);
  const metrics: TrendMetric[] = [
    'decisions',
    'blocked',
    'threats',
    'connections',
    'users',
    'devices',
    'allowed',
    'bytes',
  ];
  return {
    kind: 'weekly-sase-insights',
    tenant,
    generatedAt: iso(now),
    ...current,
    previousFrom: previous.from,
    previousTo: previous.to,
    trends: metrics.map((metric) => {
      const a = thisWeek.totals[metric];
      const b = weekBefore.totals[metric];
      return { metric, current: a, previous: b, delta: a - b, deltaPercent: percentChange(a, b) };
    }),
    days: [...daysOf(weekBefore, 'previous'), ...daysOf(thisWeek, 'current')],
    topBlockedDestinations: destinations,
    topBlockedCategories: categories,
    privateAccess: privateAccess.sites,
  };
}

// ─── Security compliance ────────────────────────────────────────────────────────────────────────────────────

type Evidence = ComplianceCheck['evidence'][number];

function check(id: ComplianceCheck['id'], status: CheckStatus, evidence: Evidence[]): ComplianceCheck {
  return { id, status, evidence: evidence.slice(0, MAX_CHECK_EVIDENCE), evidenceTotal: evidence.length };
}

const DEVICE_PAGE = 100;
/** The most endpoints the device checks read (100 pages): a larger fleet is judged on its stalest 10,000. */
const DEVICE_PAGES = 100;

/** Active endpoints, stalest first, with whether each is stale and whether its posture fails. */
async function deviceFindings(database: Database, ctx: Ctx, now: number) {
  const staleBefore = now - STALE_DEVICE_DAYS * DAY;
  const stale: Evidence[] = [];
  const failing: Evidence[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < DEVICE_PAGES; page += 1) {
    const answer = await listDevices(database, ctx, {
      kind: 'endpoint',
      state: 'active',
      sort: 'lastSeenAt',
      order: 'asc',
      limit: DEVICE_PAGE,
      offset: 0,
      cursor,
      withTotal: 'false',
    });
    for (const device of answer.items) {
      const name = device.username ? `${device.name} (${device.username})` : device.name;
      if (device.lastSeenAt === null) {
        // Never connected: stale once it has been enrolled for the whole period.
        if (device.enrolledAt && Date.parse(device.enrolledAt) < staleBefore) {
          stale.push({ name, note: 'neverSeen', at: null });
        }
      } else if (Date.parse(device.lastSeenAt) < staleBefore) {
        stale.push({ name, note: 'lastSeen', at: device.lastSeenAt });
      }
      if (device.posture === 'failing') failing.push({ name, note: 'postureFailing', at: null });
    }
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return { stale, failing };
}

/** Security categories and whether each is blocked: for the whole tenant, by an enabled policy, or not at all. */
async function categoryFindings(database: Database, ctx: Ctx) {
  const [categories, lists] = await Promise.all([listCategories(database, ctx), listPolicies(database, ctx)]);
  const blockedByPolicy = new Set<string>();
  for (const summary of [...lists.user, ...lists.device]) {
    if (!summary.enabled || summary.ruleCount === 0) continue;
    const policy = await getPolicy(database, ctx, summary.id);
    for (const rule of policy.rules) {
      if (rule.enabled && rule.action === 'block') for (const id of rule.categories) blockedByPolicy.add(id);
    }
  }
  return categories
    .filter((category) => category.class === 'security')
    .map(
      (category): Evidence => ({
        name: category.name,
        note:
          category.action === 'block'
            ? 'blockedByTenant'
            : blockedByPolicy.has(category.id)
              ? 'blockedByPolicy'
              : 'notBlocked',
        at: null,
      }),
    );
}

/**
 * Checks of the tenant's configuration, each with its evidence: what fails it, or, when it passes, what it
 * passed on.
 */
export async function complianceReport(
  database: Database,
  ctx: Ctx,
  now = Date.now(),
): Promise<ComplianceReport> {
  const [tenant, admins, feeds, categories, devices] = await Promise.all([
    tenantOf(database, ctx),
    adminSecurityFacts(database, ctx.tenant.id),
    listFeeds(database, ctx),
    categoryFindings(database, ctx),
    deviceFindings(database, ctx, now),
  ]);
  const active = admins.filter((admin) => admin.status === 'active');
  const signIns = await lastSignIns(
    database,
    active.map((admin) => admin.username),
  );

  const withoutMfa = active.filter((admin) => !admin.totpEnabled);
  const mfa = check(
    'admin-mfa',
    withoutMfa.length > 0 ? 'fail' : 'pass',
    (withoutMfa.length > 0 ? withoutMfa : active).map((admin) => ({
      name: admin.username,
      note: admin.totpEnabled ? 'mfaOn' : 'mfaOff',
      at: null,
    })),
  );

  const signedInAfter = now - ADMIN_SIGN_IN_DAYS * DAY;
  const signInOf = (username: string) => signIns.get(username.toLowerCase()) ?? null;
  const idle = active.filter((admin) => (signInOf(admin.username)?.getTime() ?? 0) < signedInAfter);
  const signIn = check(
    'admin-sign-in',
    idle.length > 0 ? 'warn' : 'pass',
    (idle.length > 0 ? idle : active).map((admin) => {
      const at = signInOf(admin.username);
      return at
        ? { name: admin.username, note: 'lastSignIn', at: at.toISOString() }
        : { name: admin.username, note: 'neverSignedIn', at: null };
    }),
  );

  const enabled = feeds.filter((feed) => feed.enabled && feed.ipCount + feed.domainCount > 0);
  const erroring = feeds.filter((feed) => feed.enabled && feed.lastError);
  const threatIntel =
    enabled.length === 0
      ? check(
          'threat-intel',
          'fail',
          feeds.map((feed) => ({ name: feed.name, note: 'feedDisabled', at: null })),
        )
      : erroring.length > 0
        ? check(
            'threat-intel',
            'warn',
            erroring.map((feed) => ({ name: feed.name, note: 'feedError', at: feed.lastRefreshedAt })),
          )
        : check(
            'threat-intel',
            'pass',
            enabled.map((feed) => ({ name: feed.name, note: 'feedEnabled', at: feed.lastRefreshedAt })),
          );

  const open = categories.filter((category) => category.note === 'notBlocked');
  const securityCategories = check(
    'security-categories',
    open.length > 0 ? 'fail' : 'pass',
    open.length > 0 ? open : categories,
  );
  const staleDevices = check('stale-devices', devices.stale.length > 0 ? 'warn' : 'pass', devices.stale);
  const posture = check('device-posture', devices.failing.length > 0 ? 'warn' : 'pass', devices.failing);

  const checks = [mfa, signIn, threatIntel, securityCategories, staleDevices, posture];
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  return {
    kind: 'security-compliance',
    tenant,
    generatedAt: iso(now),
    from: iso(now),
    to: iso(now),
    summary: { pass: count('pass'), warn: count('warn'), fail: count('fail') },
    checks,
  };
}

// ─── PDF ────────────────────────────────────────────────────────────────────────────────────────────────────

/** What a report is made from: its kind with its own range parameters. */
export type ReportRequest =
  | { kind: 'dsb'; period: DsbPeriod; source?: TelemetrySource }
  | { kind: 'analytics'; query: AnalyticsQuery }
  | { kind: 'weekly-sase-insights' }
  | { kind: 'security-compliance' };

export function buildReport(database: Database, ctx: Ctx, request: ReportRequest, now = Date.now()) {
  switch (request.kind) {
    case 'dsb':
      return dsbReport(database, ctx, request, now);
    case 'analytics':
      return analyticsReport(database, ctx, request.query, now);
    case 'weekly-sase-insights':
      return weeklyInsightsReport(database, ctx, now);
    default:
      return complianceReport(database, ctx, now);
  }
}

/**
 * A report as a PDF in the language asked for, else the requesting administrator's language setting, else
 * English; times in UTC.
 */
export async function reportPdf(
  database: Database,
  ctx: Ctx,
  request: ReportRequest,
  lng: Locale | undefined,
): Promise<{ fileName: string; pdf: Buffer }> {
  const [report, language] = await Promise.all([
    buildReport(database, ctx, request),
    lng ?? accountLanguage(database, ctx.actor.tenantId, ctx.actor.id).then((chosen) => chosen ?? 'en'),
  ]);
  const pdf = await renderReportPdf(report, { language, timeZone: 'UTC' });
  return { fileName: reportFileName(report), pdf };
}

// ─── Schedules ──────────────────────────────────────────────────────────────────────────────────────────────

type ScheduleData = z.output<typeof ReportScheduleInput>;

/** The schedule's next run strictly after `after`: `hour`:00 on `weekday` in its time zone (croner, DST-aware). */
export function nextRunAfter(
  schedule: Pick<ScheduleData, 'weekday' | 'hour' | 'timezone'>,
  after: Date,
): Date | null {
  const cron = new Cron(`0 ${schedule.hour} * * ${schedule.weekday}`, {
    timezone: schedule.timezone,
    paused: true,
  });
  return cron.nextRun(after);
}

function presentSchedule(row: repo.ScheduleRow, states: Map<string, ReportRecipient>): ReportSchedule {
  return {
    id: row.id,
    kind: row.kind,
    weekday: row.weekday,
    hour: row.hour,
    timezone: row.timezone,
    recipients: row.recipients,
    recipientStates: row.recipients.map(
      (email) => states.get(email) ?? { email, state: 'pending', mailedAt: null, expiresAt: null },
    ),
    language: row.language,
    enabled: row.enabled,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastError: row.lastError,
    lastErrorCode: row.lastErrorCode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Each recipient of the schedules with whether it is mailed, read in the caller's transaction. */
async function recipientStatesOf(
  tx: Tx,
  tenantId: string,
  rows: readonly repo.ScheduleRow[],
  members: Set<string>,
  now: number,
): Promise<Map<string, ReportRecipient>> {
  const emails = [...new Set(rows.flatMap((row) => row.recipients))];
  const known = new Map((await repo.recipientsOf(tx, tenantId, emails)).map((row) => [row.email, row]));
  return new Map(emails.map((email) => [email, stateOf(email, members, known.get(email), now)]));
}

/** What the event log keeps of a schedule (its settings, not its run state). */
const logged = (
  s: Pick<repo.ScheduleRow, 'kind' | 'weekday' | 'hour' | 'timezone' | 'recipients' | 'language' | 'enabled'>,
) => ({
  kind: s.kind,
  weekday: s.weekday,
  hour: s.hour,
  timezone: s.timezone,
  recipients: s.recipients,
  language: s.language,
  enabled: s.enabled,
});

const valuesOf = (input: ScheduleData, now: Date): repo.ScheduleValues => ({
  ...input,
  nextRunAt: input.enabled ? nextRunAfter(input, now) : null,
});

export async function listSchedules(database: Database, ctx: Ctx): Promise<{ items: ReportSchedule[] }> {
  const tenantId = ctx.tenant.id;
  const members = await memberAddresses(database, tenantId);
  return database.tenantTx(tenantId, async (tx) => {
    const rows = await repo.listSchedules(tx, tenantId);
    const states = await recipientStatesOf(tx, tenantId, rows, members, Date.now());
    return { items: rows.map((row) => presentSchedule(row, states)) };
  });
}

/** One schedule as listed, read again (after its verification mails went out). */
async function readSchedule(database: Database, tenantId: string, id: string): Promise<ReportSchedule> {
  const members = await memberAddresses(database, tenantId);
  return database.tenantTx(tenantId, async (tx) => {
    const row = await repo.getSchedule(tx, tenantId, id);
    if (!row) throw notFound('Report schedule');
    return presentSchedule(row, await recipientStatesOf(tx, tenantId, [row], members, Date.now()));
  });
}

/**
 * Saves a schedule (a new one when `id` is absent), its new outside recipients waiting for confirmation and
 * their verification mails counted against the quota, all in one transaction — refused as a whole (429, nothing
 * saved) when those mails would pass the quota; then mails the links. Logged with the addresses mailed a link.
 */
async function saveSchedule(
  deps: ReportDeps,
  ctx: Ctx,
  id: string | null,
  input: ScheduleData,
  now: Date,
): Promise<ReportSchedule> {
  const { database } = deps;
  const tenantId = ctx.tenant.id;
  const [members, quota, tenantName] = await Promise.all([
    memberAddresses(database, tenantId),
    mailQuotaOf(database, tenantId),
    tenantMailName(database, ctx),
  ]);
  const saved = await database.tenantTx(tenantId, async (tx) => {
    const before = id ? await repo.getSchedule(tx, tenantId, id) : null;
    if (id && !before) throw notFound('Report schedule');
    if (!id && (await repo.countSchedules(tx, tenantId)) >= MAX_REPORT_SCHEDULES) {
      throw new AppError('conflict', `A tenant keeps at most ${MAX_REPORT_SCHEDULES} report schedules.`);
    }
    const mails = await addRecipients(tx, tenantId, input.recipients, {
      members,
      quota,
      language: input.language,
      now,
    });
    const row = id
      ? await repo.updateSchedule(tx, tenantId, id, valuesOf(input, now))
      : await repo.insertSchedule(tx, tenantId, valuesOf(input, now));
    if (!row) throw notFound('Report schedule');
    const schedule = presentSchedule(
      row,
      await recipientStatesOf(tx, tenantId, [row], members, now.getTime()),
    );
    const after = { ...logged(row), verificationMailed: mails.map((mail) => mail.email) };
    await recordEvent(tx, ctx, {
      action: before ? 'report.schedule.update' : 'report.schedule.create',
      objectType: 'reportSchedule',
      objectId: row.id,
      objectName: row.kind,
      ...(before ? { before: logged(before) } : {}),
      after,
    });
    return { schedule, mails };
  });
  if (saved.mails.length === 0) return saved.schedule;
  await sendVerificationMails(deps, tenantId, tenantName, saved.mails);
  return readSchedule(database, tenantId, saved.schedule.id);
}

export function createSchedule(deps: ReportDeps, ctx: Ctx, input: ScheduleData, now = new Date()) {
  return saveSchedule(deps, ctx, null, input, now);
}

export function updateSchedule(
  deps: ReportDeps,
  ctx: Ctx,
  id: string,
  input: ScheduleData,
  now = new Date(),
) {
  return saveSchedule(deps, ctx, id, input, now);
}

export function deleteSchedule(database: Database, ctx: Ctx, id: string) {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const row = await repo.deleteSchedule(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Report schedule');
    await recordEvent(tx, ctx, {
      action: 'report.schedule.delete',
      objectType: 'reportSchedule',
      objectId: id,
      objectName: row.kind,
      before: logged(row),
    });
    return { ok: true as const };
  });
}

/** Mails a recipient of the tenant's schedules a new confirmation link (reports.recipients.ts). */
export function resendRecipient(deps: ReportDeps, ctx: Ctx, email: string, now = new Date()) {
  return resendRecipientLink(deps, ctx, email, (tx) => repo.scheduleNaming(tx, ctx.tenant.id, email), now);
}

/** What a scheduled report covers: the 7 days before the run, whatever its kind. */
const SCHEDULED: Record<ReportKind, (now: number) => ReportRequest> = {
  dsb: () => ({ kind: 'dsb', period: '7d' }),
  analytics: (now) => ({ kind: 'analytics', query: lastWeek(now) }),
  'weekly-sase-insights': () => ({ kind: 'weekly-sase-insights' }),
  'security-compliance': () => ({ kind: 'security-compliance' }),
};

/**
 * Renders a schedule's report and mails it as a PDF to each address of `to` (its members and confirmed
 * recipients), in the schedule's language and zone: subject and text are our template, with the tenant's name
 * made safe (mailSafeName) and nothing else of the tenant's.
 */
async function mailSchedule(
  deps: ReportDeps,
  ctx: Ctx,
  row: repo.ScheduleRow,
  to: readonly string[],
  now: number,
): Promise<void> {
  const report: AnyReport = await buildReport(deps.database, ctx, SCHEDULED[row.kind](now), now);
  const options = { language: row.language, timeZone: row.timezone };
  const pdf = await renderReportPdf(report, options);
  const labels = REPORT_LABELS[row.language];
  const title = labels.titles[report.kind];
  const tenant = mailSafeName(report.tenant.displayName, mailSafeName(report.tenant.name, 'Palisade'));
  const period =
    report.kind === 'security-compliance'
      ? formatterOf(options).dateTime(report.generatedAt)
      : formatterOf(options).period(report.from, report.to);
  for (const address of to) {
    await deps.mailer.send({
      to: address,
      subject: labels.mail.subject(title, tenant),
      text: labels.mail.body(title, tenant, period),
      attachments: [{ filename: reportFileName(report), contentType: 'application/pdf', content: pdf }],
    });
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

const NO_CONFIRMED =
  'No recipient of this mailing may be mailed yet: each outside address has to confirm the link mailed to it.';

/**
 * Mails a schedule's report now, on an administrator's word, to its members and confirmed recipients; its
 * weekly run stays as it is. Refused, sending nothing: 409 `report_recipients_unverified` when none of them may
 * be mailed, 429 `report_mail_quota` when the mails would pass the tenant's quota.
 */
export async function sendScheduleNow(
  deps: ReportDeps,
  ctx: Ctx,
  id: string,
  now = Date.now(),
): Promise<ReportSent> {
  const { database } = deps;
  const tenantId = ctx.tenant.id;
  const row = await database.tenantTx(tenantId, (tx) => repo.getSchedule(tx, tenantId, id));
  if (!row) throw notFound('Report schedule');
  const { to, waiting } = await deliverable(database, tenantId, row.recipients);
  if (to.length === 0) throw new AppError('report_recipients_unverified', NO_CONFIRMED);
  const at = new Date(now);
  const quota = await mailQuotaOf(database, tenantId);
  await database.tenantTx(tenantId, (tx) => takeMailQuota(tx, tenantId, quota, 'report', to.length, at));
  try {
    await mailSchedule(deps, ctx, row, to, now);
  } catch (error) {
    await database.tenantTx(tenantId, (tx) =>
      repo.recordRun(tx, tenantId, id, { at, error: errorText(error) }),
    );
    throw error;
  }
  await database.tenantTx(tenantId, async (tx) => {
    await repo.recordRun(tx, tenantId, id, { at, error: null });
    await recordEvent(tx, ctx, {
      action: 'report.schedule.send',
      objectType: 'reportSchedule',
      objectId: id,
      objectName: row.kind,
      after: { recipients: to, waiting },
    });
  });
  return { sentTo: to, waiting, sentAt: at.toISOString() };
}

/**
 * The scheduler acts for no administrator: the services it calls only need the tenant, and a scheduled mailing
 * is not an admin action, so it is not written to the admin event log.
 */
function schedulerCtx(tenantId: string): Ctx {
  return { tenant: { id: tenantId, name: '', kind: 'customer' }, actor: null, ip: null } as unknown as Ctx;
}

const DUE_BATCH = 20;

/** How one claimed run went: mailed, skipped (with why) or failed. */
type RunOutcome = { sent: true } | { sent: false; error: string; code: ReportSkipReason | null };

/** Mails one claimed run to its members and confirmed recipients, or skips it (no one to mail, quota used up). */
async function runSchedule(deps: ReportDeps, row: repo.ScheduleRow, now: Date): Promise<RunOutcome> {
  const { database } = deps;
  const { to } = await deliverable(database, row.tenantId, row.recipients);
  if (to.length === 0) return { sent: false, error: NO_CONFIRMED, code: 'report_recipients_unverified' };
  const quota = await mailQuotaOf(database, row.tenantId);
  try {
    await database.tenantTx(row.tenantId, (tx) =>
      takeMailQuota(tx, row.tenantId, quota, 'report', to.length, now),
    );
  } catch (refusal) {
    if (refusal instanceof AppError && refusal.code === 'report_mail_quota') {
      return { sent: false, error: refusal.message, code: 'report_mail_quota' };
    }
    throw refusal;
  }
  await mailSchedule(deps, schedulerCtx(row.tenantId), row, to, now.getTime());
  return { sent: true };
}

/**
 * Mails the schedules due at `now`: claims them (each moved on to its next week in the same transaction, so
 * several instances running this at once mail each run once, and a skipped or failed run is not tried again
 * before next week), then mails each to its members and confirmed recipients. A run with no one to mail or past
 * the tenant's mail quota is skipped; a skip or failure is kept on the schedule (`lastError`, `lastErrorCode`)
 * and logged. Answers how many were mailed.
 */
export async function runDueSchedules(
  deps: ReportDeps,
  now = new Date(),
  log?: FastifyBaseLogger,
): Promise<number> {
  // The next run after now: a server that was down mails a missed run once, not once per week it missed.
  const due = await repo.claimDueSchedules(deps.database.db, now, DUE_BATCH, (row) => nextRunAfter(row, now));
  let sent = 0;
  for (const row of due) {
    const where = { tenantId: row.tenantId, scheduleId: row.id };
    let outcome: RunOutcome;
    try {
      outcome = await runSchedule(deps, row, now);
    } catch (failure) {
      outcome = { sent: false, error: errorText(failure), code: null };
      log?.error({ err: failure, ...where }, 'scheduled report failed');
    }
    if (outcome.sent) sent += 1;
    else if (outcome.code) log?.warn({ ...where, reason: outcome.code }, 'scheduled report skipped');
    const run = outcome.sent
      ? { at: now, error: null }
      : { at: now, error: outcome.error, code: outcome.code };
    await deps.database.tenantTx(row.tenantId, (tx) => repo.recordRun(tx, row.tenantId, row.id, run));
  }
  return sent;
}

const TICK_MS = 60_000;

/** Checks for due schedules every minute, one pass at a time; answers the function that stops it. */
export function startReportSchedules(deps: ReportDeps, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deps.database.background(
      runDueSchedules(deps, new Date(), log)
        .then((sent) => {
          if (sent) log.info({ sent }, 'mailed scheduled reports');
        })
        .catch((err: unknown) => log.error({ err }, 'report schedule pass failed'))
        .finally(() => {
          running = false;
        }),
    );
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
