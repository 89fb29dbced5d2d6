import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, squidAcl } from './index';
import { type HttpRequest, squidDecide } from './test-kit';

const MONDAY_10 = Date.UTC(2024, 0, 1, 10, 0);
const req = (host: string, path = '/', extra: Partial<HttpRequest> = {}): HttpRequest => ({
  src: '10.64.0.2',
  host,
  path,
  port: 80,
  time: MONDAY_10,
  ...extra,
});

describe('squidAcl', () => {
  it('ends with allow all (the engine default) after the rules in first-match order', () => {
    const input = makeInput([
      makePolicy('late', [makeRule('SQUID_DMN', 'example.com', 'block', { id: 'b' })], { precedence: 20 }),
      makePolicy('early', [makeRule('SQUID_DMN', 'ok.example.com', 'allow', { id: 'a' })], {
        precedence: 10,
      }),
    ]);
    const { text, skipped } = squidAcl(input);
    expect(text.trimEnd().split('\n').at(-1)).toBe('http_access allow all');
    expect(text.indexOf('http_access allow pal_r0_dom')).toBeLessThan(
      text.indexOf('http_access deny pal_r1_dom'),
    );
    expect(text).toContain('acl pal_r1_dom dstdomain -n .example.com');
    expect(squidDecide(text, req('a.ok.example.com'))).toBe('allow');
    expect(squidDecide(text, req('www.example.com'))).toBe('deny');
    expect(squidDecide(text, req('badexample.com'))).toBe('allow');
    expect(skipped).toEqual([]);
  });

  it('SQUID_DMN with categories and feeds, subdomains pruned; `*` is any named host, not an address', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('SQUID_DMN', 'a.example; b.a.example', 'block', {
            id: 'dom',
            categories: ['c'],
            feeds: ['f'],
          }),
          makeRule('SQUID_DMN', '*', 'block', { id: 'any', ports: '8080' }),
        ]),
      ],
      {
        categories: [{ id: 'c', name: 'News', domains: ['news.example'] }],
        feeds: [{ id: 'f', name: 'Feed', domains: ['x.news.example'], ips: [] }],
      },
    );
    const { text } = squidAcl(input);
    expect(text).toContain('acl pal_r0_dom dstdomain -n .a.example .news.example');
    expect(text).toContain('acl pal_any_name dstdom_regex -n [^0-9.]');
    expect(squidDecide(text, req('y.x.news.example'))).toBe('deny');
    expect(squidDecide(text, req('other.example', '/', { port: 8080 }))).toBe('deny');
    expect(squidDecide(text, req('192.0.2.1', '/', { port: 8080 }))).toBe('allow');
  });

  it('url: host by label suffix, path prefix case-sensitive, `*` host, grouped by prefix', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule(
          'url',
          'https://example.org/Download; files.example.org/Download; *.test.com; */admin',
          'block',
          {
            id: 'u',
          },
        ),
      ]),
    ]);
    const { text } = squidAcl(input);
    expect(text).toContain('acl pal_r0_u0_host dstdomain -n .test.com');
    expect(text).toContain('acl pal_r0_u1_host dstdomain -n .example.org');
    expect(text).toContain('acl pal_r0_u1_path urlpath_regex ^/Download');
    expect(text).toContain('http_access deny pal_any_name pal_r0_u2_path');
    expect(squidDecide(text, req('a.files.example.org', '/Download/x.zip'))).toBe('deny');
    expect(squidDecide(text, req('example.org', '/download'))).toBe('allow');
    expect(squidDecide(text, req('www.test.com', '/anything'))).toBe('deny');
    expect(squidDecide(text, req('any.host', '/admin/x'))).toBe('deny');
    expect(squidDecide(text, req('192.0.2.1', '/admin/x'))).toBe('allow');
  });

  it('keywords on the path and query, case-insensitive; extensions of the last segment', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('SQUID_KEYWORD', 'Casino; a.b(c)', 'block', { id: 'kw' }),
        makeRule('SQUID_FILEEXT', '.EXE; tar.gz', 'block', { id: 'ext' }),
      ]),
    ]);
    const { text } = squidAcl(input);
    expect(text).toContain('acl pal_r0_kw urlpath_regex -i a\\.b\\(c\\) casino');
    expect(squidDecide(text, req('casino.example', '/'))).toBe('allow');
    expect(squidDecide(text, req('x.example', '/q?game=CASINO'))).toBe('deny');
    expect(squidDecide(text, req('x.example', '/a.b(c)'))).toBe('deny');
    expect(squidDecide(text, req('x.example', '/aXb(c)'))).toBe('allow');
    expect(squidDecide(text, req('x.example', '/dl/Setup.EXE?x=1'))).toBe('deny');
    expect(squidDecide(text, req('x.example', '/dl/setup.exe/readme'))).toBe('allow');
    expect(squidDecide(text, req('x.example', '/dl?file=setup.exe'))).toBe('allow');
    expect(squidDecide(text, req('x.example', '/a.tar.gz'))).toBe('deny');
    expect(squidDecide(text, req('x.example', '/.tar.gz'))).toBe('allow');
  });

  it('conditions: locations (src), ports, schedules (time, a minute shorter, split across midnight)', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('SQUID_DMN', 'example.com', 'block', {
            id: 'r',
            locations: ['office'],
            ports: '80, 8000-8080',
            schedule: { days: [1, 6], from: '22:00', to: '06:30' },
          }),
        ]),
      ],
      { locations: [{ id: 'office', name: 'Office', networks: ['10.64.0.0/24'] }] },
    );
    const { text } = squidAcl(input);
    expect(text).toContain('acl pal_r0_from src 10.64.0.0/24');
    expect(text).toContain('acl pal_r0_port port 80 8000-8080');
    expect(text).toContain('acl pal_r0_time time MA 00:00-06:29\nacl pal_r0_time time MA 22:00-23:59');
    const at = (h: number, m: number) => Date.UTC(2024, 0, 1, h, m);
    expect(squidDecide(text, req('example.com', '/', { time: at(6, 29) }))).toBe('deny');
    expect(squidDecide(text, req('example.com', '/', { time: at(6, 30) }))).toBe('allow');
    expect(squidDecide(text, req('example.com', '/', { time: at(22, 0), port: 8080 }))).toBe('deny');
    expect(squidDecide(text, req('example.com', '/', { time: at(22, 0), port: 443 }))).toBe('allow');
    expect(squidDecide(text, req('example.com', '/', { time: at(22, 0), src: '10.65.0.1' }))).toBe('allow');
  });

  it('subjects: the sources of the policy; reported when none has an address', () => {
    const input = makeInput([
      makePolicy('g', [makeRule('SQUID_DMN', 'example.com', 'block', { id: 'r' })], {
        appliesTo: { users: [], groups: ['g1'], devices: ['d1'] },
      }),
      makePolicy('h', [makeRule('SQUID_DMN', 'example.com', 'block', { id: 's' })], {
        appliesTo: { users: ['nobody'], groups: [], devices: [] },
      }),
    ]);
    const { text, skipped } = squidAcl(input, {
      subjectAddresses: { groups: { g1: ['10.64.1.0/24', 'fd00::/64'] }, devices: { d1: ['10.64.0.9'] } },
    });
    expect(text).toContain('acl pal_p0_who src 10.64.0.9 10.64.1.0/24 fd00::/64');
    expect(squidDecide(text, req('example.com', '/', { src: '10.64.1.3' }))).toBe('deny');
    expect(squidDecide(text, req('example.com', '/', { src: 'fd00::5' }))).toBe('deny');
    expect(squidDecide(text, req('example.com', '/', { src: '10.64.2.3' }))).toBe('allow');
    expect(skipped).toEqual([{ policyId: 'h', ruleId: 's', item: '', reason: 'no-subject-addresses' }]);
  });

  it('leaves out disabled policies and rules and non-HTTP rules; rewrite/route allow', () => {
    const input = makeInput([
      makePolicy('off', [makeRule('SQUID_DMN', 'a.example', 'block')], { enabled: false }),
      makePolicy('p', [
        makeRule('SQUID_DMN', 'b.example', 'block', { enabled: false }),
        makeRule('dmn', 'c.example', 'block'),
        makeRule('ROUTE', '*', 'block'),
        makeRule('SQUID_DMN', 'd.example', 'route', { id: 'route', target: 'gw' }),
      ]),
      makePolicy('q', [makeRule('SQUID_DMN', 'e.example', 'block')], { type: 'qos' }),
    ]);
    const { text } = squidAcl(input);
    expect(text.match(/^http_access/gm)).toEqual(['http_access', 'http_access']);
    expect(text).toContain('http_access allow pal_r');
  });

  it('keeps injection attempts out and reports them', () => {
    const input = makeInput([
      makePolicy('p\nhttp_access allow all', [
        makeRule('SQUID_DMN', 'evil.com\nhttp_access allow all; "; drop; "/etc/passwd"', 'block', {
          id: 'd',
        }),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a squid macro, on purpose
        makeRule('url', 'a.example/x y; a.example/"q"; a.example/${process_name}; a.example/ok#x', 'block', {
          id: 'u',
        }),
        makeRule('SQUID_KEYWORD', '-i; +i; evil\nacl; x y; ok', 'block', { id: 'k' }),
        makeRule('SQUID_FILEEXT', 'e[x]e; ok', 'block', { id: 'e' }),
      ]),
    ]);
    const { text, skipped } = squidAcl(input);
    // `"/etc/passwd"` normalises to `"` (the engine drops the path): reported once.
    const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    for (const l of lines) expect(l).toMatch(/^(acl pal_[a-z0-9_]+ |http_access (allow|deny) )/);
    expect(text).not.toContain('"');
    expect(text).not.toContain('${');
    expect(text.match(/^http_access allow all$/gm)).toHaveLength(1);
    expect(text).toContain('urlpath_regex -i \\+i [-]i acl evil ok');
    expect(skipped.map((s) => `${s.ruleId}:${s.item}:${s.reason}`)).toEqual([
      'd:http_access allow all:invalid-domain',
      'd:":invalid-domain',
      'u:/x y:unsafe-text',
      'u:/"q":unsafe-text',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the squid macro above
      'u:/${process_name}:unsafe-text',
      'u:/ok#x:unsafe-text',
      'u::never-matches',
      'k:x y:unsafe-text',
      'e:e[x]e:unsafe-text',
    ]);
  });

  it('splits long lists over several lines (squid reads 2048 characters a line) and is deterministic', () => {
    const domains = Array.from({ length: 500 }, (_, i) => `host-${String(i).padStart(3, '0')}.example`);
    const input = makeInput([makePolicy('p', [makeRule('SQUID_DMN', domains.reverse().join(';'), 'block')])]);
    const { text } = squidAcl(input);
    const acl = text.split('\n').filter((l) => l.startsWith('acl '));
    expect(acl.length).toBeGreaterThan(5);
    for (const l of acl) expect(l.length).toBeLessThan(2048);
    expect(squidDecide(text, req('host-499.example'))).toBe('deny');
    expect(squidAcl(structuredClone(input)).text).toBe(text);
    expect(() => squidAcl(input, { prefix: 'bad prefix' })).toThrow(GatewayConfigError);
  });
});
