import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { caller, enrolledGateway, pdfText, postEvents, userWithDevice } from './reports.test-kit';

const f = useFixture();
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let owner: string;
let auditor: string;
let globex: string;
let enduser: string;
let user: { userId: string; deviceId: string };

const decision = (
  id: string,
  at: string,
  destination: string,
  verdict: 'allow' | 'block',
  extra: Record<string, unknown> = {},
) => ({
  id,
  at,
  kind: 'decision',
  data: {
    layer: 'dns',
    decision: verdict,
    destination,
    userId: user.userId,
    deviceId: user.deviceId,
    category: verdict === 'block' ? 'gambling' : 'business',
    ...extra,
  },
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  globex = await f.signIn('admin@globex.test');
  enduser = await f.signIn('enduser@acme.test');
  const pop = await enrolledGateway(
    f.app,
    'acme',
    owner,
    'Report PoP',
    'cybernode',
    generateKeyPair().publicKey,
  );
  const site = await enrolledGateway(f.app, 'acme', owner, 'Branch site', 'cgw', generateKeyPair().publicKey);
  user = await userWithDevice(
    f.app,
    'acme',
    owner,
    'reporter@acme.test',
    'Reporting laptop',
    generateKeyPair().publicKey,
  );
  await postEvents(f.app, pop.credential, [
    decision('d1', ago(HOUR), 'casino.example', 'block'),
    decision('d2', ago(2 * HOUR), 'casino.example', 'block'),
    decision('d3', ago(3 * HOUR), 'casino.example', 'block'),
    decision('d4', ago(30 * MINUTE), 'malware.testcategory.com', 'block', {
      category: 'malware',
      threat: 'Palisade test indicators',
    }),
    decision('d5', ago(10 * MINUTE), 'intranet.example', 'allow', { layer: 'http', app: 'confluence' }),
    decision('d6', ago(12 * MINUTE), 'intranet.example', 'allow', { layer: 'http', app: 'confluence' }),
    // The week before.
    decision('p1', ago(9 * DAY), 'casino.example', 'block'),
    decision('p2', ago(10 * DAY), 'intranet.example', 'allow'),
    // Three weeks ago: only in a longer analytics range.
    decision('o1', ago(20 * DAY), 'old.example', 'allow'),
  ]);
  await postEvents(f.app, site.credential, [
    {
      id: 's1',
      at: ago(3 * HOUR),
      kind: 'connection',
      data: { action: 'tunnel_up', userId: user.userId, deviceId: user.deviceId },
    },
    {
      id: 's2',
      at: ago(2 * HOUR),
      kind: 'connection',
      data: {
        action: 'tunnel_down',
        userId: user.userId,
        deviceId: user.deviceId,
        durationMs: HOUR,
        bytesIn: 1000,
        bytesOut: 500,
      },
    },
  ]);
});

const REPORTS = ['dsb', 'analytics', 'weekly-sase-insights', 'security-compliance'] as const;

describe('access to the reports base', () => {
  it('answers 401 without a session, 403 to an end user, 404 for another tenant, for JSON and PDF alike', async () => {
    for (const kind of REPORTS) {
      for (const path of [`/reports/acme/${kind}`, `/reports/acme/${kind}/pdf`]) {
        const anonymous = await call('GET', path);
        expect(anonymous.statusCode, path).toBe(401);
        expect(anonymous.json()).toMatchObject({ errcode: 1, code: 'unauthenticated' });
        expect((await call('GET', path, enduser)).statusCode, path).toBe(403);
        expect((await call('GET', path, globex)).statusCode, path).toBe(404);
      }
    }
  });

  it('refuses bad range and language input with field details', async () => {
    const period = await call('GET', '/reports/acme/dsb?period=month', owner);
    expect(period.statusCode).toBe(400);
    expect(period.json().details).toEqual([{ path: 'query.period', message: 'validation.choice' }]);
    const half = await call('GET', `/reports/acme/analytics?from=${ago(DAY)}`, owner);
    expect(half.statusCode).toBe(400);
    expect(half.json().details).toEqual([{ path: 'query.from', message: 'validation.required' }]);
    const reversed = await call('GET', `/reports/acme/analytics?from=${ago(0)}&to=${ago(DAY)}`, owner);
    expect(reversed.json().details).toEqual([{ path: 'query.to', message: 'validation.invalid' }]);
    const long = await call('GET', `/reports/acme/analytics?from=${ago(100 * DAY)}&to=${ago(0)}`, owner);
    expect(long.json().details).toEqual([{ path: 'query.from', message: 'validation.tooLong' }]);
    const garbled = await call('GET', '/reports/acme/analytics?from=yesterday&to=today', owner);
    expect(
      garbled
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.from', 'query.to']);
    const language = await call('GET', '/reports/acme/weekly-sase-insights/pdf?lng=fr', owner);
    expect(language.statusCode).toBe(400);
    expect(language.json().details).toEqual([{ path: 'query.lng', message: 'validation.choice' }]);
  });

  it('lets every role that sees the dashboard read them (an auditor)', async () => {
    for (const kind of REPORTS) {
      expect((await call('GET', `/reports/acme/${kind}`, auditor)).statusCode, kind).toBe(200);
    }
  });
});

describe('the daily security brief', () => {
  it('sums the last 24 hours: KPIs, blocks, threats and the devices enrolled', async () => {
    const res = await call('GET', '/reports/acme/dsb', owner);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({
      kind: 'dsb',
      period: '24h',
      tenant: { name: 'acme', displayName: 'ACME' },
      kpis: { decisions: 6, allowed: 2, blocked: 4, threats: 1, users: 1, devices: 1, newDevices: 1 },
    });
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(DAY);
    expect(report.series.bucket).toBe('hour');
    expect(report.series.points.reduce((n: number, p: { blocked: number }) => n + p.blocked, 0)).toBe(4);
    expect(report.topBlockedDestinations[0]).toEqual({
      value: 'casino.example',
      label: 'casino.example',
      allowed: 0,
      blocked: 3,
    });
    expect(report.topThreats.map((t: { label: string }) => t.label)).toEqual(['Palisade test indicators']);
    expect(report.topBlockedCategories.map((c: { value: string }) => c.value)).toEqual([
      'gambling',
      'malware',
    ]);
    expect(report.newDevices).toEqual([
      expect.objectContaining({
        id: user.deviceId,
        name: 'Reporting laptop',
        username: 'reporter@acme.test',
      }),
    ]);
  });

  it('covers 7 days per day when asked', async () => {
    const report = (await call('GET', '/reports/acme/dsb?period=7d', owner)).json();
    expect(report.period).toBe('7d');
    expect(report.series.bucket).toBe('day');
    expect(report.kpis.decisions).toBe(6);
  });

  it('is empty, not wrong, for a tenant without telemetry', async () => {
    const report = (await call('GET', '/reports/globex/dsb', globex)).json();
    expect(report.kpis).toMatchObject({ decisions: 0, blocked: 0, newDevices: 0 });
    expect(report.topBlockedDestinations).toEqual([]);
  });
});

describe('traffic analytics', () => {
  it('covers the last 7 days by default: top categories, apps, destinations and users, and the layers', async () => {
    const report = (await call('GET', '/reports/acme/analytics', owner)).json();
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(7 * DAY);
    expect(report.totals).toMatchObject({ decisions: 6, allowed: 2, blocked: 4 });
    expect(report.topCategories.map((c: { value: string }) => c.value)).toEqual([
      'gambling',
      'business',
      'malware',
    ]);
    expect(report.topApps).toEqual([{ value: 'confluence', label: 'confluence', allowed: 2, blocked: 0 }]);
    expect(report.topDestinations[0]).toMatchObject({ value: 'casino.example', blocked: 3 });
    expect(report.topUsers).toEqual([
      { value: user.userId, label: 'reporter@acme.test', allowed: 2, blocked: 4 },
    ]);
    expect(report.layers).toEqual([
      { layer: 'dns', allowed: 0, blocked: 4 },
      { layer: 'network', allowed: 0, blocked: 0 },
      { layer: 'http', allowed: 2, blocked: 0 },
    ]);
  });

  it('takes a range of its own', async () => {
    const from = ago(30 * DAY);
    const to = ago(0);
    const report = (await call('GET', `/reports/acme/analytics?from=${from}&to=${to}`, owner)).json();
    expect(report.from).toBe(from);
    expect(report.totals.decisions).toBe(9);
    expect(report.series.bucket).toBe('day');
    expect(report.topDestinations.map((d: { value: string }) => d.value)).toContain('old.example');
  });
});

describe('weekly SASE insights', () => {
  it('compares the last 7 days with the 7 before, with private access per site', async () => {
    const report = (await call('GET', '/reports/acme/weekly-sase-insights', owner)).json();
    expect(Date.parse(report.previousTo)).toBe(Date.parse(report.from));
    expect(Date.parse(report.from) - Date.parse(report.previousFrom)).toBe(7 * DAY);
    const trend = (metric: string) => report.trends.find((t: { metric: string }) => t.metric === metric);
    expect(trend('decisions')).toEqual({
      metric: 'decisions',
      current: 6,
      previous: 2,
      delta: 4,
      deltaPercent: 200,
    });
    expect(trend('blocked')).toEqual({
      metric: 'blocked',
      current: 4,
      previous: 1,
      delta: 3,
      deltaPercent: 300,
    });
    expect(trend('threats')).toMatchObject({ current: 1, previous: 0, deltaPercent: null });
    const blocked = (week: string) =>
      report.days
        .filter((d: { week: string }) => d.week === week)
        .reduce((n: number, d: { blocked: number }) => n + d.blocked, 0);
    expect([blocked('current'), blocked('previous')]).toEqual([4, 1]);
    expect(report.topBlockedDestinations[0]).toMatchObject({ value: 'casino.example', blocked: 3 });
    expect(report.privateAccess).toEqual([
      expect.objectContaining({
        gateway: expect.objectContaining({ name: 'Branch site' }),
        users: 1,
        devices: 1,
        sessions: 1,
        durationMs: HOUR,
        bytes: 1500,
      }),
    ]);
  });
});

describe('the PDFs', () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it('makes each report a PDF named by the tenant and the date, with its title and key figures', async () => {
    const expected: Record<(typeof REPORTS)[number], string[]> = {
      dsb: [
        'Daily security brief',
        'ACME (acme)',
        '6 Requests',
        '4 Blocked',
        'casino.example',
        'Reporting laptop',
      ],
      analytics: ['Traffic analytics', '6 Requests', 'Top applications', 'confluence', 'reporter@acme.test'],
      'weekly-sase-insights': ['Weekly SASE insights', '6 Requests (+200 %)', 'Branch site', '1h 0m 0s'],
      'security-compliance': [
        'Security compliance',
        'Administrators use two-factor authentication',
        'Failed',
      ],
    };
    for (const kind of REPORTS) {
      const res = await call('GET', `/reports/acme/${kind}/pdf`, owner);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${kind}-acme-${today()}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(res.rawPayload);
      for (const phrase of expected[kind]) expect(text, `${kind}: ${phrase}`).toContain(phrase);
    }
  });

  it('writes German when asked, and in the language the administrator chose otherwise', async () => {
    const german = pdfText((await call('GET', '/reports/acme/dsb/pdf?lng=de', owner)).rawPayload);
    expect(german).toContain('Tägliches Sicherheits-Briefing');
    expect(german).toContain('6 Anfragen');
    expect(german).toContain('Am häufigsten blockierte Ziele');

    const profile = await call('PUT', '/me', auditor, {
      firstname: 'Aud',
      lastname: 'Itor',
      language: 'de',
      theme: null,
      palette: null,
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const chosen = pdfText((await call('GET', '/reports/acme/weekly-sase-insights/pdf', auditor)).rawPayload);
    expect(chosen).toContain('Wöchentliche SASE-Einblicke');
    const asked = pdfText(
      (await call('GET', '/reports/acme/weekly-sase-insights/pdf?lng=en', auditor)).rawPayload,
    );
    expect(asked).toContain('Weekly SASE insights');
    // The owner chose no language: English.
    expect(pdfText((await call('GET', '/reports/acme/analytics/pdf', owner)).rawPayload)).toContain(
      'Traffic analytics',
    );
  });

  it('takes the analytics range and the brief period for the PDF too', async () => {
    const from = ago(30 * DAY);
    const res = await call('GET', `/reports/acme/analytics/pdf?from=${from}&to=${ago(0)}`, owner);
    expect(pdfText(res.rawPayload)).toContain('9 Requests');
    const week = await call('GET', '/reports/acme/dsb/pdf?period=7d', owner);
    expect(pdfText(week.rawPayload)).toContain('Requests per day');
  });
});
