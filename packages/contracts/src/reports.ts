import { z } from 'zod';
import { Email, Uuid } from './common';
import { LOCALES } from './constants';
import { endpoint } from './endpoint';
import { DEVICE_OS } from './enrolment';
import { DECISION_LAYERS, PrivateAccessSummary, SeriesPoint, TELEMETRY_SOURCES } from './telemetry';
import { TenantParams } from './tenants';

/**
 * Reports (issue 12, `/reports/...` screens): four reports built from the telemetry and the tenant's
 * configuration, served from the reports base (`{api base}/reports`, spec §7), each as JSON for the screen and as
 * a PDF made on the server, and each can be mailed weekly to chosen addresses.
 * - `dsb` — the daily security brief: the last 24 hours (or 7 days) in KPIs, what was blocked, the top threats
 *   and the devices enrolled in that time;
 * - `analytics` — traffic analytics over a range: top categories, apps, destinations and users, the layer split
 *   and the series;
 * - `weekly-sase-insights` — the last 7 days against the 7 before: trends with deltas, top blocked, private
 *   access per site;
 * - `security-compliance` — checks of the tenant's configuration (MFA for administrators, recent sign-ins,
 *   threat intelligence, security categories blocked, stale devices, device posture), each passed, warned or
 *   failed with its evidence and a remediation hint.
 */

export const REPORT_KINDS = ['dsb', 'analytics', 'weekly-sase-insights', 'security-compliance'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The most an analytics range spans. */
export const MAX_REPORT_RANGE_DAYS = 92;
/** How many rows a report's top lists hold. */
export const REPORT_TOP_LIMIT = 10;
/** The most recipients a schedule mails to. */
export const MAX_REPORT_RECIPIENTS = 20;
/** The most schedules a tenant keeps. */
export const MAX_REPORT_SCHEDULES = 50;
/**
 * How many mails the reports send per tenant — the reports themselves and the recipients' verification mails —
 * in any hour and any 24 hours; a tenant on the trial plan gets the lower quota. A mailing that would pass it
 * sends nothing (`report_mail_quota`, 429 with Retry-After). An hour holds at least one mailing of the most
 * recipients a schedule has.
 */
export const REPORT_MAIL_QUOTAS = {
  trial: { perHour: 20, perDay: 60 },
  standard: { perHour: 200, perDay: 1000 },
} as const;
export type ReportMailQuota = (typeof REPORT_MAIL_QUOTAS)[keyof typeof REPORT_MAIL_QUOTAS];
/** How long a recipient's mailed confirmation link is valid. */
export const REPORT_RECIPIENT_LINK_DAYS = 7;
/** How long after a verification mail another one may be sent to the same address. */
export const REPORT_RECIPIENT_RESEND_MINUTES = 15;
/** The most evidence items a check lists (`evidenceTotal` counts them all). */
export const MAX_CHECK_EVIDENCE = 50;
/** A device not seen for this many days is stale. */
export const STALE_DEVICE_DAYS = 30;
/** An administrator who has not signed in for this many days has no recent sign-in. */
export const ADMIN_SIGN_IN_DAYS = 90;

const IsoDateTime = z.iso.datetime({ offset: true, message: 'validation.format' });

/** The language of a PDF; without it, the requesting user's language setting (else English). */
const Language = z.enum(LOCALES, { message: 'validation.choice' });

/** Whether the runtime knows an IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone, stored as the runtime spells it (`europe/berlin` → `Europe/Berlin`). */
export const TimeZone = z
  .string()
  .trim()
  .refine(isTimeZone, { message: 'validation.timezone' })
  .overwrite((value) =>
    isTimeZone(value)
      ? new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone
      : value,
  );

// ─── Queries ────────────────────────────────────────────────────────────────────────────────────────────────

export const DSB_PERIODS = ['24h', '7d'] as const;
export type DsbPeriod = (typeof DSB_PERIODS)[number];

/**
 * Whose decisions a report counts, as the dashboards' `TelemetryQuery` takes it: only what the gateways saw
 * (`gateway`) or only simulated decisions; both when absent (issue 23).
 */
const Source = z.enum(TELEMETRY_SOURCES, { message: 'validation.choice' });

export const DsbQuery = z.object({
  period: z.enum(DSB_PERIODS, { message: 'validation.choice' }).default('24h'),
  source: Source.optional(),
});
export type DsbQuery = z.infer<typeof DsbQuery>;

/** Both ends are times (a malformed one is reported by its own field, not again by the range's checks). */
const bothTimes = (r: { from?: string; to?: string }): r is { from: string; to: string } =>
  r.from !== undefined &&
  r.to !== undefined &&
  Number.isFinite(Date.parse(r.from)) &&
  Number.isFinite(Date.parse(r.to));

/**
 * An analytics range: both ends or neither (then the last 7 days), `from` before `to`, at most 92 days; and
 * whose decisions it counts (`source`, both when absent).
 */
export const AnalyticsQuery = z
  .object({ from: IsoDateTime.optional(), to: IsoDateTime.optional(), source: Source.optional() })
  .refine((r) => (r.from === undefined) === (r.to === undefined), {
    message: 'validation.required',
    path: ['from'],
  })
  .refine((r) => !bothTimes(r) || Date.parse(r.from) < Date.parse(r.to), {
    message: 'validation.invalid',
    path: ['to'],
  })
  .refine(
    (r) => !bothTimes(r) || Date.parse(r.to) - Date.parse(r.from) <= MAX_REPORT_RANGE_DAYS * 86_400_000,
    { message: 'validation.tooLong', path: ['from'] },
  );
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

const LanguageQuery = z.object({ lng: Language.optional() });
export const DsbPdfQuery = DsbQuery.extend(LanguageQuery.shape);
export const AnalyticsPdfQuery = AnalyticsQuery.and(LanguageQuery);
export const ReportPdfQuery = LanguageQuery;

// ─── The reports ────────────────────────────────────────────────────────────────────────────────────────────

const ReportTenant = z.object({ name: z.string(), displayName: z.string() });

/** One row of a top list: what the drill-down filters on, what is shown, and the decisions it had. */
export const ReportTopItem = z.object({
  value: z.string(),
  label: z.string(),
  allowed: z.number(),
  blocked: z.number(),
});
export type ReportTopItem = z.infer<typeof ReportTopItem>;

const Totals = z.object({
  decisions: z.number(),
  allowed: z.number(),
  blocked: z.number(),
  threats: z.number(),
  connections: z.number(),
  deviceEvents: z.number(),
  bytes: z.number(),
  users: z.number(),
  devices: z.number(),
  /** Of `decisions`, how many `--simulate-traffic` made up (the report marks its figures when not 0). */
  simulated: z.number().optional(),
});
export type ReportTotals = z.infer<typeof Totals>;

/** A report's series: per minute (ranges up to 6 h), per hour (up to 3 days) or per UTC day. */
const ReportSeries = z.object({
  bucket: z.enum(['minute', 'hour', 'day']),
  points: z.array(SeriesPoint),
});

const ReportBase = z.object({
  tenant: ReportTenant,
  generatedAt: z.string(),
  from: z.string(),
  to: z.string(),
});

/**
 * The source a report's figures were limited to, as asked (`gateway`: real traffic only, `simulated`: simulated
 * only); absent when they count both.
 */
const ReportSource = z.enum(TELEMETRY_SOURCES).optional();

export const NewDevice = z.object({
  id: z.string(),
  name: z.string(),
  os: z.enum(DEVICE_OS),
  username: z.string().nullable(),
  enrolledAt: z.string(),
});
export type NewDevice = z.infer<typeof NewDevice>;

export const DsbReport = ReportBase.extend({
  kind: z.literal('dsb'),
  period: z.enum(DSB_PERIODS),
  source: ReportSource,
  kpis: Totals.extend({ newDevices: z.number() }),
  series: ReportSeries,
  topBlockedDestinations: z.array(ReportTopItem),
  topBlockedCategories: z.array(ReportTopItem),
  topThreats: z.array(ReportTopItem),
  /** Endpoints enrolled in the period, newest first (at most 50; `kpis.newDevices` counts them all). */
  newDevices: z.array(NewDevice),
});
export type DsbReport = z.infer<typeof DsbReport>;

export const AnalyticsReport = ReportBase.extend({
  kind: z.literal('analytics'),
  source: ReportSource,
  totals: Totals,
  series: ReportSeries,
  layers: z.array(z.object({ layer: z.enum(DECISION_LAYERS), allowed: z.number(), blocked: z.number() })),
  topCategories: z.array(ReportTopItem),
  topApps: z.array(ReportTopItem),
  topDestinations: z.array(ReportTopItem),
  topUsers: z.array(ReportTopItem),
});
export type AnalyticsReport = z.infer<typeof AnalyticsReport>;

export const TREND_METRICS = [
  'decisions',
  'allowed',
  'blocked',
  'threats',
  'connections',
  'users',
  'devices',
  'bytes',
] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

export const WeeklyInsightsReport = ReportBase.extend({
  kind: z.literal('weekly-sase-insights'),
  /** The 7 days before `from`. */
  previousFrom: z.string(),
  previousTo: z.string(),
  trends: z.array(
    z.object({
      metric: z.enum(TREND_METRICS),
      current: z.number(),
      previous: z.number(),
      delta: z.number(),
      /** The change against the previous week in percent, rounded to one decimal; null when it had none. */
      deltaPercent: z.number().nullable(),
    }),
  ),
  /** Per UTC day of both weeks: the decisions allowed and blocked. */
  days: z.array(
    z.object({
      day: z.string(),
      week: z.enum(['current', 'previous']),
      allowed: z.number(),
      blocked: z.number(),
    }),
  ),
  topBlockedDestinations: z.array(ReportTopItem),
  topBlockedCategories: z.array(ReportTopItem),
  privateAccess: PrivateAccessSummary.shape.sites,
});
export type WeeklyInsightsReport = z.infer<typeof WeeklyInsightsReport>;

export const COMPLIANCE_CHECKS = [
  'admin-mfa',
  'admin-sign-in',
  'threat-intel',
  'security-categories',
  'stale-devices',
  'device-posture',
] as const;
export type ComplianceCheckId = (typeof COMPLIANCE_CHECKS)[number];
export const CHECK_STATUSES = ['pass', 'warn', 'fail'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/**
 * What an evidence item says about the thing it names (translated as `reports.compliance.notes.<note>`; `at` is
 * the time it speaks of, such as a last sign-in).
 */
export const EVIDENCE_NOTES = [
  'mfaOff',
  'mfaOn',
  'neverSignedIn',
  'lastSignIn',
  'feedEnabled',
  'feedDisabled',
  'feedError',
  'notBlocked',
  'blockedByTenant',
  'blockedByPolicy',
  'neverSeen',
  'lastSeen',
  'postureFailing',
] as const;
export type EvidenceNote = (typeof EVIDENCE_NOTES)[number];

export const ComplianceCheck = z.object({
  id: z.enum(COMPLIANCE_CHECKS),
  status: z.enum(CHECK_STATUSES),
  /** What the status rests on: the failing items when it is not passed, else what passed (at most 50). */
  evidence: z.array(z.object({ name: z.string(), note: z.enum(EVIDENCE_NOTES), at: z.string().nullable() })),
  evidenceTotal: z.number().int(),
});
export type ComplianceCheck = z.infer<typeof ComplianceCheck>;

export const ComplianceReport = ReportBase.extend({
  kind: z.literal('security-compliance'),
  summary: z.object({ pass: z.number().int(), warn: z.number().int(), fail: z.number().int() }),
  checks: z.array(ComplianceCheck),
});
export type ComplianceReport = z.infer<typeof ComplianceReport>;

// ─── Schedules ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A weekly mailing of one report: on `weekday` (0 Sunday … 6 Saturday) at `hour`:00 in `timezone`, as a PDF in
 * `language` to `recipients`. A scheduled DSB and analytics report cover the 7 days before the run.
 */
export const ReportScheduleInput = z.object({
  kind: z.enum(REPORT_KINDS, { message: 'validation.choice' }),
  weekday: z.number().int().min(0, { message: 'validation.choice' }).max(6, { message: 'validation.choice' }),
  hour: z.number().int().min(0, { message: 'validation.choice' }).max(23, { message: 'validation.choice' }),
  timezone: TimeZone,
  recipients: z
    .array(Email)
    .min(1, { message: 'validation.required' })
    .max(MAX_REPORT_RECIPIENTS, { message: 'validation.maxRecipients' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((address, i) => {
        if (seen.has(address)) ctx.addIssue({ code: 'custom', message: 'validation.duplicate', path: [i] });
        seen.add(address);
      });
    }),
  language: Language.default('en'),
  enabled: z.boolean().default(true),
});
export type ReportScheduleInput = z.input<typeof ReportScheduleInput>;

/**
 * Whether a recipient gets the reports: `member` — an active administrator of the tenant (matched without case);
 * `verified` — an outside address that confirmed its mailed link; `pending` — waiting for that confirmation
 * (`mailedAt` null: no link went out yet, or sending it failed); `expired` — its link expired unconfirmed. Only
 * members and verified addresses are mailed reports.
 */
export const REPORT_RECIPIENT_STATES = ['member', 'verified', 'pending', 'expired'] as const;
export type ReportRecipientState = (typeof REPORT_RECIPIENT_STATES)[number];

export const ReportRecipient = z.object({
  email: z.string(),
  state: z.enum(REPORT_RECIPIENT_STATES),
  /** When the last confirmation link was mailed (null for members and while none went out). */
  mailedAt: z.string().nullable(),
  /** Until when that link is valid (null once confirmed, and for members). */
  expiresAt: z.string().nullable(),
});
export type ReportRecipient = z.infer<typeof ReportRecipient>;

/** Why a scheduled mailing sent nothing: the tenant's mail quota, or no recipient that may be mailed. */
export const REPORT_SKIP_REASONS = ['report_mail_quota', 'report_recipients_unverified'] as const;
export type ReportSkipReason = (typeof REPORT_SKIP_REASONS)[number];

export const ReportSchedule = z.object({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  weekday: z.number().int(),
  hour: z.number().int(),
  timezone: z.string(),
  recipients: z.array(z.string()),
  /** Each recipient with whether it is mailed (in the order of `recipients`). */
  recipientStates: z.array(ReportRecipient),
  language: z.enum(LOCALES),
  enabled: z.boolean(),
  /** When it is next mailed (null while disabled). */
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  /** Why the last mailing failed; null when it went out. */
  lastError: z.string().nullable(),
  /** When the last scheduled mailing was skipped, why (the web translates it); else null. */
  lastErrorCode: z.enum(REPORT_SKIP_REASONS).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportSchedule>;

/** A mailing sent now: to whom, and which recipients got nothing because they have not confirmed yet. */
export const ReportSent = z.object({
  sentTo: z.array(z.string()),
  waiting: z.array(z.string()),
  sentAt: z.string(),
});
export type ReportSent = z.infer<typeof ReportSent>;

const ScheduleParams = TenantParams.extend({ id: Uuid });

export const ResendRecipientInput = z.object({ email: Email });
export type ResendRecipientInput = z.input<typeof ResendRecipientInput>;

/** The secret of a recipient's mailed confirmation link. */
export const ConfirmRecipientInput = z.object({
  token: z
    .string()
    .min(1, { message: 'validation.required' })
    .max(200, { message: 'validation.tooLong' })
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'validation.format' }),
});
export type ConfirmRecipientInput = z.input<typeof ConfirmRecipientInput>;

/** A confirmed recipient: the address and the workspace whose reports it now receives. */
export const ConfirmedRecipient = z.object({ email: z.string(), tenantDisplayName: z.string() });
export type ConfirmedRecipient = z.infer<typeof ConfirmedRecipient>;

const pdf = <Q extends z.ZodType>(path: string, summary: string, query: Q) =>
  endpoint({
    method: 'GET',
    path,
    access: 'dashboard:view',
    summary: `${summary} as a PDF (application/pdf, an attachment named by the tenant and the date)`,
    tags: ['reports'],
    params: TenantParams,
    query,
    response: z.string(),
  });

/** Paths under the API base: the reports base is `{api base}/reports`. */
export const reportEndpoints = {
  getDsbReport: endpoint({
    method: 'GET',
    path: '/reports/:tenant/dsb',
    access: 'dashboard:view',
    summary:
      'The daily security brief: KPIs, blocks, top threats and new devices of the last 24 hours or 7 days',
    tags: ['reports'],
    params: TenantParams,
    query: DsbQuery,
    response: DsbReport,
  }),
  getDsbPdf: pdf('/reports/:tenant/dsb/pdf', 'The daily security brief', DsbPdfQuery),
  getAnalyticsReport: endpoint({
    method: 'GET',
    path: '/reports/:tenant/analytics',
    access: 'dashboard:view',
    feature: 'analyticsDashboard',
    summary: 'Traffic analytics over a range: top categories, apps, destinations and users, layers, series',
    tags: ['reports'],
    params: TenantParams,
    query: AnalyticsQuery,
    response: AnalyticsReport,
  }),
  getAnalyticsPdf: pdf('/reports/:tenant/analytics/pdf', 'Traffic analytics', AnalyticsPdfQuery),
  getWeeklyInsightsReport: endpoint({
    method: 'GET',
    path: '/reports/:tenant/weekly-sase-insights',
    access: 'dashboard:view',
    summary: 'The last 7 days against the 7 before: trends, top blocked, private access per site',
    tags: ['reports'],
    params: TenantParams,
    response: WeeklyInsightsReport,
  }),
  getWeeklyInsightsPdf: pdf(
    '/reports/:tenant/weekly-sase-insights/pdf',
    'Weekly SASE insights',
    ReportPdfQuery,
  ),
  getComplianceReport: endpoint({
    method: 'GET',
    path: '/reports/:tenant/security-compliance',
    access: 'dashboard:view',
    feature: 'securityCompliance',
    summary: "Checks of the tenant's configuration, each passed, warned or failed with its evidence",
    tags: ['reports'],
    params: TenantParams,
    response: ComplianceReport,
  }),
  getCompliancePdf: pdf('/reports/:tenant/security-compliance/pdf', 'Security compliance', ReportPdfQuery),
  listReportSchedules: endpoint({
    method: 'GET',
    path: '/reports/:tenant/schedules',
    access: 'dashboard:view',
    summary: 'The weekly report mailings of the tenant',
    tags: ['reports'],
    params: TenantParams,
    response: z.object({ items: z.array(ReportSchedule) }),
  }),
  createReportSchedule: endpoint({
    method: 'POST',
    path: '/reports/:tenant/schedules',
    access: 'dashboard:update',
    summary: 'Mail a report weekly to chosen addresses',
    tags: ['reports'],
    params: TenantParams,
    body: ReportScheduleInput,
    response: ReportSchedule,
    status: 201,
  }),
  updateReportSchedule: endpoint({
    method: 'PUT',
    path: '/reports/:tenant/schedules/:id',
    access: 'dashboard:update',
    summary: 'Change a weekly report mailing',
    tags: ['reports'],
    params: ScheduleParams,
    body: ReportScheduleInput,
    response: ReportSchedule,
  }),
  deleteReportSchedule: endpoint({
    method: 'DELETE',
    path: '/reports/:tenant/schedules/:id',
    access: 'dashboard:update',
    summary: 'Stop a weekly report mailing',
    tags: ['reports'],
    params: ScheduleParams,
    response: z.object({ ok: z.literal(true) }),
  }),
  sendReportSchedule: endpoint({
    method: 'POST',
    path: '/reports/:tenant/schedules/:id/send',
    access: 'dashboard:update',
    summary:
      "Mail a schedule's report now to its members and confirmed recipients (its next weekly run stays as it is)",
    tags: ['reports'],
    params: ScheduleParams,
    response: ReportSent,
  }),
  resendReportRecipientLink: endpoint({
    method: 'POST',
    path: '/reports/:tenant/recipients/resend',
    access: 'dashboard:update',
    summary: "Mail a recipient of the tenant's schedules a new confirmation link",
    tags: ['reports'],
    params: TenantParams,
    body: ResendRecipientInput,
    response: ReportRecipient,
  }),
  confirmReportRecipient: endpoint({
    method: 'POST',
    path: '/reports/recipients/confirm',
    access: 'public',
    summary: 'Confirm a report recipient by the secret of its mailed link (single use)',
    tags: ['reports'],
    body: ConfirmRecipientInput,
    response: ConfirmedRecipient,
  }),
};
