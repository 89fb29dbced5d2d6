import { describe, expect, it } from 'vitest';
import { loggedUrl } from './request-log';

describe('the request log', () => {
  it('keeps no session id an embedded-dashboard link carries, and every other parameter', () => {
    expect(loggedUrl('/embed/tenant/acme?sid=s3cr3t-session-id')).toBe('/embed/tenant/acme?sid=[redacted]');
    expect(loggedUrl('/embed/global?range=7d&sid=abc&x=1')).toBe('/embed/global?range=7d&sid=[redacted]&x=1');
    expect(loggedUrl('/embed/global?SID=abc#top')).toBe('/embed/global?SID=[redacted]#top');
    expect(loggedUrl('/api/users?side=1&sidebar=a')).toBe('/api/users?side=1&sidebar=a');
  });
});
