import { and, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { PASSWORD, useFixture } from '../../../test/helper';
import { sessions, transactions, users } from '../../db/schema';
import { isInternetExplorer } from './session.service';

/** Real User-Agent headers (spec §6 "IE disabled"). */
const UA = {
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  ie11Windows7: 'Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko',
  ie11CompatibilityView:
    'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E; .NET CLR 2.0.50727)',
  ie10: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; WOW64; Trident/6.0)',
  ie9: 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80',
  edgeLegacy:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
  chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
};

describe('isInternetExplorer', () => {
  it('knows Internet Explorer 9, 10 and 11 (also in compatibility view)', () => {
    for (const ua of [UA.ie11, UA.ie11Windows7, UA.ie11CompatibilityView, UA.ie10, UA.ie9]) {
      expect(isInternetExplorer(ua), ua).toBe(true);
    }
  });

  it('lets Edge (new and legacy), Chrome, Firefox and Safari through, and no header at all', () => {
    for (const ua of [UA.edge, UA.edgeLegacy, UA.chrome, UA.firefox, UA.safari, '', null, undefined]) {
      expect(isInternetExplorer(ua), String(ua)).toBe(false);
    }
  });
});

const f = useFixture();
const auth = (token: string) => ({ 'x-auth-token': token });

const signIn = (username: string, userAgent: string, password = PASSWORD) =>
  f.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { 'user-agent': userAgent },
    payload: { username, password },
  });

async function userId(username: string) {
  const [row] = await f.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return row.id;
}

async function sessionCount(username: string) {
  const rows = await f.database.db
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(eq(sessions.userId, await userId(username)));
  return rows.length;
}

describe('ieDisabled (configuration flag) at sign-in', () => {
  it('refuses Internet Explorer 11 with 403 browser_unsupported while the flag is on (the default), and makes no session', async () => {
    const before = await sessionCount('admin@acme.test');
    for (const ua of [UA.ie11, UA.ie10]) {
      const res = await signIn('admin@acme.test', ua);
      expect(res.statusCode, ua).toBe(403);
      expect(res.json()).toMatchObject({ errcode: 45, code: 'browser_unsupported' });
      expect(res.json()).not.toHaveProperty('sessid');
    }
    expect(await sessionCount('admin@acme.test')).toBe(before);
  });

  it('signs Chrome and Edge in while the flag is on', async () => {
    const before = await sessionCount('admin@acme.test');
    for (const ua of [UA.chrome, UA.edge]) {
      const res = await signIn('admin@acme.test', ua);
      expect(res.statusCode, ua).toBe(200);
      expect(res.json().sessid).toEqual(expect.any(String));
    }
    expect(await sessionCount('admin@acme.test')).toBe(before + 2);
  });

  it('answers a wrong password from Internet Explorer as from any browser: the flag is not revealed', async () => {
    const fromIe = await signIn('auditor@acme.test', UA.ie11, 'not-the-password');
    const fromChrome = await signIn('auditor@acme.test', UA.chrome, 'not-the-password');
    expect(fromIe.statusCode).toBe(401);
    expect(fromIe.json()).toEqual(fromChrome.json());
    expect(fromIe.json()).toMatchObject({ errcode: 8, code: 'invalid_credentials' });
    const unknown = await signIn('ghost@acme.test', UA.ie11, 'not-the-password');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(fromChrome.json());
  });

  it('refuses Internet Explorer at both steps of a TOTP sign-in, and no session is made', async () => {
    const token = await f.signIn('admin@globex.test');
    const { secret } = (
      await f.app.inject({ method: 'POST', url: '/api/me/totp', headers: auth(token) })
    ).json();
    const enrolled = await f.app.inject({
      method: 'POST',
      url: '/api/me/totp/verify',
      headers: auth(token),
      payload: { code: await generate({ secret }) },
    });
    expect(enrolled.json()).toEqual({ ok: true });
    const sessionsBefore = await sessionCount('admin@globex.test');
    const globexAdmin = await userId('admin@globex.test');
    const otpSteps = async () =>
      (
        await f.database.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(and(eq(transactions.userId, globexAdmin), eq(transactions.kind, 'otp_sign_in')))
      ).length;
    const stepsBefore = await otpSteps();

    // The password step: refused before a code is asked for.
    const first = await signIn('admin@globex.test', UA.ie11);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({ code: 'browser_unsupported' });
    expect(first.json()).not.toHaveProperty('transid');
    expect(await otpSteps()).toBe(stepsBefore);

    // The code step from Internet Explorer (the password step came from another browser): refused, and spent.
    const step = await signIn('admin@globex.test', UA.chrome);
    expect(step.json()).toEqual({ otpRequired: true, transid: expect.any(String) });
    const { transid } = step.json();
    const refused = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      headers: { 'user-agent': UA.ie11 },
      payload: { transid, code: await generate({ secret }) },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ errcode: 45, code: 'browser_unsupported' });
    expect(await sessionCount('admin@globex.test')).toBe(sessionsBefore);
    const again = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      headers: { 'user-agent': UA.chrome },
      payload: { transid, code: await generate({ secret }) },
    });
    expect(again.json().code).toBe('transaction_expired');

    // From Firefox the whole sign-in goes through.
    const next = (await signIn('admin@globex.test', UA.firefox)).json();
    const done = await f.app.inject({
      method: 'POST',
      url: '/api/session/otp',
      headers: { 'user-agent': UA.firefox },
      payload: { transid: next.transid, code: await generate({ secret }) },
    });
    expect(done.statusCode).toBe(200);
    expect(await sessionCount('admin@globex.test')).toBe(sessionsBefore + 1);
  });

  it("signs Internet Explorer in once the tenant's admin turns the flag off, for that tenant only", async () => {
    const owner = await f.signIn('admin@acme.test');
    const put = await f.app.inject({
      method: 'PUT',
      url: '/api/tenant/acme/configurations',
      headers: auth(owner),
      payload: { configurations: { ieDisabled: false } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().configurations).toMatchObject({ ieDisabled: false });

    const before = await sessionCount('helpdesk@acme.test');
    const res = await signIn('helpdesk@acme.test', UA.ie11);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tenant: 'acme', sessid: expect.any(String) });
    expect(await sessionCount('helpdesk@acme.test')).toBe(before + 1);

    // The flag is each user's own tenant's: the partner's tenant and globex still refuse Internet Explorer.
    expect((await signIn('partner@northwind.test', UA.ie11)).json().code).toBe('browser_unsupported');
    expect((await signIn('admin@globex.test', UA.ie11)).json().code).toBe('browser_unsupported');

    // Turned on again, it holds at once.
    await f.app.inject({
      method: 'PUT',
      url: '/api/tenant/acme/configurations',
      headers: auth(owner),
      payload: { configurations: { ieDisabled: true } },
    });
    expect((await signIn('helpdesk@acme.test', UA.ie11)).statusCode).toBe(403);
  });
});
