import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, SQUID_LOGFORMAT, squidAcl, squidDecisionOf, squidLogging } from './index';
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
    expect(text.match(/^http_access .*$/gm)?.at(-1)).toBe('http_access allow all');
    expect(text.indexOf('http_access allow pal_r0_dom pal_r0_mark')).toBeLessThan(
      text.indexOf('http_access deny pal_r1_dom pal_r1_mark'),
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
    expect(text).toContain('http_access deny pal_any_name pal_r0_u2_path pal_r0_mark');
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
    for (const l of lines)
      expect(l).toMatch(/^(acl pal_[a-z0-9_]+ |http_access (allow|deny) |ssl_bump terminate )/);
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

describe('block page, rule annotations and the TLS server name', () => {
  const BLOCK_PAGE = { publicUrl: 'https://console.example/', tenantId: 't-1' };
  const page = (type: string, rule: string) =>
    `deny_info 302:https://console.example/blockaccess/${type}/${rule}?tenant=t-1&host=%H&url=%u&client=%i`;
  const input = () =>
    makeInput(
      [
        makePolicy('web', [
          makeRule('url', 'example.org/Download', 'block', { id: 'u1' }),
          makeRule('SQUID_KEYWORD', 'casino', 'block', { id: 'k1' }),
          makeRule('SQUID_FILEEXT', 'exe', 'block', { id: 'e1' }),
          makeRule('SQUID_DMN', 'ok.blocked.example', 'allow', { id: 'a1' }),
          makeRule('SQUID_DMN', 'blocked.example', 'block', { id: 'd1' }),
          makeRule('SQUID_DMN', '', 'block', { id: 'c1', categories: ['news'] }),
        ]),
        makePolicy('threats', [makeRule('SQUID_DMN', 'evil.example', 'block', { id: 't1', ports: '80' })], {
          blockPage: false,
          precedence: 200,
        }),
      ],
      { categories: [{ id: 'news', name: 'News', domains: ['news.example'] }] },
    );

  it('redirects a block of a policy with the block page to /blockaccess/<type>/<rule>, by the rule kind', () => {
    const { text } = squidAcl(input(), { blockPage: BLOCK_PAGE });
    expect(text).toContain(`${page('url', 'u1')} pal_r0_mark`);
    expect(text).toContain(`${page('keyword', 'k1')} pal_r1_mark`);
    expect(text).toContain(`${page('fileext', 'e1')} pal_r2_mark`);
    expect(text).toContain(`${page('domain', 'd1')} pal_r4_mark`);
    expect(text).toContain(`${page('category', 'c1')} pal_r5_mark`);
    // Allows have no page; the threat policy answers squid's plain 403 (no page for threat-intel).
    expect(text).not.toContain('/a1?');
    expect(text).not.toContain('/t1?');
    // deny_info names the last ACL of the denying line: the rule's own annotation.
    expect(text).toContain('http_access deny pal_r0_u0_host pal_r0_u0_path pal_r0_mark');
    expect(text).toContain('acl pal_r0_mark annotate_transaction palisade=block:u1');
    expect(text).toContain('acl pal_r3_mark annotate_transaction palisade=allow:a1');
    // Without the option: no redirects at all.
    expect(squidAcl(input()).text).not.toContain('deny_info');
  });

  it('answers plain HTTP to the gateway itself (a DNS block) with /blockaccess/site before any rule', () => {
    const { text } = squidAcl(input(), { blockPage: BLOCK_PAGE });
    const first = text.match(/^http_access .*$/m)?.[0];
    expect(first).toBe('http_access deny pal_page pal_page_mark');
    expect(text).toContain('acl pal_page myportname palisade_page');
    expect(text).toContain(
      'deny_info 302:https://console.example/blockaccess/site?tenant=t-1&host=%H&client=%i pal_page_mark',
    );
    // The squid model ignores the gateway's port: the rules still decide like the engine.
    expect(squidDecide(text, req('www.blocked.example'))).toBe('deny');
    expect(squidDecide(text, req('a.ok.blocked.example'))).toBe('allow');
  });

  it('refuses a block-page URL or tenant that could break out of the line', () => {
    for (const blockPage of [
      { publicUrl: 'https://console.example/ x', tenantId: 't' },
      { publicUrl: 'javascript:alert(1)', tenantId: 't' },
      { publicUrl: 'https://console.example/?a=b', tenantId: 't' },
      { publicUrl: 'https://console.example', tenantId: 't 1' },
      { publicUrl: 'https://console.example', tenantId: 't&x=1' },
    ]) {
      expect(() => squidAcl(input(), { blockPage }), JSON.stringify(blockPage)).toThrow(GatewayConfigError);
    }
  });

  it('host rules as ssl_bump lines on the TLS server name, in rule order; path rules cannot match HTTPS', () => {
    const { text } = squidAcl(input());
    const bump = text.match(/^ssl_bump .*$/gm);
    expect(bump).toEqual([
      'ssl_bump splice pal_r3_sni pal_r3_mark',
      'ssl_bump terminate pal_r4_sni pal_r4_mark',
      'ssl_bump terminate pal_r5_sni pal_r5_mark',
      'ssl_bump terminate pal_r6_port pal_r6_sni pal_r6_mark',
    ]);
    expect(text).toContain('acl pal_r4_sni ssl::server_name .blocked.example');
    expect(text).toContain('acl pal_r5_sni ssl::server_name .news.example');
    // A url rule with a host only is a host rule; `*` hosts match any named server.
    const hosts = squidAcl(
      makeInput([
        makePolicy('p', [
          makeRule('url', 'files.example; */admin', 'block', { id: 'u' }),
          makeRule('SQUID_DMN', '*', 'block', { id: 'all' }),
        ]),
      ]),
    ).text;
    expect(hosts).toContain('acl pal_r0_sni ssl::server_name .files.example');
    expect(hosts).toContain('acl pal_any_sni ssl::server_name_regex [^0-9.]');
    expect(hosts.match(/^ssl_bump .*$/gm)).toEqual([
      'ssl_bump terminate pal_r0_sni pal_r0_mark',
      'ssl_bump terminate pal_any_sni pal_r1_mark',
    ]);
    expect(squidAcl(input(), { sni: false }).text).not.toContain('ssl_bump');
  });

  it('subjects apply to the TLS lines too', () => {
    const scoped = makeInput([
      makePolicy('g', [makeRule('SQUID_DMN', 'example.com', 'block', { id: 'r' })], {
        appliesTo: { users: [], groups: ['g1'], devices: [] },
      }),
    ]);
    const { text } = squidAcl(scoped, { subjectAddresses: { groups: { g1: ['10.64.1.0/24'] } } });
    expect(text).toContain('ssl_bump terminate pal_p0_who pal_r0_sni pal_r0_mark');
  });

  it('writes the access log in the palisade format when asked, and refuses a path with spaces', () => {
    const { text } = squidAcl(input(), { accessLog: '/var/lib/palisade/squid/access.log' });
    expect(text).toContain(`logformat palisade ${SQUID_LOGFORMAT}`);
    expect(text).toContain('access_log stdio:/var/lib/palisade/squid/access.log logformat=palisade');
    expect(() => squidLogging('/tmp/a b.log')).toThrow(GatewayConfigError);
    expect(() => squidLogging('relative.log')).toThrow(GatewayConfigError);
  });
});

describe('squidDecisionOf', () => {
  it('reads a blocked request with its rule, an allowed one without, and a terminated TLS connection', () => {
    expect(
      squidDecisionOf(
        '1796227221.525 10.64.0.2 GET x.test.com - http://x.test.com/a%20b? 302 TCP_DENIED block:u1 504',
      ),
    ).toEqual({
      at: 1796227221525,
      client: '10.64.0.2',
      method: 'GET',
      host: 'x.test.com',
      url: 'http://x.test.com/a%20b?',
      status: 302,
      ruleId: 'u1',
      action: 'block',
      bytes: 504,
    });
    expect(
      squidDecisionOf('1796227221.536 10.64.0.2 GET fine.example - http://fine.example/ 200 TCP_MISS - 3470'),
    ).toMatchObject({ host: 'fine.example', status: 200, ruleId: null, action: 'allow' });
    // An allow rule that decided is named too.
    expect(
      squidDecisionOf(
        '1796227221.536 10.64.0.2 GET ok.example - http://ok.example/ 200 TCP_MISS allow:a1 10',
      ),
    ).toMatchObject({ ruleId: 'a1', action: 'allow' });
    // HTTPS: the host is the TLS server name, not the address squid saw first.
    expect(
      squidDecisionOf(
        '1796227222.001 10.64.0.2 CONNECT 198.51.100.7 Blocked.Example 198.51.100.7:443 - NONE_NONE block:d1 0',
      ),
    ).toMatchObject({ host: 'blocked.example', status: 0, ruleId: 'd1', action: 'block', method: 'CONNECT' });
    // A denial without a rule of ours (squid's own) is still a block.
    expect(
      squidDecisionOf('1796227222.001 10.64.0.2 GET a.example - http://a.example/ 403 TCP_DENIED - 100'),
    ).toMatchObject({ ruleId: null, action: 'block' });
  });

  it('ignores the block-page port (the resolver reports that block) and lines of another format', () => {
    expect(
      squidDecisionOf(
        '1796227222.001 10.64.0.2 GET dns.blocked - http://dns.blocked/ 302 TCP_DENIED page:- 0',
      ),
    ).toBeNull();
    expect(squidDecisionOf('')).toBeNull();
    // A port check (no request), and the peek of a connection squid spliced: its tunnel line decides.
    expect(
      squidDecisionOf('1796228007.925 127.0.0.1 - - - error:transaction-end-before-headers 0 NONE_NONE - 0'),
    ).toBeNull();
    expect(
      squidDecisionOf(
        '1796228008.060 10.64.0.2 CONNECT 198.51.100.2 tls-ok.test 198.51.100.2:443 0 NONE_NONE - 0',
      ),
    ).toBeNull();
    expect(
      squidDecisionOf(
        '1796228008.069 10.64.0.2 CONNECT tls-ok.test tls-ok.test tls-ok.test:443 200 TCP_TUNNEL - 2139',
      ),
    ).toMatchObject({ host: 'tls-ok.test', status: 200, action: 'allow', bytes: 2139 });
    expect(squidDecisionOf('2026/12/02 16:00:19| Accepting HTTP Socket connections')).toBeNull();
    expect(squidDecisionOf('1796227221 10.64.0.2 GET a - u 200 TCP_MISS - 1')).toBeNull();
  });
});

/** squid -k parse of the include inside a configuration like the gateway's (squid-daemon.ts): TLS port and all. */
describe('squid -k parse', () => {
  const squid = ['/usr/sbin/squid', '/usr/local/sbin/squid'].find((p) => existsSync(p));
  const openssl = ['/usr/bin/openssl'].find((p) => existsSync(p));
  const why = 'missing squid or openssl (bash scripts/net-tools.sh installs squid-openssl)';
  if ((!squid || !openssl) && process.env.CI === 'true') {
    it('accepts the include with block page, annotations and TLS lines', () => {
      throw new Error(`CI=true: ${why}`);
    });
    return;
  }
  if (!squid || !openssl) console.warn(`gateway-config squid: "squid -k parse" SKIPPED: ${why}`);
  it.skipIf(!squid || !openssl)('accepts the include with block page, annotations and TLS lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgc-sq-'));
    try {
      const input = makeInput(
        [
          makePolicy('p', [
            makeRule('url', 'example.org/Download; files.example', 'block', { id: 'u1' }),
            makeRule('SQUID_KEYWORD', 'casino', 'block', { id: 'k1' }),
            makeRule('SQUID_FILEEXT', 'exe; tar.gz', 'block', { id: 'e1' }),
            makeRule('SQUID_DMN', 'ok.blocked.example', 'allow', { id: 'a1' }),
            makeRule('SQUID_DMN', 'blocked.example', 'block', { id: 'd1', ports: '443' }),
            makeRule('SQUID_DMN', '*', 'block', { id: 'all', ports: '8080' }),
          ]),
        ],
        {},
      );
      const { text } = squidAcl(input, {
        blockPage: { publicUrl: 'https://console.example', tenantId: 't-1' },
        accessLog: join(dir, 'access.log'),
      });
      const key = join(dir, 'tls.key');
      const cert = join(dir, 'tls.pem');
      const made = spawnSync(openssl!, [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=t'],
        ...['-keyout', key, '-out', cert],
      ]);
      expect(made.status, String(made.stderr)).toBe(0);
      writeFileSync(join(dir, 'rules.conf'), text);
      const conf = join(dir, 'squid.conf');
      writeFileSync(
        conf,
        [
          'http_port 127.0.0.1:3127',
          'http_port 127.0.0.1:3128 intercept',
          `https_port 127.0.0.1:3129 intercept ssl-bump tls-cert=${cert} tls-key=${key} generate-host-certificates=off`,
          'http_port 127.0.0.1:3130 intercept name=palisade_page',
          'acl step1 at_step SslBump1',
          'ssl_bump peek step1',
          `include ${join(dir, 'rules.conf')}`,
          'ssl_bump splice all',
          'cache deny all',
          'pid_filename none',
          `cache_log ${join(dir, 'cache.log')}`,
          'pinger_enable off',
          '',
        ].join('\n'),
      );
      const r = spawnSync(squid!, ['-k', 'parse', '-f', conf], {
        encoding: 'utf8',
        env: { ...process.env, TZ: 'UTC' },
      });
      const output = `${r.stdout}${r.stderr}`;
      expect(r.status, output.slice(-3000)).toBe(0);
      expect(output).not.toMatch(/WARNING|ERROR|FATAL|Bungled/);
      for (const line of [
        'annotate_transaction',
        'deny_info 302:',
        'ssl::server_name',
        'logformat palisade',
      ]) {
        expect(output).toContain(line);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
