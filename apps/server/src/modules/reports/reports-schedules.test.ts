import { MAX_REPORT_RECIPIENTS } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/helper';
import { queryRows } from '../../db/client';
import { createMailer, type Mailer } from '../../lib/mailer';
import { nextRunAfter, runDueSchedules } from './reports.service';
import { caller, pdfText } from './reports.test-kit';

const f = useFixture();
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);

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
    // Another tenant's schedule is not found through one's own tenant either.
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

describe('mailing the reports', () => {
  // Each case starts without schedules: what is due is only what it made due.
  beforeEach(async () => {
    await f.database.db.execute(sql`delete from report_schedules`);
  });

  it('sends a report now to every recipient with the PDF attached, leaving the weekly run as it is', async () => {
    const created = (
      await call('POST', '/reports/acme/schedules', owner, {
        ...SCHEDULE,
        recipients: ['now-a@acme.test', 'now-b@acme.test'],
      })
    ).json();
    const res = await call('POST', `/reports/acme/schedules/${created.id}/send`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sentTo: ['now-a@acme.test', 'now-b@acme.test'] });
    for (const to of ['now-a@acme.test', 'now-b@acme.test']) {
      const [mail] = await mailsTo(to);
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
    expect((await eventsOf('report.schedule.send')).map((e) => e.object_id)).toEqual([created.id]);
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
    // Due on the Monday before the change to summer time: 08:00 in Berlin is 07:00 UTC, a week on 06:00 UTC.
    const due = new Date('2027-03-22T07:00:00.000Z');
    await f.database.db.execute(
      sql`update report_schedules set next_run_at = ${due} where id = ${created.id}`,
    );
    const now = new Date(due.getTime() + 30_000);
    const other = await f.startInstance();
    const sent = await Promise.all([
      runDueSchedules({ database: f.database, mailer: createMailer(f.database, null) }, now),
      runDueSchedules({ database: other.database, mailer: createMailer(other.database, null) }, now),
      runDueSchedules({ database: f.database, mailer: createMailer(f.database, null) }, now),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    for (const to of ['weekly-a@acme.test', 'weekly-b@acme.test']) {
      const mails = await mailsTo(to);
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
    expect(await runDueSchedules({ database: f.database, mailer: createMailer(f.database, null) }, now)).toBe(
      0,
    );
    await call('DELETE', `/reports/acme/schedules/${created.id}`, owner);
  });

  it('keeps why a mailing failed and still moves on to the next week', async () => {
    const created = (await call('POST', '/reports/acme/schedules', owner, SCHEDULE)).json();
    const due = new Date(created.nextRunAt);
    const failing: Mailer = {
      send: async () => {
        throw new Error('SMTP server said no');
      },
    };
    expect(await runDueSchedules({ database: f.database, mailer: failing }, due)).toBe(0);
    const [after] = (await call('GET', '/reports/acme/schedules', owner)).json().items;
    expect(after.lastError).toBe('SMTP server said no');
    expect(Date.parse(after.nextRunAt) - due.getTime()).toBe(7 * 86_400_000);
    // Saving the schedule again clears the error.
    const saved = await call('PUT', `/reports/acme/schedules/${created.id}`, owner, SCHEDULE);
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
