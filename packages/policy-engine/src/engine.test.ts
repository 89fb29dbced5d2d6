import { DEFAULT_SESSION_QOS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import {
  compile,
  decide,
  type EngineObjects,
  type EnginePolicy,
  type EngineRequest,
  explain,
  parseDestination,
} from './index';
import { makeInput, makePolicy, makeRule } from './testing';

const rule = makeRule;

/** Decides with both paths and checks they agree, so every case below also exercises explain(). */
function run(
  policies: EnginePolicy[],
  request: EngineRequest,
  objects: Partial<EngineObjects> = {},
  lookupCountry?: (ip: string) => string | null,
) {
  const c = compile(makeInput(policies, objects), { lookupCountry });
  const d = decide(c, request);
  const e = explain(c, request);
  expect({
    decision: e.decision,
    rule: e.rule,
    layer: e.layer,
    rewrite: e.rewrite,
    gateway: e.gateway,
    qos: e.qos,
  }).toEqual(d);
  return d;
}
const at = (url: string, extra: EngineRequest = {}): EngineRequest => ({
  ...parseDestination(url),
  ...extra,
});
const ruleId = (d: { rule: { ruleId: string } | null }) => d.rule?.ruleId ?? null;

describe('dmn label-suffix matching', () => {
  const policies = [makePolicy('p', [rule('dmn', 'example.com', 'block', { id: 'b' })])];
  it.each([
    ['example.com', 'block'],
    ['a.example.com', 'block'],
    ['deep.a.example.com', 'block'],
    ['EXAMPLE.COM', 'block'],
    ['example.com.', 'block'],
    ['badexample.com', 'allow'],
    ['example.com.evil.net', 'allow'],
    ['example.co', 'allow'],
    ['com', 'allow'],
  ])('%s → %s', (host, expected) => {
    expect(run(policies, { host }).decision).toBe(expected);
  });

  it('treats `*.x` and `.x` as the plain suffix and `*` as any host', () => {
    const p = (url: string) => [makePolicy('p', [rule('dmn', url, 'block')])];
    expect(run(p('*.example.com'), { host: 'example.com' }).decision).toBe('block');
    expect(run(p('*.example.com'), { host: 'x.example.com' }).decision).toBe('block');
    expect(run(p('.example.com'), { host: 'x.example.com' }).decision).toBe('block');
    expect(run(p('*.example.com'), { host: 'badexample.com' }).decision).toBe('allow');
    expect(run(p('*'), { host: 'anything.org' }).decision).toBe('block');
    expect(run(p('*'), { ip: '1.2.3.4' }).decision).toBe('allow'); // no host: a domain rule cannot match
  });

  it('passes punycode through and matches upper-case items', () => {
    const p = [makePolicy('p', [rule('dmn', 'XN--BCHER-KVA.example', 'block')])];
    expect(run(p, { host: 'shop.xn--bcher-kva.example' }).decision).toBe('block');
    expect(run(p, at('https://shop.bücher.example/')).decision).toBe('block');
    // A rule and host written in Unicode (not through parseDestination) still match, case-insensitively.
    const unicode = [makePolicy('p', [rule('dmn', 'bücher.example', 'block')])];
    expect(run(unicode, { host: 'shop.BÜCHER.example' }).decision).toBe('block');
    expect(run(unicode, { host: 'bücher.example' }).decision).toBe('block');
    expect(run(unicode, { host: 'bucher.example' }).decision).toBe('allow');
  });

  it('matches several items separated by ; , and new lines', () => {
    const p = [makePolicy('p', [rule('dmn', 'a.com; b.com,c.com\nd.com', 'block')])];
    for (const host of ['a.com', 'x.b.com', 'c.com', 'd.com'])
      expect(run(p, { host }).decision).toBe('block');
    expect(run(p, { host: 'e.com' }).decision).toBe('allow');
  });

  it('matches the domains of categories and feeds', () => {
    const objects = {
      categories: [{ id: 'gambling', name: 'Gambling', domains: ['bet.example', '*.casino.example'] }],
      feeds: [{ id: 'f1', name: 'Feed', domains: ['malware.test'], ips: [] }],
    };
    const p = [makePolicy('p', [rule('dmn', '', 'block', { categories: ['gambling'], feeds: ['f1'] })])];
    expect(run(p, { host: 'www.bet.example' }, objects).decision).toBe('block');
    expect(run(p, { host: 'a.casino.example' }, objects).decision).toBe('block');
    expect(run(p, { host: 'x.malware.test' }, objects).decision).toBe('block');
    expect(run(p, { host: 'example' }, objects).decision).toBe('allow');
    const e = explain(compile(makeInput(p, objects)), { host: 'www.bet.example' });
    expect(e.categories).toEqual(['Gambling']);
  });
});

describe('precedence', () => {
  it('orders policies by precedence, ties by id, rules by position', () => {
    const low = makePolicy('b-policy', [rule('dmn', 'x.com', 'allow', { id: 'allow-b' })], { precedence: 1 });
    const high = makePolicy('a-policy', [rule('dmn', 'x.com', 'block', { id: 'block-a' })], {
      precedence: 2,
    });
    expect(ruleId(run([high, low], { host: 'x.com' }))).toBe('allow-b');
    const tieA = makePolicy('a', [rule('dmn', 'x.com', 'block', { id: 'ra' })], { precedence: 5 });
    const tieB = makePolicy('b', [rule('dmn', 'x.com', 'allow', { id: 'rb' })], { precedence: 5 });
    expect(ruleId(run([tieB, tieA], { host: 'x.com' }))).toBe('ra');
    const ordered = makePolicy('p', [
      rule('dmn', 'sub.x.com', 'allow', { id: 'first' }),
      rule('dmn', 'x.com', 'block', { id: 'second' }),
    ]);
    expect(ruleId(run([ordered], { host: 'sub.x.com' }))).toBe('first');
    expect(ruleId(run([ordered], { host: 'other.x.com' }))).toBe('second');
  });

  it('ignores disabled policies and disabled rules', () => {
    const p = [
      makePolicy('off', [rule('dmn', 'x.com', 'block')], { enabled: false, precedence: 1 }),
      makePolicy('on', [
        rule('dmn', 'x.com', 'block', { enabled: false }),
        rule('dmn', 'x.com', 'allow', { id: 'ok' }),
      ]),
    ];
    const d = run(p, { host: 'x.com' });
    expect(d.decision).toBe('allow');
    expect(ruleId(d)).toBe('ok');
  });
});

describe('layer order', () => {
  it('a DNS block beats a later HTTP allow', () => {
    const p = [
      makePolicy('p', [rule('url', 'x.com/', 'allow'), rule('dmn', 'x.com', 'block', { id: 'dns' })]),
    ];
    const d = run(p, at('https://x.com/page'));
    expect(d).toMatchObject({ decision: 'block', layer: 'dns' });
    expect(ruleId(d)).toBe('dns');
  });

  it('a DNS allow then an HTTP block blocks', () => {
    const p = [
      makePolicy('p', [rule('dmn', 'x.com', 'allow'), rule('url', 'x.com/admin', 'block', { id: 'http' })]),
    ];
    expect(run(p, at('https://x.com/admin/users'))).toMatchObject({ decision: 'block', layer: 'http' });
    const allowed = run(p, at('https://x.com/home'));
    expect(allowed).toMatchObject({ decision: 'allow', layer: 'dns' });
  });

  it('reports the last allowing rule: HTTP over network over DNS', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'allow', { id: 'dns' }),
        rule('ROUTE', '10.0.0.0/8', 'allow', { id: 'net' }),
        rule('url', 'x.com', 'allow', { id: 'http' }),
      ]),
    ];
    expect(ruleId(run(p, at('https://x.com/', { ip: '10.1.1.1' })))).toBe('http');
    expect(ruleId(run(p, at('x.com', { ip: '10.1.1.1' })))).toBe('net');
    expect(ruleId(run(p, at('x.com', { ip: '11.1.1.1' })))).toBe('dns');
  });

  it('skips the HTTP layer for a non-HTTP destination', () => {
    const p = [makePolicy('p', [rule('url', 'x.com', 'block')])];
    expect(run(p, at('x.com')).decision).toBe('allow');
    expect(run(p, at('http://x.com')).decision).toBe('block');
    const e = explain(compile(makeInput(p)), at('x.com'));
    expect(e.trace.find((s) => s.layer === 'http')).toMatchObject({
      outcome: 'skipped',
      reason: 'policy.trace.notHttp',
    });
  });

  it('a rewrite to an address feeds the network layer', () => {
    const p = [
      makePolicy('p', [
        rule('DNS_REWRITE', 'intranet.corp', 'rewrite', { target: '10.9.9.9', id: 'rw' }),
        rule('ROUTE', '10.9.9.0/24', 'route', { target: 'gw-office', id: 'route' }),
      ]),
    ];
    const d = run(p, { host: 'wiki.intranet.corp', ip: '203.0.113.5' });
    expect(d).toMatchObject({
      decision: 'allow',
      rewrite: '10.9.9.9',
      gateway: 'gw-office',
      layer: 'network',
    });
    expect(ruleId(d)).toBe('route');
    const other = run(p, { host: 'other.corp', ip: '203.0.113.5' });
    expect(other).toMatchObject({ rewrite: null, gateway: null, rule: null, layer: null });
  });

  it('a rewrite to a name leaves the address alone', () => {
    const p = [
      makePolicy('p', [
        rule('DNS_REWRITE', 'search.example', 'rewrite', { target: 'safe.search.example', id: 'rw' }),
        rule('ROUTE', '10.0.0.0/8', 'block'),
      ]),
    ];
    const d = run(p, { host: 'search.example', ip: '192.0.2.1' });
    expect(d).toMatchObject({ decision: 'allow', rewrite: 'safe.search.example', layer: 'dns' });
  });

  it('defaults to allow with the default QoS class and no rule', () => {
    expect(run([], at('https://x.com/'))).toEqual({
      decision: 'allow',
      rule: null,
      layer: null,
      rewrite: null,
      gateway: null,
      qos: DEFAULT_SESSION_QOS,
    });
  });
});

describe('QoS', () => {
  const qosPolicy = makePolicy('q', [rule('dmn', 'video.example', 'qos', { target: 'class-video' })], {
    type: 'qos',
  });
  it('classifies with the first matching rule of a qos policy', () => {
    expect(run([qosPolicy], { host: 'cdn.video.example' }).qos).toBe('class-video');
    expect(run([qosPolicy], { host: 'cdn.video.example' }).rule).toBeNull();
    expect(run([qosPolicy], { host: 'mail.example' }).qos).toBe(DEFAULT_SESSION_QOS);
  });
  it('does not let a qos rule block or allow', () => {
    const p = makePolicy('q', [rule('dmn', 'x.com', 'block', { target: 'class-x' })], { type: 'qos' });
    expect(run([p], { host: 'x.com' })).toMatchObject({ decision: 'allow', qos: 'class-x', rule: null });
  });
  it('has no QoS class for blocked traffic', () => {
    const block = makePolicy('b', [rule('dmn', 'video.example', 'block')]);
    expect(run([qosPolicy, block], { host: 'video.example' })).toMatchObject({
      decision: 'block',
      qos: DEFAULT_SESSION_QOS,
    });
  });
  it('classifies app rules by domain or by address', () => {
    const apps = [{ appid: 'zoom', appname: 'Zoom', domains: ['zoom.us'], ips: ['198.51.100.0/24'] }];
    const p = makePolicy('q', [rule('app', 'zoom', 'qos', { target: 'rt' })], { type: 'qos' });
    expect(run([p], { host: 'eu.zoom.us' }, { apps }).qos).toBe('rt');
    expect(run([p], { ip: '198.51.100.7' }, { apps }).qos).toBe('rt');
    expect(run([p], { ip: '198.51.101.7' }, { apps }).qos).toBe(DEFAULT_SESSION_QOS);
  });
  it('classifies HTTP-only rule types only for HTTP requests', () => {
    const p = makePolicy('q', [rule('SQUID_DMN', 'x.com', 'qos', { target: 'web' })], { type: 'qos' });
    expect(run([p], at('https://x.com/')).qos).toBe('web');
    expect(run([p], at('x.com')).qos).toBe(DEFAULT_SESSION_QOS);
  });
});

describe('subjects', () => {
  const assigned = makePolicy('p', [rule('dmn', 'x.com', 'block')], {
    appliesTo: { users: ['u1'], groups: ['g1', 'g2'], devices: ['d1'] },
  });
  it.each([
    [{ userId: 'u1' }, 'block'],
    [{ userId: 'u2' }, 'allow'],
    [{ userId: 'u2', groups: ['g9', 'g2'] }, 'block'],
    [{ groups: ['g3'] }, 'allow'],
    [{ deviceId: 'd1' }, 'block'],
    [{ deviceId: 'd2' }, 'allow'],
    [{}, 'allow'],
  ] as [EngineRequest, string][])('%o → %s', (who, expected) => {
    expect(run([assigned], { host: 'x.com', ...who }).decision).toBe(expected);
  });
  it('applies a policy without assignment to everyone', () => {
    expect(run([makePolicy('p', [rule('dmn', 'x.com', 'block')])], { host: 'x.com' }).decision).toBe('block');
  });
  it('traces rules of other subjects as skipped', () => {
    const e = explain(compile(makeInput([assigned])), { host: 'x.com', userId: 'u2' });
    expect(e.trace[0]).toMatchObject({ outcome: 'skipped', reason: 'policy.trace.notForSubject' });
  });
});

describe('conditions', () => {
  const locations = [
    { id: 'hq', name: 'HQ', networks: ['192.168.1.0/24', '203.0.113.7'] },
    { id: 'lab', name: 'Lab', networks: ['10.50.0.0/16'] },
  ];
  it('locations: the source must be in one of the networks', () => {
    const p = [makePolicy('p', [rule('dmn', 'x.com', 'block', { locations: ['hq', 'lab'] })])];
    const req = (sourceIp?: string) => ({ host: 'x.com', sourceIp });
    expect(run(p, req('192.168.1.200'), { locations }).decision).toBe('block');
    expect(run(p, req('203.0.113.7'), { locations }).decision).toBe('block');
    expect(run(p, req('10.50.255.255'), { locations }).decision).toBe('block');
    expect(run(p, req('192.168.2.1'), { locations }).decision).toBe('allow');
    expect(run(p, req(undefined), { locations }).decision).toBe('allow');
    expect(run(p, req('not-an-ip'), { locations }).decision).toBe('allow');
    const e = explain(compile(makeInput(p, { locations })), req('192.168.2.1'));
    expect(e.trace[0]).toMatchObject({ outcome: 'no-match', reason: 'policy.trace.location' });
  });

  it('ports: single ports and ranges; unknown port never matches', () => {
    const p = [makePolicy('p', [rule('ROUTE', '*', 'block', { ports: '22, 8000-8080' })])];
    const req = (port?: number) => ({ ip: '1.2.3.4', port });
    expect(run(p, req(22)).decision).toBe('block');
    expect(run(p, req(8000)).decision).toBe('block');
    expect(run(p, req(8080)).decision).toBe('block');
    expect(run(p, req(8081)).decision).toBe('allow');
    expect(run(p, req(7999)).decision).toBe('allow');
    expect(run(p, req(23)).decision).toBe('allow');
    expect(run(p, req(undefined)).decision).toBe('allow');
    expect(run(p, at('1.2.3.4:22')).decision).toBe('block');
    expect(run(p, at('https://1.2.3.4:8001/')).decision).toBe('block');
  });

  it('schedule: days and a [from, to) window in UTC', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'block', { schedule: { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' } }),
      ]),
    ];
    const monday = (hhmm: string) => ({ host: 'x.com', time: Date.parse(`2024-01-01T${hhmm}:00Z`) }); // a Monday
    expect(run(p, monday('09:00')).decision).toBe('block');
    expect(run(p, monday('16:59')).decision).toBe('block');
    expect(run(p, monday('17:00')).decision).toBe('allow');
    expect(run(p, monday('08:59')).decision).toBe('allow');
    expect(run(p, { host: 'x.com', time: Date.parse('2024-01-07T12:00:00Z') }).decision).toBe('allow'); // Sunday
  });

  it('schedule: a window wrapping midnight', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'block', {
          schedule: { days: [0, 1, 2, 3, 4, 5, 6], from: '22:00', to: '06:00' },
        }),
      ]),
    ];
    const t = (hhmm: string) => ({ host: 'x.com', time: Date.parse(`2024-03-05T${hhmm}:00Z`) });
    expect(run(p, t('23:30')).decision).toBe('block');
    expect(run(p, t('00:00')).decision).toBe('block');
    expect(run(p, t('05:59')).decision).toBe('block');
    expect(run(p, t('06:00')).decision).toBe('allow');
    expect(run(p, t('21:59')).decision).toBe('allow');
    expect(run(p, t('22:00')).decision).toBe('block');
  });
});

describe('ROUTE and CIDR edges', () => {
  const p = (url: string, extra = {}) => [makePolicy('p', [rule('ROUTE', url, 'block', extra)])];
  it.each([
    ['10.0.0.0/8', '10.0.0.0', 'block'],
    ['10.0.0.0/8', '10.255.255.255', 'block'],
    ['10.0.0.0/8', '11.0.0.0', 'allow'],
    ['10.0.0.0/8', '9.255.255.255', 'allow'],
    ['192.168.4.0/23', '192.168.4.0', 'block'],
    ['192.168.4.0/23', '192.168.5.255', 'block'],
    ['192.168.4.0/23', '192.168.6.0', 'allow'],
    ['192.168.4.0/23', '192.168.3.255', 'allow'],
    ['1.2.3.4/32', '1.2.3.4', 'block'],
    ['1.2.3.4/32', '1.2.3.5', 'allow'],
    ['1.2.3.4', '1.2.3.4', 'block'],
    ['0.0.0.0/0', '255.255.255.255', 'block'],
    ['0.0.0.0/0', '0.0.0.0', 'block'],
    ['*', '8.8.8.8', 'block'],
    ['255.255.255.255/32', '255.255.255.255', 'block'],
    ['128.0.0.0/1', '127.255.255.255', 'allow'],
    ['128.0.0.0/1', '128.0.0.0', 'block'],
  ])('%s on %s → %s', (cidr, ip, expected) => {
    expect(run(p(cidr), { ip }).decision).toBe(expected);
  });

  it('`*` and /0 match even an unknown address; a block needs a known one', () => {
    expect(run(p('*'), { host: 'x.com' }).decision).toBe('block');
    expect(run(p('0.0.0.0/0'), { host: 'x.com' }).decision).toBe('block');
    expect(run(p('10.0.0.0/8'), { host: 'x.com' }).decision).toBe('allow');
  });

  it('matches the IPs of feeds, and routes through a gateway', () => {
    const feeds = [{ id: 'bad', name: 'Bad IPs', domains: [], ips: ['198.51.100.0/24', '203.0.113.9'] }];
    expect(run(p('', { feeds: ['bad'] }), { ip: '198.51.100.99' }, { feeds }).decision).toBe('block');
    expect(run(p('', { feeds: ['bad'] }), { ip: '203.0.113.9' }, { feeds }).decision).toBe('block');
    expect(run(p('', { feeds: ['bad'] }), { ip: '203.0.113.8' }, { feeds }).decision).toBe('allow');
    const route = [
      makePolicy('p', [rule('ROUTE', '172.16.0.0/12', 'route', { target: 'gw1' })], { type: 'route' }),
    ];
    expect(run(route, { ip: '172.31.0.1' })).toMatchObject({
      decision: 'allow',
      gateway: 'gw1',
      layer: 'network',
    });
  });

  it('treats an IPv4 host as the destination address', () => {
    expect(run(p('1.2.3.0/24'), { host: '1.2.3.4' }).decision).toBe('block');
  });
});

describe('GEO', () => {
  const lookup = (ip: string) => (ip.startsWith('5.') ? 'ru' : ip.startsWith('8.') ? 'US' : null);
  const p = (url: string) => [makePolicy('p', [rule('GEO', url, 'block')])];
  it('matches the destination country, case-insensitively', () => {
    expect(run(p('RU;KP'), { ip: '5.1.1.1' }, {}, lookup).decision).toBe('block');
    expect(run(p('ru'), { ip: '5.1.1.1' }, {}, lookup).decision).toBe('block');
    expect(run(p('RU'), { ip: '8.8.8.8' }, {}, lookup).decision).toBe('allow');
    expect(run(p('RU'), { ip: '8.8.8.8', destinationCountry: 'ru' }, {}, lookup).decision).toBe('block');
  });
  it('an unknown country matches only `*`', () => {
    expect(run(p('RU'), { ip: '9.9.9.9' }, {}, lookup).decision).toBe('allow');
    expect(run(p('*'), { ip: '9.9.9.9' }, {}, lookup).decision).toBe('block');
    expect(run(p('*'), {}, {}, lookup).decision).toBe('block');
  });
  it('reports the countries in the explanation', () => {
    const e = explain(compile(makeInput(p('RU')), { lookupCountry: lookup }), {
      ip: '5.1.1.1',
      sourceIp: '8.1.1.1',
    });
    expect(e).toMatchObject({ destinationCountry: 'RU', sourceCountry: 'US' });
  });
  it('follows a DNS rewrite to an address', () => {
    const policies = [
      makePolicy('p', [
        rule('DNS_REWRITE', 'x.com', 'rewrite', { target: '5.5.5.5' }),
        rule('GEO', 'RU', 'block', { id: 'geo' }),
      ]),
    ];
    expect(ruleId(run(policies, { host: 'x.com', ip: '8.8.8.8' }, {}, lookup))).toBe('geo');
  });
});

describe('app rules', () => {
  const apps = [
    {
      appid: 'dropbox',
      appname: 'Dropbox',
      domains: ['dropbox.com', 'dropboxapi.com'],
      ips: ['162.125.0.0/16'],
    },
  ];
  it('match the app domains in DNS and the app addresses in the network layer', () => {
    const p = [makePolicy('p', [rule('app', 'dropbox', 'block')])];
    expect(run(p, { host: 'content.dropboxapi.com' }, { apps })).toMatchObject({
      decision: 'block',
      layer: 'dns',
    });
    expect(run(p, { ip: '162.125.3.4' }, { apps })).toMatchObject({ decision: 'block', layer: 'network' });
    expect(run(p, { host: 'dropbox.org', ip: '1.1.1.1' }, { apps }).decision).toBe('allow');
    expect(explain(compile(makeInput(p, { apps })), { host: 'www.dropbox.com' }).apps).toEqual(['Dropbox']);
  });
  it('a missing app matches nothing', () => {
    const p = [makePolicy('p', [rule('app', 'nope', 'block')])];
    expect(run(p, { host: 'nope.com', ip: '1.1.1.1' }, { apps }).decision).toBe('allow');
  });
});

describe('HTTP rules', () => {
  it('url: host by label suffix and a case-sensitive path prefix', () => {
    const p = [makePolicy('p', [rule('url', 'https://example.com/Downloads', 'block')])];
    expect(run(p, at('https://example.com/Downloads/x.zip')).decision).toBe('block');
    expect(run(p, at('http://cdn.example.com/Downloads')).decision).toBe('block');
    expect(run(p, at('https://example.com/downloads/x.zip')).decision).toBe('allow');
    expect(run(p, at('https://example.com/')).decision).toBe('allow');
    expect(run(p, at('https://badexample.com/Downloads')).decision).toBe('allow');
  });
  it('url without a path matches every path of the host', () => {
    const p = [makePolicy('p', [rule('url', 'example.com', 'block')])];
    expect(run(p, at('https://a.example.com/anything?q=1')).decision).toBe('block');
  });
  it('SQUID_DMN matches hosts of HTTP requests only', () => {
    const p = [makePolicy('p', [rule('SQUID_DMN', 'example.com', 'block')])];
    expect(run(p, at('https://a.example.com/')).decision).toBe('block');
    expect(run(p, at('a.example.com')).decision).toBe('allow');
  });
  it('SQUID_KEYWORD: case-insensitive substring of path and query', () => {
    const p = [makePolicy('p', [rule('SQUID_KEYWORD', 'Casino', 'block')])];
    expect(run(p, at('https://x.com/play/CASINO/now')).decision).toBe('block');
    expect(run(p, at('https://x.com/search?q=casinos')).decision).toBe('block');
    expect(run(p, at('https://casino.com/')).decision).toBe('allow'); // the host is not the path
    expect(run(p, at('https://x.com/cas')).decision).toBe('allow');
  });
  it('SQUID_FILEEXT: extension of the last segment, before the query', () => {
    const p = [makePolicy('p', [rule('SQUID_FILEEXT', 'exe; .MSI; tar.gz', 'block')])];
    expect(run(p, at('https://x.com/setup.exe')).decision).toBe('block');
    expect(run(p, at('https://x.com/SETUP.EXE')).decision).toBe('block');
    expect(run(p, at('https://x.com/a/b/installer.msi?v=2')).decision).toBe('block');
    expect(run(p, at('https://x.com/pkg.tar.gz')).decision).toBe('block');
    expect(run(p, at('https://x.com/file.exe.txt')).decision).toBe('allow');
    expect(run(p, at('https://x.com/get?file=setup.exe')).decision).toBe('allow');
    expect(run(p, at('https://x.com/setup.exe/readme')).decision).toBe('allow');
    expect(run(p, at('https://x.com/exe')).decision).toBe('allow');
    expect(run(p, at('https://x.com/page#x.exe')).decision).toBe('allow');
  });
});

describe('explain', () => {
  it('records a step per rule with matched, no-match, skipped and default outcomes', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'other.com', 'block', { id: 'miss' }),
        rule('dmn', 'x.com', 'allow', { id: 'hit' }),
        rule('dmn', 'x.com', 'block', { id: 'later' }),
        rule('dmn', 'x.com', 'block', { id: 'off', enabled: false }),
        rule('ROUTE', '10.0.0.0/8', 'block', { id: 'net' }),
      ]),
    ];
    const e = explain(compile(makeInput(p)), { host: 'x.com', ip: '192.0.2.1' });
    expect(e.trace.map((s) => [s.layer, s.rule?.ruleId ?? null, s.outcome, s.reason])).toEqual([
      ['dns', 'miss', 'no-match', 'policy.trace.hostNoMatch'],
      ['dns', 'hit', 'matched', 'policy.trace.matched'],
      ['dns', 'later', 'skipped', 'policy.trace.decidedEarlier'],
      ['dns', 'off', 'skipped', 'policy.trace.ruleDisabled'],
      ['network', 'net', 'no-match', 'policy.trace.ipNoMatch'],
      ['network', null, 'default', 'policy.trace.layerDefault'],
      ['qos', null, 'default', 'policy.trace.qosDefault'],
    ]);
  });
  it('marks the layers after a block as not reached', () => {
    const p = [makePolicy('p', [rule('dmn', 'x.com', 'block'), rule('url', 'x.com', 'allow', { id: 'u' })])];
    const e = explain(compile(makeInput(p)), at('https://x.com/'));
    expect(e.trace.find((s) => s.rule?.ruleId === 'u')).toMatchObject({
      outcome: 'skipped',
      reason: 'policy.trace.layerNotReached',
    });
  });
});

describe('parseDestination', () => {
  it.each([
    [
      'https://Host.example.com:8443/a/b?x',
      { host: 'host.example.com', path: '/a/b?x', ip: null, port: 8443 },
    ],
    ['https://example.com', { host: 'example.com', path: '/', ip: null, port: 443 }],
    ['http://example.com./x#frag', { host: 'example.com', path: '/x', ip: null, port: 80 }],
    ['example.com', { host: 'example.com', path: null, ip: null, port: null }],
    ['Example.COM.', { host: 'example.com', path: null, ip: null, port: null }],
    ['example.com:443', { host: 'example.com', path: null, ip: null, port: 443 }],
    ['1.2.3.4', { host: null, path: null, ip: '1.2.3.4', port: null }],
    ['1.2.3.4:22', { host: null, path: null, ip: '1.2.3.4', port: 22 }],
    ['https://10.0.0.1/admin', { host: null, path: '/admin', ip: '10.0.0.1', port: 443 }],
    ['example.com/path', { host: 'example.com', path: '/path', ip: null, port: 80 }],
    ['bücher.example', { host: 'xn--bcher-kva.example', path: null, ip: null, port: null }],
    ['  ', { host: null, path: null, ip: null, port: null }],
    ['exa mple.com', { host: null, path: null, ip: null, port: null }],
    ['example.com:0', { host: null, path: null, ip: null, port: null }],
    ['example.com:70000', { host: null, path: null, ip: null, port: null }],
    ['999.1.1.1', { host: null, path: null, ip: null, port: null }],
  ])('%s', (text, expected) => {
    expect(parseDestination(text)).toEqual(expected);
  });
});

describe('compile', () => {
  it('returns a frozen structure', () => {
    const c = compile(makeInput([makePolicy('p', [rule('dmn', 'x.com', 'block')])]));
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.rules[0].ref)).toBe(true);
    expect(c.stats).toMatchObject({ policies: 1, rules: 1, activeRules: 1 });
  });
  it('marks system rules in the rule reference', () => {
    const c = compile(
      makeInput([
        makePolicy('p', [
          rule('ROUTE', '*', 'route', { name: 'Route rule 1' }),
          rule('dmn', 'x.com', 'block', { name: 'mine' }),
        ]),
        makePolicy('s', [rule('dmn', 'y.com', 'block', { name: 'feed' })], { system: true }),
      ]),
    );
    expect(c.rules.map((r) => r.ref.system)).toEqual([true, false, true]);
  });
});

describe('host index at scale', () => {
  // Deterministic pseudo-random domains: many keys share slots of the open-addressing table.
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const label = () => Math.floor(random() * 36 ** 4).toString(36);
  const domains = Array.from({ length: 5000 }, (_, i) =>
    i % 7 === 0 ? `${label()}.${label()}.net` : `${label()}.com`,
  );
  const actionOf = new Map<string, 'allow' | 'block'>();
  const rules = domains.map((d, i) => {
    if (!actionOf.has(d)) actionOf.set(d, i % 3 === 0 ? 'allow' : 'block');
    return rule('dmn', d, i % 3 === 0 ? 'allow' : 'block');
  });
  const c = compile(makeInput([makePolicy('p', rules)]));
  const i3 = (i: number) => (i % 3 === 0 ? 'allow' : 'block');
  /** Naive reference: the first rule (by position) whose domain is the host or a label suffix of it. */
  const expected = (host: string) => {
    const hit = domains.findIndex((d) => host === d || host.endsWith(`.${d}`));
    return hit < 0 ? 'allow' : i3(hit);
  };

  it('finds exactly the rules of the host and its label suffixes', () => {
    const hosts: string[] = [];
    for (let i = 0; i < 600; i++) {
      const d = domains[Math.floor(random() * domains.length)];
      hosts.push(d, `www.${d}`, `x${d}`, `${d}.evil.net`, `${label()}.com`, d.toUpperCase(), `${d}.`);
    }
    for (const host of hosts)
      expect(decide(c, { host }).decision, host).toBe(expected(host.toLowerCase().replace(/\.$/, '')));
  });

  it('handles hosts with more labels than DNS allows', () => {
    const target = domains[1];
    const deep = `${'a.'.repeat(300)}${target}`;
    expect(decide(c, { host: deep }).decision).toBe(expected(target));
    // 150 rules on nested suffixes of one host: every one of them is a hit, the deepest decides.
    const nested = Array.from({ length: 150 }, (_, k) =>
      rule('dmn', `${'a.'.repeat(149 - k)}x.com`, k === 0 ? 'allow' : 'block', { id: `n${149 - k}` }),
    );
    const many = compile(makeInput([makePolicy('p', nested)]));
    expect(ruleId(decide(many, { host: `${'a.'.repeat(260)}x.com` }))).toBe('n149');
    expect(ruleId(decide(many, { host: `${'a.'.repeat(100)}x.com` }))).toBe('n100');
    expect(
      ruleId(
        run([makePolicy('p', [rule('dmn', 'x.com', 'block', { id: 'b' })])], {
          host: `${'b.'.repeat(400)}x.com`,
        }),
      ),
    ).toBe('b');
  });
});
