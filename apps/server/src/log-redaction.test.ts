import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readOutbox, useFixture } from '../test/helper';

/**
 * The server log of a whole run holds no credential (issue 31): every line the app writes — the request log at
 * the most verbose level, Fastify's own warnings, errors — is collected and searched for every session id, API
 * token, embed token and mailed-link id this run used, in addresses, headers and bodies.
 */
const lines: string[] = [];
const f = useFixture({ logLevel: 'trace' }, { logSink: { write: (line: string) => lines.push(line) } });

describe('the server log', () => {
  it('never holds a session id, token, embed token or mailed link id used in the run', async () => {
    const sessionId = await f.signIn('admin@acme.test');
    const headers = { 'x-auth-token': sessionId };
    const secrets: string[] = [sessionId];

    // Page loads carrying credentials in their query (an old embed link, a pasted token) and a mailed link's id.
    for (const url of [
      `/embed/global?sid=${sessionId}`,
      `/users/list?lng=de&sid=${sessionId}`,
      `/users/list?token=${sessionId}`,
      '/verify/email-verification',
    ]) {
      await f.app.inject({ url });
    }
    // API calls: fine, refused, malformed, unknown.
    await f.app.inject({ url: '/api/session', headers });
    await f.app.inject({ url: '/api/subscriber/user/globex', headers });
    await f.app.inject({ url: '/api/subscriber/user/acme?limit=nope', headers });
    await f.app.inject({ url: `/api/nothing-here?sid=${sessionId}`, headers });
    await f.app.inject({ url: '/api/session', headers: { 'x-auth-token': `${sessionId}x` } });

    const token = await f.app.inject({
      method: 'POST',
      url: '/api/me/tokens',
      headers,
      payload: { name: 'Log check', role: 'auditor' },
    });
    const apiToken = token.json().secret as string;
    secrets.push(apiToken);
    await f.app.inject({
      url: '/api/subscriber/user/acme',
      headers: { authorization: `Bearer ${apiToken}` },
    });
    const madeUp = `pal_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'a').slice(0, 40)}`;
    secrets.push(madeUp);
    await f.app.inject({ url: '/api/subscriber/user/acme', headers: { authorization: `Bearer ${madeUp}` } });

    const link = await f.app.inject({
      method: 'POST',
      url: '/api/embed-links/acme',
      headers,
      payload: { name: 'Log wall', kinds: ['tenant'], expiresInDays: 1 },
    });
    const embedToken = link.json().token as string;
    secrets.push(embedToken);
    await f.app.inject({ url: `/embed/tenant/acme?token=${embedToken}` });
    await f.app.inject({ url: '/api/embed/session', headers: { authorization: `Bearer ${embedToken}` } });
    await f.app.inject({ url: '/api/session', headers: { authorization: `Bearer ${embedToken}` } });

    await f.app.inject({
      method: 'POST',
      url: '/api/admins/acme/invite',
      headers,
      payload: {
        email: 'log.check@acme.test',
        firstname: 'Log',
        lastname: 'Check',
        role: 'auditor',
        customRoleId: null,
      },
    });
    const [mail] = await readOutbox(f.database, 'log.check@acme.test');
    const transid = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
    secrets.push(transid);
    await f.app.inject({ url: `/verify/${transid}` });
    await f.app.inject({ url: `/api/invite/${transid}` });
    await f.app.inject({ method: 'DELETE', url: '/api/session', headers });

    const log = lines.join('');
    // The log is there to search: every request was logged.
    expect(lines.filter((line) => line.includes('incoming request')).length).toBeGreaterThan(20);
    expect(log).toContain('[redacted]');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      expect(log.includes(secret), `a credential in the log: ${secret.slice(0, 8)}…`).toBe(false);
    }
  });
});
