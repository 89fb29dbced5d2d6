import { generateKeyPair } from '@palisade/gateway-config';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { caller, pdfText, userWithDevice } from './reports.test-kit';

const f = useFixture();
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);
const DAY = 86_400_000;

const ADMINS = ['admin@acme.test', 'auditor@acme.test', 'billing@acme.test', 'helpdesk@acme.test'];
let owner: string;
let device: { userId: string; deviceId: string };

interface Check {
  id: string;
  status: string;
  evidence: { name: string; note: string; at: string | null }[];
  evidenceTotal: number;
}

async function checkOf(id: string): Promise<Check> {
  const res = await call('GET', '/reports/acme/security-compliance', owner);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().checks.find((c: Check) => c.id === id);
}

/** Turns on two-factor authentication for an account through the API, as its owner would. */
async function enableTotp(username: string) {
  const token = await f.signIn(username);
  const started = await call('POST', '/me/totp', token);
  expect(started.statusCode, started.body).toBe(200);
  const confirmed = await call('POST', '/me/totp/verify', token, {
    code: await generate({ secret: started.json().secret }),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  device = await userWithDevice(
    f.app,
    'acme',
    owner,
    'fleet@acme.test',
    'Old laptop',
    generateKeyPair().publicKey,
  );
});

describe('security compliance', () => {
  it('lists the six checks in order with a summary of their states', async () => {
    const report = (await call('GET', '/reports/acme/security-compliance', owner)).json();
    expect(report.checks.map((c: Check) => c.id)).toEqual([
      'admin-mfa',
      'admin-sign-in',
      'threat-intel',
      'security-categories',
      'stale-devices',
      'device-posture',
    ]);
    const count = (status: string) => report.checks.filter((c: Check) => c.status === status).length;
    expect(report.summary).toEqual({ pass: count('pass'), warn: count('warn'), fail: count('fail') });
  });

  it('warns of administrators who never signed in or not for 90 days, and passes once all have', async () => {
    const never = await checkOf('admin-sign-in');
    expect(never.status).toBe('warn');
    expect(never.evidence).toEqual([
      { name: 'auditor@acme.test', note: 'neverSignedIn', at: null },
      { name: 'billing@acme.test', note: 'neverSignedIn', at: null },
      { name: 'helpdesk@acme.test', note: 'neverSignedIn', at: null },
    ]);
    for (const username of ADMINS.slice(1)) await f.signIn(username);
    const recent = await checkOf('admin-sign-in');
    expect(recent.status).toBe('pass');
    expect(recent.evidence.map((e) => [e.name, e.note])).toEqual(ADMINS.map((name) => [name, 'lastSignIn']));
    expect(Date.now() - Date.parse(recent.evidence[0].at as string)).toBeLessThan(60_000);

    await f.database.db.execute(
      sql`update sign_in_throttle set last_success_at = now() - interval '100 days'
          where username = 'helpdesk@acme.test'`,
    );
    const idle = await checkOf('admin-sign-in');
    expect(idle.status).toBe('warn');
    expect(idle.evidence).toEqual([
      { name: 'helpdesk@acme.test', note: 'lastSignIn', at: expect.any(String) },
    ]);
    expect(Math.round((Date.now() - Date.parse(idle.evidence[0].at as string)) / DAY)).toBe(100);
  });

  it('fails while an administrator has no second factor, naming them, and passes once they turn it on', async () => {
    const none = await checkOf('admin-mfa');
    expect(none.status).toBe('fail');
    expect(none.evidence).toEqual(ADMINS.map((name) => ({ name, note: 'mfaOff', at: null })));

    for (const username of ADMINS.slice(1)) await enableTotp(username);
    const one = await checkOf('admin-mfa');
    expect(one.status).toBe('fail');
    expect(one.evidence).toEqual([{ name: 'admin@acme.test', note: 'mfaOff', at: null }]);
    expect(one.evidenceTotal).toBe(1);
    // The PDF says so too, with what to do.
    const pdf = pdfText((await call('GET', '/reports/acme/security-compliance/pdf', owner)).rawPayload);
    expect(pdf).toContain('Failed Administrators use two-factor authentication');
    expect(pdf).toContain('admin@acme.test Two-factor authentication off');
    expect(pdf).toContain('What to do: Ask each administrator listed');

    await enableTotp('admin@acme.test');
    const all = await checkOf('admin-mfa');
    expect(all.status).toBe('pass');
    expect(all.evidence).toEqual(ADMINS.map((name) => ({ name, note: 'mfaOn', at: null })));
    const passed = pdfText(
      (await call('GET', '/reports/acme/security-compliance/pdf?lng=de', owner)).rawPayload,
    );
    expect(passed).toContain('Bestanden Administratoren nutzen Zwei-Faktor-Authentifizierung');
  });

  it('passes threat intelligence on an enabled feed and fails when every feed is off', async () => {
    const on = await checkOf('threat-intel');
    expect(on.status).toBe('pass');
    expect(on.evidence.map((e) => [e.name, e.note])).toEqual([['Palisade test indicators', 'feedEnabled']]);

    const feeds = (await call('GET', '/policy/feeds/acme', owner)).json() as {
      id: string;
      enabled: boolean;
    }[];
    for (const feed of feeds.filter((x) => x.enabled)) {
      const off = await call('PUT', `/policy/feeds/acme/${feed.id}`, owner, { enabled: false });
      expect(off.statusCode, off.body).toBe(200);
    }
    const off = await checkOf('threat-intel');
    expect(off.status).toBe('fail');
    expect(off.evidence.every((e) => e.note === 'feedDisabled')).toBe(true);
    expect(off.evidence.map((e) => e.name)).toContain('Palisade test indicators');
  });

  it('fails while a security category is not blocked, by the tenant or an enabled policy', async () => {
    const open = await checkOf('security-categories');
    expect(open.status).toBe('fail');
    expect(open.evidence.map((e) => e.name)).toEqual([
      'Malware',
      'Phishing',
      'Command and control',
      'Cryptomining',
      'Newly registered domains',
    ]);
    for (const id of ['malware', 'phishing', 'command-and-control', 'cryptomining']) {
      const blocked = await call('PUT', `/policy/categories/acme/${id}/action`, owner, { action: 'block' });
      expect(blocked.statusCode, blocked.body).toBe(200);
    }
    const one = await checkOf('security-categories');
    expect(one.evidence).toEqual([{ name: 'Newly registered domains', note: 'notBlocked', at: null }]);

    const policy = await call('POST', '/policy/acme', owner, {
      type: 'other',
      name: 'Block new domains',
      rules: [{ name: 'New domains', type: 'dmn', action: 'block', categories: ['newly-registered'] }],
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const closed = await checkOf('security-categories');
    expect(closed.status).toBe('pass');
    expect(closed.evidence.map((e) => e.note)).toEqual([
      'blockedByTenant',
      'blockedByTenant',
      'blockedByTenant',
      'blockedByTenant',
      'blockedByPolicy',
    ]);
  });

  it('warns of devices not seen for 30 days and of failing posture checks', async () => {
    expect((await checkOf('stale-devices')).status).toBe('pass');
    expect((await checkOf('device-posture')).status).toBe('pass');
    await f.database.db.execute(
      sql`update devices set last_seen_at = now() - interval '40 days', posture = '{"firewall": false}'::jsonb
          where id = ${device.deviceId}`,
    );
    const stale = await checkOf('stale-devices');
    expect(stale.status).toBe('warn');
    expect(stale.evidence).toEqual([
      { name: 'Old laptop (fleet@acme.test)', note: 'lastSeen', at: expect.any(String) },
    ]);
    const posture = await checkOf('device-posture');
    expect(posture).toMatchObject({
      status: 'warn',
      evidence: [{ name: 'Old laptop (fleet@acme.test)', note: 'postureFailing', at: null }],
    });
  });

  it("shows another tenant's checks on its own data only", async () => {
    const globex = await f.signIn('admin@globex.test');
    const report = (await call('GET', '/reports/globex/security-compliance', globex)).json();
    const mfa = report.checks.find((c: Check) => c.id === 'admin-mfa');
    expect(mfa.evidence).toEqual([{ name: 'admin@globex.test', note: 'mfaOff', at: null }]);
  });
});
