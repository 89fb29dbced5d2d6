import { describe, expect, it } from 'vitest';
import { loggedUrl, redactSecrets } from './request-log';

describe('the request log', () => {
  it('keeps no credential an address carries in its query, and every other parameter', () => {
    expect(loggedUrl('/embed/tenant/acme?sid=s3cr3t-session-id')).toBe('/embed/tenant/acme?sid=[redacted]');
    expect(loggedUrl('/embed/global?range=7d&sid=abc&x=1')).toBe('/embed/global?range=7d&sid=[redacted]&x=1');
    expect(loggedUrl('/embed/global?SID=abc#top')).toBe('/embed/global?SID=[redacted]#top');
    expect(loggedUrl('/embed/spa/acme?token=emb_x&lng=de')).toBe('/embed/spa/acme?token=[redacted]&lng=de');
    expect(loggedUrl('/callback?code=abc&state=s')).toBe('/callback?code=[redacted]&state=s');
    expect(loggedUrl('/api/users?side=1&sidebar=a&tokens=2')).toBe('/api/users?side=1&sidebar=a&tokens=2');
  });

  it('keeps no mailed link’s id or enrolment token of a path, and the fixed screens', () => {
    expect(loggedUrl('/verify/Abc-123_x?lng=de')).toBe('/verify/[redacted]?lng=de');
    expect(loggedUrl('/verify/wg/Abc')).toBe('/verify/wg/[redacted]');
    expect(loggedUrl('/api/invite/Zz9/accept')).toBe('/api/invite/[redacted]/accept');
    expect(loggedUrl('/api/user/verify/q1')).toBe('/api/user/verify/[redacted]');
    expect(loggedUrl('/api/trans/status/web/q1')).toBe('/api/trans/status/web/[redacted]');
    expect(loggedUrl('/api/enrol/pal_enr_x')).toBe('/api/enrol/[redacted]');
    expect(loggedUrl('/verify/email-verification')).toBe('/verify/email-verification');
    expect(loggedUrl('/verify/otp-verification')).toBe('/verify/otp-verification');
    expect(loggedUrl('/verify/samlfailure/42')).toBe('/verify/samlfailure/42');
  });

  it('replaces credentials anywhere in a serialised line: headers, prefixed secrets, quoted addresses', () => {
    const token = `pal_${'a1B2'.repeat(10)}`;
    const line = JSON.stringify({
      msg: `Reply was already sent in "/embed/global?sid=SESSION1" for ${token}`,
      req: { headers: { authorization: `Bearer ${token}`, 'x-auth-token': 'SESSION2', cookie: 'a=b' } },
      gateway: `gw_${'x'.repeat(43)}`,
      embed: `emb_${'y'.repeat(40)}`,
      kept: 'gw_ok',
    });
    const redacted = redactSecrets(line);
    for (const secret of ['SESSION1', 'SESSION2', token, 'a1B2a1B2', 'x'.repeat(43), 'y'.repeat(40), 'a=b']) {
      expect(redacted).not.toContain(secret);
    }
    expect(JSON.parse(redacted)).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'x-auth-token': '[redacted]' } },
      kept: 'gw_ok',
    });
  });
});
