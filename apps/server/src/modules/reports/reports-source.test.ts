import { generateKeyPair } from '@palisade/gateway-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { caller, enrolledGateway, pdfText, postEvents, userWithDevice } from './reports.test-kit';

/**
 * Issue 23 §4: the brief and the analytics report count both decision sources by default, marking how many were
 * simulated, and with `source=gateway` only what the gateways saw — every figure, the PDFs too.
 */
const f = useFixture();
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);
const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let owner: string;
let user: { userId: string; deviceId: string };

const decision = (
  id: string,
  minutesAgo: number,
  destination: string,
  verdict: 'allow' | 'block',
  source: 'gateway' | 'simulated' | undefined,
  extra: Record<string, unknown> = {},
) => ({
  id,
  at: ago(minutesAgo * MINUTE),
  kind: 'decision',
  data: {
    layer: 'dns',
    decision: verdict,
    destination,
    userId: user.userId,
    deviceId: user.deviceId,
    category: verdict === 'block' ? 'gambling' : 'business',
    ...(source ? { source } : {}),
    ...extra,
  },
});

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  const pop = await enrolledGateway(
    f.app,
    'acme',
    owner,
    'Source PoP',
    'cybernode',
    generateKeyPair().publicKey,
  );
  user = await userWithDevice(
    f.app,
    'acme',
    owner,
    'sourced@acme.test',
    'Sourced laptop',
    generateKeyPair().publicKey,
  );
  await postEvents(f.app, pop.credential, [
    // What the gateway saw (an older gateway sends no source: the gateway's).
    decision('real-1', 60, 'casino.example', 'block', undefined),
    decision('real-2', 120, 'intranet.example', 'allow', 'gateway', { layer: 'http', app: 'confluence' }),
    decision('real-3', 30, 'malware.testcategory.com', 'block', 'gateway', {
      category: 'malware',
      threat: 'Palisade test indicators',
    }),
    // What `--simulate-traffic` made up.
    decision('sim-1', 20, 'made-up.example', 'block', 'simulated'),
    decision('sim-2', 40, 'made-up.example', 'block', 'simulated'),
    decision('sim-3', 50, 'demo.example', 'allow', 'simulated', { layer: 'http', app: 'demo-app' }),
    decision('sim-4', 45, 'fake-threat.example', 'block', 'simulated', {
      category: 'malware',
      threat: 'Demo feed',
    }),
  ]);
});

const values = (items: { value: string }[]) => items.map((item) => item.value);
const blockedIn = (points: { blocked: number }[]) => points.reduce((n, p) => n + p.blocked, 0);

describe('the daily security brief by source', () => {
  it('counts both sources by default and says how many decisions were simulated', async () => {
    const res = await call('GET', '/reports/acme/dsb', owner);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.source).toBeUndefined();
    expect(report.kpis).toMatchObject({ decisions: 7, allowed: 2, blocked: 5, threats: 2, simulated: 4 });
    expect(blockedIn(report.series.points)).toBe(5);
    expect(report.topBlockedDestinations[0]).toMatchObject({ value: 'made-up.example', blocked: 2 });
    expect(values(report.topThreats).sort()).toEqual(['Demo feed', 'Palisade test indicators']);
    expect(report.topBlockedCategories).toEqual([
      expect.objectContaining({ value: 'gambling', blocked: 3 }),
      expect.objectContaining({ value: 'malware', blocked: 2 }),
    ]);
  });

  it('leaves every simulated decision out with source=gateway', async () => {
    for (const period of ['24h', '7d']) {
      const res = await call('GET', `/reports/acme/dsb?period=${period}&source=gateway`, owner);
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json();
      expect(report).toMatchObject({ period, source: 'gateway' });
      expect(report.kpis).toMatchObject({
        decisions: 3,
        allowed: 1,
        blocked: 2,
        threats: 1,
        simulated: 0,
        // Enrolments are no decisions: the same either way.
        newDevices: 1,
      });
      expect(blockedIn(report.series.points)).toBe(2);
      expect(values(report.topBlockedDestinations).sort()).toEqual([
        'casino.example',
        'malware.testcategory.com',
      ]);
      expect(values(report.topThreats)).toEqual(['Palisade test indicators']);
      expect(report.topBlockedCategories).toEqual([
        expect.objectContaining({ value: 'gambling', blocked: 1 }),
        expect.objectContaining({ value: 'malware', blocked: 1 }),
      ]);
    }
  });

  it('shows only the simulated decisions with source=simulated', async () => {
    const report = (await call('GET', '/reports/acme/dsb?source=simulated', owner)).json();
    expect(report.source).toBe('simulated');
    expect(report.kpis).toMatchObject({ decisions: 4, blocked: 3, simulated: 4 });
    expect(values(report.topBlockedDestinations).sort()).toEqual(['fake-threat.example', 'made-up.example']);
  });
});

describe('traffic analytics by source', () => {
  it('counts both sources by default, and only the real ones with source=gateway', async () => {
    const all = (await call('GET', '/reports/acme/analytics', owner)).json();
    expect(all.totals).toMatchObject({ decisions: 7, allowed: 2, blocked: 5, simulated: 4 });
    expect(values(all.topApps).sort()).toEqual(['confluence', 'demo-app']);
    expect(all.layers).toEqual([
      { layer: 'dns', allowed: 0, blocked: 5 },
      { layer: 'network', allowed: 0, blocked: 0 },
      { layer: 'http', allowed: 2, blocked: 0 },
    ]);
    expect(all.topUsers).toEqual([
      { value: user.userId, label: 'sourced@acme.test', allowed: 2, blocked: 5 },
    ]);

    const from = ago(24 * 60 * MINUTE);
    const to = ago(0);
    for (const query of ['source=gateway', `from=${from}&to=${to}&source=gateway`]) {
      const res = await call('GET', `/reports/acme/analytics?${query}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      const real = res.json();
      expect(real.source).toBe('gateway');
      expect(real.totals).toMatchObject({ decisions: 3, allowed: 1, blocked: 2, threats: 1, simulated: 0 });
      expect(blockedIn(real.series.points)).toBe(2);
      expect(real.layers).toEqual([
        { layer: 'dns', allowed: 0, blocked: 2 },
        { layer: 'network', allowed: 0, blocked: 0 },
        { layer: 'http', allowed: 1, blocked: 0 },
      ]);
      expect(real.topApps).toEqual([{ value: 'confluence', label: 'confluence', allowed: 1, blocked: 0 }]);
      expect(values(real.topDestinations)).not.toContain('made-up.example');
      expect(values(real.topCategories).sort()).toEqual(['business', 'gambling', 'malware']);
      expect(real.topUsers).toEqual([
        { value: user.userId, label: 'sourced@acme.test', allowed: 1, blocked: 2 },
      ]);
    }
  });
});

describe('the PDFs by source', () => {
  it('mark the simulated figures of both sources, and say when they show real traffic only', async () => {
    const both = pdfText((await call('GET', '/reports/acme/dsb/pdf', owner)).rawPayload);
    expect(both).toContain('7 Requests');
    expect(both).toContain('4 Of these simulated (demo traffic)');
    expect(both).toContain('made-up.example');
    expect(both).not.toContain('Real traffic only');

    const res = await call('GET', '/reports/acme/dsb/pdf?source=gateway', owner);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const real = pdfText(res.rawPayload);
    expect(real).toContain('Real traffic only: simulated demo traffic is left out.');
    expect(real).toContain('3 Requests');
    expect(real).toContain('2 Blocked');
    expect(real).not.toContain('Of these simulated');
    expect(real).not.toContain('made-up.example');
    expect(real).not.toContain('Demo feed');

    const analytics = pdfText(
      (await call('GET', '/reports/acme/analytics/pdf?source=gateway', owner)).rawPayload,
    );
    expect(analytics).toContain('Traffic analytics');
    expect(analytics).toContain('Real traffic only: simulated demo traffic is left out.');
    expect(analytics).toContain('3 Requests');
    expect(analytics).not.toContain('Of these simulated');
    expect(analytics).not.toContain('demo-app');
    const analyticsBoth = pdfText((await call('GET', '/reports/acme/analytics/pdf', owner)).rawPayload);
    expect(analyticsBoth).toContain('7 Requests');
    expect(analyticsBoth).toContain('demo-app');
    expect(analyticsBoth).not.toContain('Real traffic only');
  });

  it('say it in German too, and name a report of simulated traffic only', async () => {
    const german = pdfText(
      (await call('GET', '/reports/acme/dsb/pdf?source=gateway&lng=de', owner)).rawPayload,
    );
    expect(german).toContain('Nur echter Verkehr: Simulierter Demo-Verkehr ist ausgeblendet.');
    expect(german).toContain('3 Anfragen');
    expect(german).not.toContain('Davon simuliert');
    const simulated = pdfText(
      (await call('GET', '/reports/acme/analytics/pdf?source=simulated', owner)).rawPayload,
    );
    expect(simulated).toContain('Simulated demo traffic only');
    expect(simulated).toContain('4 Of these simulated (demo traffic)');
  });
});

describe('the source parameter', () => {
  it('refuses an unknown source with field details, on the JSON and the PDF alike', async () => {
    for (const path of [
      '/reports/acme/dsb',
      '/reports/acme/dsb/pdf',
      '/reports/acme/analytics',
      '/reports/acme/analytics/pdf',
    ]) {
      const bad = await call('GET', `${path}?source=guess`, owner);
      expect(bad.statusCode, path).toBe(400);
      expect(bad.json(), path).toMatchObject({ code: 'validation_failed' });
      expect(bad.json().details, path).toEqual([{ path: 'query.source', message: 'validation.choice' }]);
    }
    // Alongside another bad field, each is named.
    const both = await call('GET', '/reports/acme/dsb?period=month&source=GATEWAY', owner);
    expect(
      both
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['query.period', 'query.source']);
  });

  it('is checked only after the session: 401 without one', async () => {
    const anonymous = await call('GET', '/reports/acme/dsb?source=guess');
    expect(anonymous.statusCode).toBe(401);
  });
});
