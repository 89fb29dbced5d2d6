import {
  type AnalyticsReport,
  type ComplianceReport,
  type DsbReport,
  type ReportRecipient,
  type ReportSchedule,
  reportEndpoints,
  type WeeklyInsightsReport,
} from '@palisade/contracts';
import { fakeApi } from '../../../testing/fake-api';

const TENANT = { name: 'acme', displayName: 'Acme Corp' };
const FROM = '2026-03-01T09:00:00.000Z';
const TO = '2026-03-02T09:00:00.000Z';
const HOUR = 3_600_000;

const points = (count: number, step: number) =>
  Array.from({ length: count }, (_, i) => ({
    at: new Date(Date.parse(FROM) + i * step).toISOString(),
    allowed: 100 + i,
    blocked: i % 3,
    connections: 1,
    bytes: 1000,
  }));

const TOTALS = {
  decisions: 12_345,
  allowed: 12_000,
  blocked: 345,
  threats: 12,
  connections: 77,
  deviceEvents: 3,
  bytes: 2_500_000,
  users: 5,
  devices: 7,
};

/** Of the decisions of TOTALS, how many `--simulate-traffic` made up. */
const SIMULATED = 45;

/** The totals of a report of both sources (some simulated), or of real traffic only (`source=gateway`). */
const totalsOf = (source: string | undefined) =>
  source === 'gateway'
    ? {
        ...TOTALS,
        decisions: TOTALS.decisions - SIMULATED,
        allowed: TOTALS.allowed - SIMULATED,
        simulated: 0,
      }
    : { ...TOTALS, simulated: SIMULATED };

export const DSB: DsbReport = {
  kind: 'dsb',
  tenant: TENANT,
  generatedAt: TO,
  from: FROM,
  to: TO,
  period: '24h',
  kpis: { ...TOTALS, newDevices: 2 },
  series: { bucket: 'hour', points: points(24, HOUR) },
  topBlockedDestinations: [{ value: 'casino.example', label: 'casino.example', allowed: 0, blocked: 40 }],
  topBlockedCategories: [{ value: 'gambling', label: 'gambling', allowed: 0, blocked: 41 }],
  topThreats: [{ value: 'Test indicators', label: 'Test indicators', allowed: 0, blocked: 12 }],
  newDevices: [
    {
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Ada laptop',
      os: 'linux',
      username: 'ada@acme.example',
      enrolledAt: '2026-03-02T08:00:00.000Z',
    },
  ],
};

export const ANALYTICS: AnalyticsReport = {
  kind: 'analytics',
  tenant: TENANT,
  generatedAt: TO,
  from: '2026-02-23T09:00:00.000Z',
  to: TO,
  totals: TOTALS,
  series: { bucket: 'day', points: points(7, 24 * HOUR) },
  layers: [
    { layer: 'dns', allowed: 10_000, blocked: 300 },
    { layer: 'network', allowed: 1_000, blocked: 40 },
    { layer: 'http', allowed: 1_000, blocked: 5 },
  ],
  topCategories: [{ value: 'business', label: 'business', allowed: 9_000, blocked: 0 }],
  topApps: [{ value: 'confluence', label: 'confluence', allowed: 4_321, blocked: 0 }],
  topDestinations: [{ value: 'intranet.example', label: 'intranet.example', allowed: 5_000, blocked: 0 }],
  topUsers: [
    { value: '22222222-2222-4222-8222-222222222222', label: 'ada@acme.example', allowed: 6_000, blocked: 12 },
  ],
};

const days = (week: 'current' | 'previous', start: number, blocked: number[]) =>
  blocked.map((b, i) => ({
    day: new Date(start + i * 24 * HOUR).toISOString().slice(0, 10),
    week,
    allowed: 100,
    blocked: b,
  }));

export const WEEKLY: WeeklyInsightsReport = {
  kind: 'weekly-sase-insights',
  tenant: TENANT,
  generatedAt: TO,
  from: '2026-02-23T10:00:00.000Z',
  to: '2026-03-02T10:00:00.000Z',
  previousFrom: '2026-02-16T10:00:00.000Z',
  previousTo: '2026-02-23T10:00:00.000Z',
  trends: [
    { metric: 'decisions', current: 12_345, previous: 10_000, delta: 2_345, deltaPercent: 23.5 },
    { metric: 'blocked', current: 345, previous: 400, delta: -55, deltaPercent: -13.8 },
    { metric: 'threats', current: 12, previous: 0, delta: 12, deltaPercent: null },
    { metric: 'bytes', current: 2_500_000, previous: 2_000_000, delta: 500_000, deltaPercent: 25 },
  ],
  days: [
    ...days('previous', Date.parse('2026-02-16T00:00:00Z'), [1, 2, 3, 4, 5, 6, 7]),
    ...days('current', Date.parse('2026-02-23T00:00:00Z'), [7, 6, 5, 4, 3, 2, 1]),
  ],
  topBlockedDestinations: [{ value: 'casino.example', label: 'casino.example', allowed: 0, blocked: 40 }],
  topBlockedCategories: [],
  privateAccess: [
    {
      gateway: { id: '33333333-3333-4333-8333-333333333333', name: 'Frankfurt' },
      users: 3,
      devices: 4,
      sessions: 1_234,
      durationMs: 93_784_000,
      bytes: 2_500_000,
    },
  ],
};

export const COMPLIANCE: ComplianceReport = {
  kind: 'security-compliance',
  tenant: TENANT,
  generatedAt: TO,
  from: TO,
  to: TO,
  summary: { pass: 1, warn: 1, fail: 1 },
  checks: [
    {
      id: 'admin-mfa',
      status: 'fail',
      evidence: [{ name: 'bob@acme.example', note: 'mfaOff', at: null }],
      evidenceTotal: 1,
    },
    {
      id: 'admin-sign-in',
      status: 'warn',
      evidence: [{ name: 'carl@acme.example', note: 'neverSignedIn', at: null }],
      evidenceTotal: 60,
    },
    {
      id: 'threat-intel',
      status: 'pass',
      evidence: [{ name: 'Test indicators', note: 'feedEnabled', at: '2026-03-02T06:00:00.000Z' }],
      evidenceTotal: 1,
    },
  ],
};

export const SCHEDULE: ReportSchedule = {
  id: '44444444-4444-4444-8444-444444444444',
  kind: 'weekly-sase-insights',
  weekday: 1,
  hour: 8,
  timezone: 'Europe/Berlin',
  recipients: ['ciso@acme.example', 'soc@acme.example'],
  recipientStates: [
    { email: 'ciso@acme.example', state: 'verified', mailedAt: TO, expiresAt: null },
    { email: 'soc@acme.example', state: 'member', mailedAt: null, expiresAt: null },
  ],
  language: 'en',
  enabled: true,
  nextRunAt: '2026-03-09T07:00:00.000Z',
  lastRunAt: null,
  lastError: null,
  lastErrorCode: null,
  createdAt: TO,
  updatedAt: TO,
};

/** A recipient the fake has not seen yet: mailed a link, waiting for confirmation. */
const waitingRecipient = (email: string): ReportRecipient => ({
  email,
  state: 'pending',
  mailedAt: TO,
  expiresAt: '2026-03-15T12:00:00.000Z',
});

/** The states of `recipients` as the stored schedules know them, new addresses waiting. */
function statesOf(stored: ReportSchedule[], recipients: string[]): ReportRecipient[] {
  const known = new Map(stored.flatMap((s) => s.recipientStates).map((r) => [r.email, r]));
  return recipients.map((email) => known.get(email) ?? waitingRecipient(email));
}

const isMailed = (r: ReportRecipient) => r.state === 'member' || r.state === 'verified';

/** The fake API of the report screens: each report, and the schedules in `schedules` (changed by the writes). */
export function fakeReportsApi(schedules: ReportSchedule[] = [SCHEDULE]) {
  const stored = [...schedules];
  return fakeApi()
    .on(reportEndpoints.getDsbReport, ({ query }) => ({
      ...DSB,
      period: query.period,
      source: query.source,
      kpis: { ...totalsOf(query.source), newDevices: DSB.kpis.newDevices },
    }))
    .on(reportEndpoints.getAnalyticsReport, ({ query }) => ({
      ...ANALYTICS,
      source: query.source,
      totals: totalsOf(query.source),
    }))
    .on(reportEndpoints.getWeeklyInsightsReport, () => WEEKLY)
    .on(reportEndpoints.getComplianceReport, () => COMPLIANCE)
    .on(reportEndpoints.listReportSchedules, () => ({ items: stored }))
    .on(reportEndpoints.createReportSchedule, ({ body }) => {
      const created: ReportSchedule = {
        ...SCHEDULE,
        ...body,
        recipientStates: statesOf(stored, body.recipients),
        id: '55555555-5555-4555-8555-555555555555',
        nextRunAt: '2026-03-06T16:00:00.000Z',
      };
      stored.push(created);
      return created;
    })
    .on(reportEndpoints.updateReportSchedule, ({ params, body }) => {
      const index = stored.findIndex((s) => s.id === params.id);
      stored[index] = { ...stored[index], ...body, recipientStates: statesOf(stored, body.recipients) };
      return stored[index];
    })
    .on(reportEndpoints.deleteReportSchedule, ({ params }) => {
      stored.splice(
        stored.findIndex((s) => s.id === params.id),
        1,
      );
      return { ok: true as const };
    })
    .on(reportEndpoints.sendReportSchedule, ({ params }) => {
      const states = stored.find((s) => s.id === params.id)?.recipientStates ?? [];
      return {
        sentTo: states.filter(isMailed).map((r) => r.email),
        waiting: states.filter((r) => !isMailed(r)).map((r) => r.email),
        sentAt: TO,
      };
    })
    .on(reportEndpoints.resendReportRecipientLink, ({ body }) => {
      const recipient = { ...waitingRecipient(body.email), mailedAt: '2026-03-08T12:30:00.000Z' };
      for (const schedule of stored) {
        schedule.recipientStates = schedule.recipientStates.map((r) =>
          r.email === body.email ? recipient : r,
        );
      }
      return recipient;
    });
}
