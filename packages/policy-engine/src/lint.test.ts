import { describe, expect, it } from 'vitest';
import { type EngineObjects, type EnginePolicy, lint } from './index';
import { makeInput, makePolicy, makeRule } from './testing';

const rule = makeRule;
const findings = (policies: EnginePolicy[], objects: Partial<EngineObjects> = {}) =>
  lint(makeInput(policies, objects));
const kinds = (policies: EnginePolicy[], objects: Partial<EngineObjects> = {}) =>
  findings(policies, objects).map((f) => [f.kind, f.rule?.ruleId ?? null, f.other?.ruleId ?? null]);

describe('shadowed / conflict / redundant', () => {
  it('conflict: same items, different action', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'allow', { id: 'a' }),
        rule('dmn', 'x.com', 'block', { id: 'b' }),
      ]),
    ];
    const [f] = findings(p);
    expect(f).toMatchObject({ kind: 'conflict', severity: 'error', message: 'policy.lint.conflict' });
    expect(f.rule?.ruleId).toBe('b');
    expect(f.other?.ruleId).toBe('a');
    expect(f.values).toMatchObject({ rule: 'b', other: 'a', item: 'x.com' });
  });

  it('shadowed: a broader earlier rule with a different action', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'example.com', 'block', { id: 'a' }),
        rule('dmn', 'mail.example.com', 'allow', { id: 'b' }),
      ]),
    ];
    expect(kinds(p)).toEqual([['shadowed', 'b', 'a']]);
    expect(findings(p)[0].severity).toBe('warning');
  });

  it('redundant: a covered rule with the same action', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'example.com; other.com', 'block', { id: 'a' }),
        rule('dmn', '*.example.com', 'block', { id: 'b' }),
      ]),
    ];
    expect(kinds(p)).toEqual([['redundant', 'b', 'a']]);
    expect(findings(p)[0].severity).toBe('info');
  });

  it('does not report what the earlier rule does not fully cover', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'mail.example.com', 'block', { id: 'a' }),
        rule('dmn', 'example.com', 'allow', { id: 'b' }), // broader than a: fine
        rule('dmn', 'badexample.com', 'allow', { id: 'c' }), // not a label suffix
        rule('dmn', 'x.com; y.com', 'allow', { id: 'd' }),
        rule('dmn', 'x.com', 'block', { id: 'e' }), // covered by d
        rule('dmn', 'y.com; z.com', 'block', { id: 'f' }), // z.com is not covered
      ]),
    ];
    expect(kinds(p)).toEqual([['shadowed', 'e', 'd']]);
  });

  it('`*` covers everything in its layer', () => {
    const p = [
      makePolicy('p', [rule('dmn', '*', 'block', { id: 'all' }), rule('dmn', 'x.com', 'allow', { id: 'x' })]),
    ];
    expect(kinds(p)).toEqual([['shadowed', 'x', 'all']]);
    const geo = [
      makePolicy('p', [
        rule('GEO', '*', 'allow', { id: 'g' }),
        rule('ROUTE', '10.0.0.0/8', 'block', { id: 'r' }),
      ]),
    ];
    expect(kinds(geo)).toEqual([['shadowed', 'r', 'g']]);
  });

  it('CIDR containment, not overlap', () => {
    const p = [
      makePolicy('p', [
        rule('ROUTE', '10.0.0.0/8', 'block', { id: 'wide' }),
        rule('ROUTE', '10.1.0.0/16; 10.200.3.4', 'allow', { id: 'inside' }),
        rule('ROUTE', '11.0.0.0/16', 'allow', { id: 'adjacent' }),
        rule('ROUTE', '0.0.0.0/5', 'allow', { id: 'wider' }),
      ]),
    ];
    expect(kinds(p)).toEqual([['shadowed', 'inside', 'wide']]);
  });

  it('keyword substring, extension equality, url prefixes', () => {
    const p = [
      makePolicy('p', [
        rule('SQUID_KEYWORD', 'casino', 'block', { id: 'k1' }),
        rule('SQUID_KEYWORD', 'onlinecasino', 'allow', { id: 'k2' }),
        rule('SQUID_FILEEXT', '.EXE', 'block', { id: 'e1' }),
        rule('SQUID_FILEEXT', 'exe', 'block', { id: 'e2' }),
        rule('url', 'example.com/downloads', 'block', { id: 'u1' }),
        rule('url', 'cdn.example.com/downloads/win', 'allow', { id: 'u2' }),
        rule('url', 'example.com/docs', 'allow', { id: 'u3' }),
        rule('url', 'games.test/casino-night', 'allow', { id: 'u4' }),
      ]),
    ];
    expect(kinds(p)).toEqual([
      ['shadowed', 'k2', 'k1'],
      ['redundant', 'e2', 'e1'],
      ['shadowed', 'u2', 'u1'],
      ['shadowed', 'u4', 'k1'],
    ]);
  });

  it('categories, feeds and apps are covered by the same id only', () => {
    const objects = {
      categories: [{ id: 'c1', name: 'C1', domains: ['a.com'] }],
      apps: [{ appid: 'zoom', appname: 'Zoom', domains: ['zoom.us'], ips: [] }],
    };
    const p = [
      makePolicy('p', [
        rule('dmn', '', 'block', { id: 'a', categories: ['c1'] }),
        rule('dmn', 'a.com', 'allow', { id: 'b' }), // same domains in effect, but not provably: not reported
        rule('dmn', 'q.com', 'allow', { id: 'c', categories: ['c1'] }),
        rule('dmn', '', 'allow', { id: 'd', categories: ['c1'] }),
        rule('app', 'zoom', 'block', { id: 'z1' }),
        rule('app', 'zoom', 'allow', { id: 'z2' }),
      ]),
    ];
    expect(kinds(p, objects)).toEqual([
      ['conflict', 'd', 'a'],
      ['conflict', 'z2', 'z1'],
    ]);
  });

  it('respects subjects: an assigned policy does not shadow one for everyone', () => {
    const forU1 = makePolicy('a', [rule('dmn', 'x.com', 'block', { id: 'a' })], {
      precedence: 1,
      appliesTo: { users: ['u1'], groups: ['g1'], devices: [] },
    });
    const all = makePolicy('b', [rule('dmn', 'x.com', 'allow', { id: 'b' })], { precedence: 2 });
    expect(kinds([forU1, all])).toEqual([]);
    const narrower = makePolicy('c', [rule('dmn', 'x.com', 'allow', { id: 'c' })], {
      precedence: 3,
      appliesTo: { users: [], groups: ['g1'], devices: [] },
    });
    expect(kinds([forU1, narrower])).toEqual([['conflict', 'c', 'a']]);
    const everyoneFirst = makePolicy('z', [rule('dmn', 'x.com', 'allow', { id: 'z' })], { precedence: 0 });
    expect(kinds([everyoneFirst, forU1])).toEqual([['conflict', 'a', 'z']]);
  });

  it('respects conditions: a narrower earlier rule does not shadow', () => {
    const locations = [{ id: 'hq', name: 'HQ', networks: ['10.0.0.0/8'] }];
    const p = (a: object, b: object) => [
      makePolicy('p', [
        rule('ROUTE', '*', 'block', { id: 'a', ...a }),
        rule('ROUTE', '10.0.0.0/8', 'allow', { id: 'b', ...b }),
      ]),
    ];
    expect(kinds(p({ ports: '22' }, {}), { locations })).toEqual([['unused-object', null, null]]);
    expect(kinds(p({ ports: '1-1024' }, { ports: '22,80' }), { locations })).toContainEqual([
      'shadowed',
      'b',
      'a',
    ]);
    expect(kinds(p({ locations: ['hq'] }, {}), { locations })).toEqual([]);
    expect(kinds(p({ locations: ['hq'] }, { locations: ['hq'] }), { locations })).toContainEqual([
      'shadowed',
      'b',
      'a',
    ]);
    const work = { days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' };
    expect(kinds(p({ schedule: work }, {}), { locations })).not.toContainEqual(['shadowed', 'b', 'a']);
    expect(
      kinds(p({ schedule: work }, { schedule: { days: [1], from: '09:00', to: '12:00' } }), { locations }),
    ).toContainEqual(['shadowed', 'b', 'a']);
    expect(kinds(p({}, { schedule: work }), { locations })).toContainEqual(['shadowed', 'b', 'a']);
  });

  it('compares within a layer only, and ignores disabled rules and policies', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'block', { id: 'dns' }),
        rule('SQUID_DMN', 'x.com', 'allow', { id: 'http' }), // HTTP layer: a different layer
        rule('dmn', 'y.com', 'block', { id: 'off', enabled: false }),
        rule('dmn', 'y.com', 'allow', { id: 'y' }),
      ]),
      makePolicy('q', [rule('dmn', 'z.com', 'block', { id: 'z' })], { enabled: false, precedence: 1 }),
      makePolicy('r', [rule('dmn', 'z.com', 'allow', { id: 'z2' })], { precedence: 200 }),
    ];
    expect(kinds(p)).toEqual([]);
  });

  it('treats different rewrite targets and QoS classes as different actions', () => {
    const p = [
      makePolicy('p', [
        rule('DNS_REWRITE', 'x.com', 'rewrite', { id: 'a', target: '10.0.0.1' }),
        rule('DNS_REWRITE', 'x.com', 'rewrite', { id: 'b', target: '10.0.0.2' }),
      ]),
      makePolicy(
        'q',
        [
          rule('dmn', 'v.com', 'qos', { id: 'q1', target: 'gold' }),
          rule('dmn', 'v.com', 'qos', { id: 'q2', target: 'gold' }),
        ],
        {
          type: 'qos',
        },
      ),
    ];
    expect(kinds(p)).toEqual([
      ['conflict', 'b', 'a'],
      ['redundant', 'q2', 'q1'],
    ]);
  });

  it('in the QoS layer, an HTTP-only rule does not cover one that also matches non-HTTP traffic', () => {
    const qos = (rules: ReturnType<typeof rule>[]) => [makePolicy('q', rules, { type: 'qos' })];
    const httpFirst = qos([
      rule('SQUID_DMN', 'x.com', 'qos', { id: 'web', target: 'a' }),
      rule('dmn', 'x.com', 'qos', { id: 'any', target: 'b' }),
    ]);
    expect(kinds(httpFirst)).toEqual([]);
    const dnsFirst = qos([
      rule('dmn', 'x.com', 'qos', { id: 'any', target: 'b' }),
      rule('SQUID_DMN', 'x.com', 'qos', { id: 'web', target: 'a' }),
    ]);
    expect(kinds(dnsFirst)).toEqual([['conflict', 'web', 'any']]);
  });

  it('does not report rules of system policies, but lets them shadow user rules', () => {
    const system = makePolicy(
      'sys',
      [rule('dmn', 'x.com', 'block', { id: 's1' }), rule('dmn', 'x.com', 'block', { id: 's2' })],
      {
        system: true,
        precedence: 0,
      },
    );
    const user = makePolicy('u', [rule('dmn', 'a.x.com', 'allow', { id: 'u1' })], { precedence: 5 });
    expect(kinds([system, user])).toEqual([['shadowed', 'u1', 's1']]);
  });
});

describe('object findings', () => {
  it('missing-object for categories, feeds, locations and apps', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', 'x.com', 'block', {
          id: 'r1',
          categories: ['cat?'],
          feeds: ['feed?'],
          locations: ['loc?'],
        }),
        rule('app', 'app?', 'block', { id: 'r2' }),
      ]),
    ];
    const missing = findings(p).filter((f) => f.kind === 'missing-object');
    expect(missing.map((f) => [f.rule?.ruleId, f.object])).toEqual([
      ['r1', { kind: 'category', id: 'cat?', name: 'cat?' }],
      ['r1', { kind: 'feed', id: 'feed?', name: 'feed?' }],
      ['r1', { kind: 'location', id: 'loc?', name: 'loc?' }],
      ['r2', { kind: 'app', id: 'app?', name: 'app?' }],
    ]);
    expect(missing[0]).toMatchObject({ severity: 'error', message: 'policy.lint.missingObject' });
  });

  it('unused-object for locations and custom categories no rule uses', () => {
    const objects = {
      locations: [
        { id: 'used', name: 'Used', networks: ['10.0.0.0/8'] },
        { id: 'idle', name: 'Idle', networks: ['11.0.0.0/8'] },
      ],
      categories: [
        { id: 'shipped', name: 'Shipped', domains: ['a.com'] },
        { id: 'mine', name: 'Mine', domains: ['b.com'], custom: true },
        { id: 'mine2', name: 'Mine too', domains: ['c.com'], custom: true },
      ],
    };
    const p = [
      makePolicy('p', [
        rule('dmn', '', 'block', { locations: ['used'], categories: ['mine2'], enabled: false }),
      ]),
    ];
    const unused = findings(p, objects).filter((f) => f.kind === 'unused-object');
    expect(unused.map((f) => f.object)).toEqual([
      { kind: 'location', id: 'idle', name: 'Idle' },
      { kind: 'category', id: 'mine', name: 'Mine' },
    ]);
    expect(unused[0]).toMatchObject({ severity: 'info', rule: null, message: 'policy.lint.unusedObject' });
  });

  it('empty-matcher for a rule with nothing to match; `*` is not empty', () => {
    const p = [
      makePolicy('p', [
        rule('dmn', ' ; , ', 'block', { id: 'empty' }),
        rule('GEO', '*', 'allow', { id: 'geo' }),
        rule('ROUTE', '*', 'allow', { id: 'route' }),
        rule('SQUID_DMN', '', 'block', { id: 'cat', categories: ['c'] }),
      ]),
    ];
    const empty = findings(p, { categories: [{ id: 'c', name: 'C', domains: [] }] }).filter(
      (f) => f.kind === 'empty-matcher',
    );
    expect(empty.map((f) => f.rule?.ruleId)).toEqual(['empty']);
    expect(empty[0]).toMatchObject({ severity: 'error', message: 'policy.lint.emptyMatcher' });
  });
});

describe('scale', () => {
  it('lints 10 000 rules through the index, finding each planted shadow', () => {
    const rules = [];
    for (let i = 0; i < 10_000; i++)
      rules.push(rule('dmn', `site${i}.example`, i % 2 ? 'allow' : 'block', { id: `r${i}` }));
    for (let i = 0; i < 50; i++)
      rules.push(rule('dmn', `www.site${i * 3}.example`, 'allow', { id: `s${i}` }));
    const result = findings([makePolicy('p', rules)]);
    expect(result).toHaveLength(50);
    expect(result.filter((f) => f.kind === 'shadowed')).toHaveLength(25); // site(3i) blocks when 3i is even
    expect(result.filter((f) => f.kind === 'redundant')).toHaveLength(25);
  });
});
