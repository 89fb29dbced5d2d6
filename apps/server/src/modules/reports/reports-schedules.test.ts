import { MAX_REPORT_RECIPIENTS, REPORT_MAIL_QUOTAS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { createMailer, type Mailer } from '../../lib/mailer';
import { MAIL_NAME_MAX, mailSafeName } from './reports.recipients';
import { nextRunAfter, runDueSchedules } from './reports.service';
import { caller, pdfText } from './reports.test-kit';

const f = useFixture();
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);
const deps = (mailer: Mailer = createMailer(f.database, null)) => ({
  database: f.database,
  mailer,
  config: f.config,
});

let owner: string;
let auditor: string;
let globex: string;
let enduser: string;

const SCHEDULE = {
  kind: 'weekly-sase-insights',
  weekday: 1,
  hour: 8,
  timezone: 'Europe/Berlin',
  recipients: ['ciso@acme.test', 'soc@acme.test'],
};

/** acme's administrators who signed in (active): they are mailed without confirming. */
const MEMBERS = ['admin@acme.test', 'auditor@acme.test', 'helpdesk@acme.test', 'billing@acme.test'];

/** The weekday and hour of an instant in a time zone (`Mon 08`). */
function localTime(iso: string, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('weekday')} ${part('hour')}`;
}

interface OutboxRow {
  to_address: string;
  subject: string;
  body_text: string;
  attachments: { filename: string; contentType: string; content: string }[];
}

/** The mails of the local outbox to an address, oldest first, with their attachments. */
async function mailsTo(address: string): Promise<OutboxRow[]> {
  const rows = await queryRows<OutboxRow>(
    f.database.db,
    sql`select to_address, subject, body_text, attachments from mail_outbox
        where to_address = ${address} order by created_at`,
  );
  return rows.map((row) => ({
    ...row,
    attachments: typeof row.attachments === 'string' ? JSON.parse(row.attachments) : row.attachments,
  }));
}

/** The reports (mails with a PDF) an address was sent. */
const reportsTo = async (address: string) => (await mailsTo(address)).filter((m) => m.attachments.length > 0);
/** The verification mails an address was sent. */
const linksTo = async (address: string) => (await mailsTo(address)).filter((m) => m.attachments.length === 0);

/** The secret of the newest confirmation link mailed to an address. */
async function tokenMailedTo(address: string): Promise<string> {
  const mail = (await linksTo(address)).at(-1);
  const token = /\/verify\/report-recipient\/([A-Za-z0-9_-]+)/.exec(mail?.body_text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link mailed to ${address}`);
  return token;
}

/** Opens the link mailed to an address as its owner would (the public confirm route). */
async function confirmByMail(address: string) {
  const res = await call('POST', '/reports/recipients/confirm', undefined, {
    token: await tokenMailedTo(address),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function eventsOf(action: string) {
  return queryRows<{
    object_id: string;
    object_name: string;
    actor_name: string;
    before: unknown;
    after: unknown;
  }>(
    f.database.db,
    sql`select object_id, object_name, actor_name, before, after from admin_events
        where tenant_id = ${f.acme.id} and action = ${action} order by at`,
  );
}

/** Forgets acme's counted mails: each quota case starts from an empty hour and day. */
const resetQuota = () => f.database.db.execute(sql`delete from report_mails where tenant_id = ${f.acme.id}`);

/** Counts `n` mails of acme sent `agoMs` ago, as earlier mailings would have. */
const countMails = (n: number, agoMs: number) =>
  f.database.db.execute(
    sql`insert into report_mails (tenant_id, kind, sent_at)
        select ${f.acme.id}, 'report', now() - ${`${agoMs} milliseconds`}::interval from generate_series(1, ${n})`,
  );

beforeAll(async () => {
  owner = await f.signIn('admin@acme.test');
  auditor = await f.signIn('auditor@acme.test');
  globex = await f.signIn('admin@globex.test');
  enduser = await f.signIn('enduser@acme.test');
});

describe('report schedules: access and input', () => {
  it('answers 401, 403, 404 in that order on every schedule route', async () => {
    const created = await call('POST', '/reports/acme/schedules', owner, SCHEDULE);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown][] = [
      ['GET', '/reports/acme/schedules', undefined],
      ['POST', '/reports/acme/schedules', SCHEDULE],
      ['PUT', `/reports/acme/schedules/${id}`, SCHEDULE],
      ['DELETE', `/reports/acme/schedules/${id}`, undefined],
      ['POST', `/reports/acme/schedules/${id}/send`, undefined],
      ['POST', '/reports/acme/recipients/resend', { email: 'ciso@acme.test' }],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, undefined, body)).statusCode, `${method} ${path}`).toBe(401);
      expect((await call(method, path, globex, body)).statusCode, `${method} ${path}`).toBe(404);
      expect((await call(method, path, enduser, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    // Reading is the dashboard's right; changing and sending are the dashboard's update right.
    expect((await call('GET', '/reports/acme/schedules', auditor)).statusCode).toBe(200);
    for (const [method, path, body] of routes.slice(1)) {
      expect((await call(method, path, auditor, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    // Another tenant's schedule (and recipient) is not found through one's own tenant either.
    for (const [method, path, body] of routes.slice(2)) {
      const own = path.replace('/acme/', '/globex/');
      expect((await call(method, own, globex, body)).statusCode, `${method} ${own}`).toBe(404);
    }
    expect((await call('DELETE', `/reports/acme/schedules/${id}`, owner)).statusCode).toBe(200);
  });

  it('refuses bad schedules with field details', async () => {
    const bad = await call('POST', '/reports/acme/schedules', owner, {
      kind: 'monthly',
      weekday: 7,
      hour: 24,
      timezone: 'Mars/Olympus_Mons',
      recipients: [],
      language: 'fr',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual(
      expect.arrayContaining([
        { path: 'body.kind', message: 'validation.choice' },
        { path: 'body.weekday', message: 'validation.choice' },
        { path: 'body.hour', message: 'validation.choice' },
        { path: 'body.timezone', message: 'validation.timezone' },
        { path: 'body.recipients', message: 'validation.required' },
        { path: 'body.language', message: 'validation.choice' },
      ]),
    );
    const many = await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      recipients: Array.from({ length: MAX_REPORT_RECIPIENTS + 1 }, (_, i) => `r${i}@acme.test`),
    });
    expect(many.json().details).toEqual([{ path: 'body.recipients', message: 'validation.maxRecipients' }]);
    const twice = await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      recipients: ['a@acme.test', 'not an address', 'A@acme.test'],
    });
    expect(twice.json().details).toEqual([
      { path: 'body.recipients.1', message: 'validation.email' },
      { path: 'body.recipients.2', message: 'validation.duplicate' },
    ]);
    const badId = await call('PUT', '/reports/acme/schedules/not-a-uuid', owner, SCHEDULE);
    expect(badId.json().details).toEqual([{ path: 'params.id', message: 'validation.uuid' }]);
    const unknown = await call(
      'DELETE',
      '/reports/acme/schedules/00000000-0000-4000-8000-000000000000',
      owner,
    );
    expect(unknown.statusCode).toBe(404);
    // None of the refused schedules mailed anyone a link.
    expect(await linksTo('r0@acme.test')).toEqual([]);
    expect(await linksTo('a@acme.test')).toEqual([]);
  });
});

describe('report schedules: create, change, delete', () => {
  it('creates a weekly schedule with its next run in its time zone, and logs it', async () => {
    const res = await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      timezone: 'europe/berlin',
      language: 'de',
    });
    expect(res.statusCode, res.body).toBe(201);
    const schedule = res.json();
    expect(schedule).toMatchObject({
      kind: 'weekly-sase-insights',
      weekday: 1,
      hour: 8,
      timezone: 'Europe/Berlin',
      recipients: ['ciso@acme.test', 'soc@acme.test'],
      language: 'de',
      enabled: true,
      lastRunAt: null,
      lastError: null,
      lastErrorCode: null,
    });
    expect(localTime(schedule.nextRunAt, 'Europe/Berlin')).toBe('Mon 08');
    expect(Date.parse(schedule.nextRunAt) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(schedule.nextRunAt) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect((await call('GET', '/reports/acme/schedules', auditor)).json().items).toEqual([schedule]);
    const created = (await eventsOf('report.schedule.create')).at(-1);
    expect(created).toMatchObject({
      object_id: schedule.id,
      object_name: 'weekly-sase-insights',
      actor_name: 'admin@acme.test',
      after: expect.objectContaining({ timezone: 'Europe/Berlin', recipients: SCHEDULE.recipients }),
    });
    expect((await call('GET', '/reports/globex/schedules', globex)).json().items).toEqual([]);
  });

  it('moves the next run when the schedule changes, has none while disabled, and logs both sides', async () => {
    const [schedule] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    const changed = await call('PUT', `/reports/acme/schedules/${schedule.id}`, owner, {
      ...SCHEDULE,
      kind: 'security-compliance',
      weekday: 5,
      hour: 17,
      timezone: 'America/New_York',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ kind: 'security-compliance', language: 'en' });
    expect(localTime(changed.json().nextRunAt, 'America/New_York')).toBe('Fri 17');
    const [updated] = await eventsOf('report.schedule.update');
    expect(updated.before).toMatchObject({ kind: 'weekly-sase-insights', hour: 8 });
    expect(updated.after).toMatchObject({ kind: 'security-compliance', hour: 17 });

    const off = await call('PUT', `/reports/acme/schedules/${schedule.id}`, owner, {
      ...SCHEDULE,
      enabled: false,
    });
    expect(off.json()).toMatchObject({ enabled: false, nextRunAt: null });
  });

  it('deletes a schedule and logs it', async () => {
    const [schedule] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    const res = await call('DELETE', `/reports/acme/schedules/${schedule.id}`, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('GET', '/reports/acme/schedules', owner)).json().items).toEqual([]);
    const deleted = await eventsOf('report.schedule.delete');
    expect(deleted.map((e) => e.object_id)).toContain(schedule.id);
    expect((await call('DELETE', `/reports/acme/schedules/${schedule.id}`, owner)).statusCode).toBe(404);
  });
});

describe('report recipients: members, and outside addresses that confirm a mailed link', () => {
  beforeEach(async () => {
    await f.database.db.execute(sql`delete from report_schedules`);
    await resetQuota();
  });

  it('mails an outside address one confirmation link per tenant, our text with no words of the tenant but its name', async () => {
    const first = await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      language: 'de',
      recipients: ['once@outside.test', 'admin@acme.test'],
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().recipientStates).toEqual([
      {
        email: 'once@outside.test',
        state: 'pending',
        mailedAt: expect.any(String),
        expiresAt: expect.any(String),
      },
      { email: 'admin@acme.test', state: 'member', mailedAt: null, expiresAt: null },
    ]);
    const expires = Date.parse(first.json().recipientStates[0].expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(6.9 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(7 * 86_400_000);
    const [mail] = await linksTo('once@outside.test');
    expect(mail.subject).toBe('Bestätigen Sie Ihre Adresse für Palisade-Berichte – ACME');
    expect(mail.body_text).toMatch(
      /^Ein Administrator des Palisade-Arbeitsbereichs ACME möchte Sicherheitsberichte an diese Adresse senden\./,
    );
    expect(mail.body_text).toMatch(/\/verify\/report-recipient\/[A-Za-z0-9_-]{43}\n/);
    // The secret is stored only as its hash.
    const token = await tokenMailedTo('once@outside.test');
    const stored = await queryRows<{ token_hash: string }>(
      f.database.db,
      sql`select token_hash from report_recipients where email = 'once@outside.test'`,
    );
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].token_hash).not.toContain(token);
    // A member is never sent a link.
    expect((await linksTo('admin@acme.test')).filter((m) => m.subject.includes('Palisade-Berichte'))).toEqual(
      [],
    );
    const [created] = (await eventsOf('report.schedule.create')).slice(-1);
    expect(created.after).toMatchObject({ verificationMailed: ['once@outside.test'] });

    // Saving it again, or another schedule naming it, mails nothing more.
    await call('PUT', `/reports/acme/schedules/${first.json().id}`, owner, {
      ...SCHEDULE,
      recipients: ['once@outside.test'],
    });
    await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      kind: 'dsb',
      recipients: ['once@outside.test'],
    });
    expect(await linksTo('once@outside.test')).toHaveLength(1);
  });

  it('does not mail an unconfirmed outside address a report until it confirms, then does', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        recipients: ['wait@outside.test', 'admin@acme.test'],
      })
    ).json();
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sentTo: ['admin@acme.test'], waiting: ['wait@outside.test'] });
    expect(await reportsTo('wait@outside.test')).toEqual([]);
    expect((await eventsOf('report.schedule.send')).at(-1)?.after).toEqual({
      recipients: ['admin@acme.test'],
      waiting: ['wait@outside.test'],
    });

    const confirmed = await confirmByMail('wait@outside.test');
    expect(confirmed).toEqual({ email: 'wait@outside.test', tenantDisplayName: 'ACME' });
    const [listed] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(listed.recipientStates[0]).toMatchObject({ email: 'wait@outside.test', state: 'verified' });
    const [event] = (await eventsOf('report.recipient.confirm')).slice(-1);
    expect(event).toMatchObject({ object_id: 'wait@outside.test', actor_name: 'wait@outside.test' });

    const again = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(again.json()).toMatchObject({
      sentTo: ['wait@outside.test', 'admin@acme.test'],
      waiting: [],
    });
    const [report] = await reportsTo('wait@outside.test');
    expect(report.subject).toBe('Weekly SASE insights – ACME');
  });

  it('refuses "send now" when no recipient may be mailed, and the scheduler skips such a run', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        // An end user's address is no member's: administrators type them in unchecked.
        recipients: ['nobody@outside.test', 'enduser@acme.test'],
      })
    ).json();
    expect(created.recipientStates.map((r: { state: string }) => r.state)).toEqual(['pending', 'pending']);
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errcode: 34, code: 'report_recipients_unverified' });
    expect(await reportsTo('nobody@outside.test')).toEqual([]);
    expect(await reportsTo('enduser@acme.test')).toEqual([]);

    const due = new Date(created.nextRunAt);
    expect(await runDueSchedules(deps(), due)).toBe(0);
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after).toMatchObject({
      lastErrorCode: 'report_recipients_unverified',
      lastRunAt: due.toISOString(),
    });
    expect(Date.parse(after.nextRunAt) - due.getTime()).toBe(7 * 86_400_000);
    expect(await reportsTo('nobody@outside.test')).toEqual([]);
  });

  it('counts an administrator as a member whatever the case of their account name', async () => {
    await f.database.db.execute(
      sql`update users set username = 'HelpDesk@ACME.test' where username = 'helpdesk@acme.test'`,
    );
    try {
      const created = await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        recipients: ['helpdesk@acme.test'],
      });
      expect(created.json().recipientStates).toEqual([
        { email: 'helpdesk@acme.test', state: 'member', mailedAt: null, expiresAt: null },
      ]);
      expect(await linksTo('helpdesk@acme.test')).toEqual([]);
    } finally {
      await f.database.db.execute(
        sql`update users set username = 'helpdesk@acme.test' where username = 'HelpDesk@ACME.test'`,
      );
    }
  });

  it('confirms by the link once: 400 for a malformed secret, 404 for an unknown or used one, 410 when expired', async () => {
    await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      recipients: ['confirm@outside.test', 'late@outside.test'],
    });
    const missing = await call('POST', '/reports/recipients/confirm', undefined, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: 'body.token', message: expect.any(String) }]);
    const odd = await call('POST', '/reports/recipients/confirm', undefined, { token: 'not a token!' });
    expect(odd.json().details).toEqual([{ path: 'body.token', message: 'validation.format' }]);
    const unknown = await call('POST', '/reports/recipients/confirm', undefined, { token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(404);

    const token = await tokenMailedTo('confirm@outside.test');
    const ok = await call('POST', '/reports/recipients/confirm', undefined, { token });
    expect(ok.statusCode, ok.body).toBe(200);
    const reused = await call('POST', '/reports/recipients/confirm', undefined, { token });
    expect(reused.statusCode).toBe(404);

    await f.database.db.execute(
      sql`update report_recipients set token_expires_at = now() - interval '1 minute'
          where email = 'late@outside.test'`,
    );
    const late = await call('POST', '/reports/recipients/confirm', undefined, {
      token: await tokenMailedTo('late@outside.test'),
    });
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ code: 'transaction_expired' });
    const [listed] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(listed.recipientStates.map((r: { state: string }) => r.state)).toEqual(['verified', 'expired']);
  });

  it('mails a new link on request, not twice within 15 minutes; the old link stops working', async () => {
    await call('POST', '/reports/acme/schedules', owner, { ...SCHEDULE, recipients: ['again@outside.test'] });
    const old = await tokenMailedTo('again@outside.test');
    const bad = await call('POST', '/reports/acme/recipients/resend', owner, { email: 'no address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'body.email', message: 'validation.email' }]);
    const notNamed = await call('POST', '/reports/acme/recipients/resend', owner, {
      email: 'stranger@outside.test',
    });
    expect(notNamed.statusCode).toBe(404);
    expect(await linksTo('stranger@outside.test')).toEqual([]);

    const soon = await call('POST', '/reports/acme/recipients/resend', owner, {
      email: 'again@outside.test',
    });
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ errcode: 35, code: 'report_recipient_recently_mailed' });
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(await linksTo('again@outside.test')).toHaveLength(1);

    await f.database.db.execute(
      sql`update report_recipients set mailed_at = now() - interval '16 minutes'
          where email = 'again@outside.test'`,
    );
    const res = await call('POST', '/reports/acme/recipients/resend', owner, { email: 'AGAIN@outside.test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'again@outside.test', state: 'pending' });
    expect(await linksTo('again@outside.test')).toHaveLength(2);
    expect((await eventsOf('report.recipient.resend')).at(-1)).toMatchObject({
      object_id: 'again@outside.test',
      actor_name: 'admin@acme.test',
    });
    expect((await call('POST', '/reports/recipients/confirm', undefined, { token: old })).statusCode).toBe(
      404,
    );
    await confirmByMail('again@outside.test');
    // A confirmed address (or a member) is answered as it is, and mailed nothing.
    const done = await call('POST', '/reports/acme/recipients/resend', owner, {
      email: 'again@outside.test',
    });
    expect(done.json()).toMatchObject({ state: 'verified' });
    expect(await linksTo('again@outside.test')).toHaveLength(2);
  });
});

describe('the mail quota of a tenant', () => {
  const trial = REPORT_MAIL_QUOTAS.trial;

  beforeAll(async () => {
    // acme is on the trial plan for these cases (a self-signed-up workspace is).
    await f.database.db.execute(
      sql`insert into subscriptions (tenant_id, plan, status, seats) values (${f.acme.id}, 'trial', 'trial', 10)`,
    );
  });
  afterAll(async () => {
    await f.database.db.execute(sql`delete from subscriptions where tenant_id = ${f.acme.id}`);
  });
  beforeEach(async () => {
    await f.database.db.execute(sql`delete from report_schedules`);
    await resetQuota();
  });

  it('refuses a burst of "send now" past the hourly quota: the outbox holds the quota, no more', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        kind: 'security-compliance',
        recipients: MEMBERS,
      })
    ).json();
    const before = await Promise.all(MEMBERS.map(async (to) => (await reportsTo(to)).length));
    const burst = trial.perHour / MEMBERS.length + 2;
    const answers = await Promise.all(
      Array.from({ length: burst }, () => call('POST', `/reports/acme/schedules/${created.id}/send`, owner)),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(trial.perHour / MEMBERS.length);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const refused = answers.find((res) => res.statusCode === 429);
    expect(refused?.json()).toMatchObject({ errcode: 33, code: 'report_mail_quota' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(3000);
    const after = await Promise.all(MEMBERS.map(async (to) => (await reportsTo(to)).length));
    const mailed = after.reduce((sum, n, i) => sum + n - before[i], 0);
    expect(mailed).toBe(trial.perHour);
  });

  it('refuses a mailing past the daily quota though the hour has room', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, { ...SCHEDULE, recipients: MEMBERS.slice(0, 2) })
    ).json();
    await countMails(trial.perDay - 1, 2 * 3_600_000);
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ errcode: 33 });
    // The oldest counted mail leaves the day in about 22 hours.
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(21 * 3600);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(22 * 3600);
  });

  it('counts verification mails too: a schedule whose links would pass the quota is not saved, nothing mailed', async () => {
    await countMails(trial.perHour, 60_000);
    const res = await call('POST', '/reports/acme/schedules', owner, {
      ...SCHEDULE,
      recipients: ['quota@outside.test'],
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ errcode: 33, code: 'report_mail_quota' });
    expect((await call('GET', '/reports/acme/schedules', owner)).json().items).toEqual([]);
    expect(await mailsTo('quota@outside.test')).toEqual([]);
    const rows = await queryRows(
      f.database.db,
      sql`select 1 from report_recipients where email = 'quota@outside.test'`,
    );
    expect(rows).toEqual([]);
  });

  it('has the scheduler skip a run past the quota, keep why, and not try it again before next week', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, { ...SCHEDULE, recipients: ['billing@acme.test'] })
    ).json();
    const due = new Date(created.nextRunAt);
    // The hour before the run used the quota up.
    await f.database.db.execute(
      sql`insert into report_mails (tenant_id, kind, sent_at)
          select ${f.acme.id}, 'report', ${new Date(due.getTime() - 60_000)}::timestamptz
          from generate_series(1, ${trial.perHour})`,
    );
    const before = (await reportsTo('billing@acme.test')).length;
    expect(await runDueSchedules(deps(), due)).toBe(0);
    expect(await runDueSchedules(deps(), new Date(due.getTime() + 60_000))).toBe(0);
    expect((await reportsTo('billing@acme.test')).length).toBe(before);
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after).toMatchObject({ lastErrorCode: 'report_mail_quota', lastRunAt: due.toISOString() });
    expect(Date.parse(after.nextRunAt) - due.getTime()).toBe(7 * 86_400_000);
  });

  it('gives a workspace off the trial the standard quota', async () => {
    await f.database.db.execute(sql`delete from subscriptions where tenant_id = ${f.acme.id}`);
    const created = (
      await call('POST', '/reports/acme/schedules', owner, { ...SCHEDULE, recipients: MEMBERS.slice(0, 1) })
    ).json();
    await countMails(trial.perHour, 60_000);
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(REPORT_MAIL_QUOTAS.standard.perHour).toBeGreaterThan(trial.perHour);
  });
});

describe('subject lines', () => {
  const HOSTILE = 'ACME\r\nBcc: victim@evil.test\u202e <b>Free</b> <a href="https://x.test">';

  beforeEach(async () => {
    await f.database.db.execute(sql`delete from report_schedules`);
    await resetQuota();
  });

  it("are our template with the tenant's name made safe, however its display name reads", async () => {
    const tenant = (await call('GET', '/subscriber/tenant/acme', owner)).json();
    const rename = (displayName: string) =>
      call('PUT', '/subscriber/tenant/acme', owner, {
        displayName,
        themevalue: tenant.themevalue,
        palette: tenant.palette,
        primaryColor: tenant.primaryColor,
      });
    const renamed = await rename(HOSTILE);
    expect(renamed.statusCode, renamed.body).toBe(200);
    try {
      const safe = 'ACME Bcc victim evil.test b Free b a href https x.test';
      const created = (
        await call('POST', '/reports/acme/schedules', owner, {
          ...SCHEDULE,
          recipients: ['subject@outside.test', 'admin@acme.test'],
        })
      ).json();
      const [link] = await linksTo('subject@outside.test');
      expect(link.subject).toBe(`Confirm your address for Palisade reports – ${safe}`);
      expect(link.body_text).toContain(`the Palisade workspace ${safe} would like`);
      expect(await confirmByMail('subject@outside.test')).toEqual({
        email: 'subject@outside.test',
        tenantDisplayName: safe,
      });
      expect((await call('POST', `/reports/acme/schedules/${created.id}/send`, owner)).statusCode).toBe(200);
      const [report] = await reportsTo('subject@outside.test');
      expect(report.subject).toBe(`Weekly SASE insights – ${safe}`);
      for (const mail of [link, report]) {
        expect(mail.subject).not.toMatch(/[\r\n<>@:\u202e]/);
        expect(mail.body_text).not.toMatch(/[\r<>\u202e]|victim@|https:\/\/x\.test/);
      }
    } finally {
      expect((await rename(tenant.displayName)).statusCode).toBe(200);
    }
  });

  it('keep no control or format characters, no markup, and at most 60 characters of the name', () => {
    expect(mailSafeName('Müller & Söhne (Köln) GmbH', 'x')).toBe('Müller & Söhne (Köln) GmbH');
    expect(mailSafeName('A\u0000B\u0007C\u2028D\u202eE\u200bF', 'x')).toBe('A B C D E F');
    expect(mailSafeName('＜script＞', 'x')).toBe('script');
    expect(mailSafeName('\r\n<>\t', 'fallback')).toBe('fallback');
    const long = mailSafeName('word '.repeat(40), 'x');
    expect([...long]).toHaveLength(MAIL_NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('mailing the reports', () => {
  // Each case starts without schedules: what is due is only what it made due.
  beforeEach(async () => {
    await f.database.db.execute(sql`delete from report_schedules`);
    await resetQuota();
  });

  it('sends a report now to every recipient with the PDF attached, leaving the weekly run as it is', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        recipients: ['now-a@acme.test', 'now-b@acme.test'],
      })
    ).json();
    await confirmByMail('now-a@acme.test');
    await confirmByMail('now-b@acme.test');
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sentTo: ['now-a@acme.test', 'now-b@acme.test'], waiting: [] });
    for (const to of ['now-a@acme.test', 'now-b@acme.test']) {
      const [mail] = await reportsTo(to);
      expect(mail.subject).toBe('Weekly SASE insights – ACME');
      expect(mail.body_text).toContain('The report is attached as a PDF.');
      expect(mail.attachments).toHaveLength(1);
      const [file] = mail.attachments;
      expect(file).toMatchObject({ contentType: 'application/pdf' });
      expect(file.filename).toMatch(/^weekly-sase-insights-acme-\d{4}-\d{2}-\d{2}\.pdf$/);
      const pdf = Buffer.from(file.content, 'base64');
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(pdf)).toContain('Weekly SASE insights');
    }
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after.nextRunAt).toBe(created.nextRunAt);
    expect(after.lastRunAt).toBe(res.json().sentAt);
    expect((await eventsOf('report.schedule.send')).map((e) => e.object_id)).toContain(created.id);
    await call('DELETE', `/reports/acme/schedules/${created.id}`, owner);
  });

  it('mails a due schedule once however many runners claim it, and moves it a week on in its time zone', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        kind: 'dsb',
        language: 'de',
        recipients: ['weekly-a@acme.test', 'weekly-b@acme.test'],
      })
    ).json();
    await confirmByMail('weekly-a@acme.test');
    await confirmByMail('weekly-b@acme.test');
    // Due on the Monday before the change to summer time: 08:00 in Berlin is 07:00 UTC, a week on 06:00 UTC.
    const due = new Date('2027-03-22T07:00:00.000Z');
    await f.database.db.execute(
      sql`update report_schedules set next_run_at = ${due} where id = ${created.id}`,
    );
    const now = new Date(due.getTime() + 30_000);
    const other = await f.startInstance();
    const sent = await Promise.all([
      runDueSchedules(deps(), now),
      runDueSchedules(
        { database: other.database, mailer: createMailer(other.database, null), config: f.config },
        now,
      ),
      runDueSchedules(deps(), now),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    for (const to of ['weekly-a@acme.test', 'weekly-b@acme.test']) {
      const mails = await reportsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('Tägliches Sicherheits-Briefing – ACME');
      expect(mails[0].attachments[0].filename).toBe('dsb-acme-2027-03-22.pdf');
      const text = pdfText(Buffer.from(mails[0].attachments[0].content, 'base64'));
      expect(text).toContain('Tägliches Sicherheits-Briefing');
      // A scheduled brief covers the week before the run, in the schedule's zone.
      expect(text).toContain('Zeitraum: 15.03.2027, 08:00 – 22.03.2027, 08:00 (MEZ)');
    }
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after.nextRunAt).toBe('2027-03-29T06:00:00.000Z');
    expect(localTime(after.nextRunAt, 'Europe/Berlin')).toBe('Mon 08');
    expect(after.lastRunAt).toBe(now.toISOString());
    expect(after.lastError).toBeNull();
    // Nothing is due any more at that time.
    expect(await runDueSchedules(deps(), now)).toBe(0);
    await call('DELETE', `/reports/acme/schedules/${created.id}`, owner);
  });

  it('keeps why a mailing failed and still moves on to the next week', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, { ...SCHEDULE, recipients: ['admin@acme.test'] })
    ).json();
    const due = new Date(created.nextRunAt);
    const failing: Mailer = {
      send: async () => {
        throw new Error('SMTP server said no');
      },
    };
    expect(await runDueSchedules(deps(failing), due)).toBe(0);
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after.lastError).toBe('SMTP server said no');
    expect(after.lastErrorCode).toBeNull();
    expect(Date.parse(after.nextRunAt) - due.getTime()).toBe(7 * 86_400_000);
    // Saving the schedule again clears the error.
    const saved = await call('PUT', `/reports/acme/schedules/${created.id}`, owner, {
      ...SCHEDULE,
      recipients: ['admin@acme.test'],
    });
    expect(saved.json().lastError).toBeNull();
  });

  it('computes next runs with croner across daylight saving time', () => {
    const berlin = { weekday: 0, hour: 2, timezone: 'Europe/Berlin' };
    // 02:00 does not exist on 2027-03-28 in Berlin: the run is at 03:00 local (01:00 UTC).
    expect(nextRunAfter(berlin, new Date('2027-03-27T00:00:00Z'))?.toISOString()).toBe(
      '2027-03-28T01:00:00.000Z',
    );
    expect(
      nextRunAfter({ weekday: 3, hour: 9, timezone: 'UTC' }, new Date('2027-01-06T09:00:00Z'))?.toISOString(),
    ).toBe('2027-01-13T09:00:00.000Z');
  });
});
