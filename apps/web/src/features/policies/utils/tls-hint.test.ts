import { describe, expect, it } from 'vitest';
import { needsTlsInspection } from './tls-hint';

describe('needsTlsInspection', () => {
  it('holds for keyword and file-extension rules and URL rules with a path', () => {
    expect(needsTlsInspection({ type: 'SQUID_KEYWORD', url: 'casino' })).toBe(true);
    expect(needsTlsInspection({ type: 'SQUID_FILEEXT', url: 'exe' })).toBe(true);
    expect(needsTlsInspection({ type: 'url', url: 'files.example/downloads' })).toBe(true);
    expect(needsTlsInspection({ type: 'url', url: 'a.example; https://b.example/x' })).toBe(true);
    expect(needsTlsInspection({ type: 'url', url: '' })).toBe(true);
  });

  it('does not hold for host rules, which apply to HTTPS by the server name', () => {
    expect(needsTlsInspection({ type: 'url', url: 'files.example; https://b.example/' })).toBe(false);
    expect(needsTlsInspection({ type: 'SQUID_DMN', url: 'example.com' })).toBe(false);
    expect(needsTlsInspection({ type: 'dmn', url: 'example.com/x' })).toBe(false);
    expect(needsTlsInspection({ type: 'ROUTE', url: '10.0.0.0/8' })).toBe(false);
  });
});
