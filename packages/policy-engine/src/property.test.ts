/**
 * Property tests: for generated rule sets and requests, explain() agrees with decide(), the trace names the
 * deciding rule, and decide() agrees with a deliberately naive linear evaluator written here from the
 * documented semantics (no indexes, no shared code with the engine's matchers).
 */
import {
  DEFAULT_SESSION_QOS,
  isIpInCidr,
  type Layer,
  type PolicyRule,
  parseIpv4,
  RULE_LAYERS,
  RULE_TYPE_ACTIONS,
  RULE_TYPES,
  type RuleType,
  splitMatcher,
} from '@palisade/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compile,
  decide,
  type EngineInput,
  type EnginePolicy,
  type EngineRequest,
  explain,
  lint,
} from './index';

const OBJECTS: EngineInput['objects'] = {
  apps: [
    { appid: 'app1', appname: 'App One', domains: ['a.com'], ips: ['192.168.0.0/24'] },
    { appid: 'app2', appname: 'App Two', domains: ['*.c.net'], ips: ['8.8.8.8'] },
  ],
  categories: [{ id: 'cat1', name: 'Cat', domains: ['b.a.com'], custom: true }],
  feeds: [{ id: 'f1', name: 'Feed', domains: ['c.net'], ips: ['10.1.0.0/16'] }],
  locations: [
    { id: 'loc1', name: 'Office', networks: ['172.16.0.0/12'] },
    { id: 'loc2', name: 'Home', networks: ['203.0.113.7'] },
  ],
};
const lookupCountry = (ip: string) => (ip.startsWith('10.') ? 'US' : ip.startsWith('8.') ? 'ru' : null);

const MATCHERS: Record<RuleType, string[]> = {
  dmn: ['a.com', 'b.a.com', '*.c.net', '*', 'A.COM.', 'x.b.a.com; c.net', 'bada.com'],
  SQUID_DMN: ['a.com', 'c.net', '*', '.b.a.com'],
  DNS_REWRITE: ['a.com', 'b.a.com', '*'],
  app: ['app1', 'app2', 'app1,app2', 'missing'],
  ROUTE: ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.3', '192.168.0.0/24', '*', '0.0.0.0/0', '8.8.8.8;10.2.0.0/16'],
  GEO: ['US', 'ru', '*', 'US;RU', 'DE'],
  url: ['a.com/x', 'b.a.com', 'c.net/Y', '*/x', 'https://a.com/'],
  SQUID_KEYWORD: ['casino', 'X/1', 'q=', 'zzz'],
  SQUID_FILEEXT: ['exe', '.msi', 'tar.gz', 'EXE'],
};

const ruleArbOf = (types: readonly RuleType[]): fc.Arbitrary<PolicyRule> =>
  fc
    .record({
      type: fc.constantFrom(...types),
      pick: fc.nat(20),
      action: fc.nat(5),
      target: fc.constantFrom('', '10.1.2.3', '8.8.8.8', 'gw', 'q1', 'q2'),
      ports: fc.constantFrom('', '', '', '', '22', '80-443', '8000-8080, 22'),
      categories: fc.constantFrom([], [], ['cat1'], ['nope']),
      feeds: fc.constantFrom([], [], ['f1']),
      locations: fc.constantFrom([], [], [], [], ['loc1'], ['loc1', 'loc2'], ['gone']),
      schedule: fc.option(
        fc.record({
          days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
          from: fc.constantFrom('00:00', '09:00', '22:00'),
          to: fc.constantFrom('06:00', '17:00', '23:59'),
        }),
        { freq: 6 },
      ),
      enabled: fc.constantFrom(true, true, true, false),
    })
    .map((r) => {
      const matchers = MATCHERS[r.type];
      const actions = [...RULE_TYPE_ACTIONS[r.type]];
      return {
        id: '',
        name: '',
        type: r.type,
        url: matchers[r.pick % matchers.length],
        action: actions[r.action % actions.length],
        target: r.target,
        ports: r.ports,
        categories: [...r.categories],
        feeds: [...r.feeds],
        locations: [...r.locations],
        schedule: r.schedule,
        enabled: r.enabled,
        issysgen: false,
      };
    });

const policyArbOf = (
  types: readonly RuleType[],
  maxRules: number,
): fc.Arbitrary<Omit<EnginePolicy, 'id' | 'name'>> =>
  fc.record({
    type: fc.constantFrom('other', 'other', 'route', 'qos'),
    enabled: fc.constantFrom(true, true, true, false),
    precedence: fc.integer({ min: 0, max: 3 }),
    rules: fc.array(ruleArbOf(types), { minLength: 1, maxLength: maxRules }),
    appliesTo: fc.option(
      fc.record({
        users: fc.subarray(['u1', 'u2']),
        groups: fc.subarray(['g1', 'g2']),
        devices: fc.subarray(['d1']),
      }),
      { freq: 3 },
    ),
  });

const inputArbOf = (types: readonly RuleType[], maxRules: number): fc.Arbitrary<EngineInput> =>
  fc.array(policyArbOf(types, maxRules), { minLength: 1, maxLength: 5 }).map((ps) => ({
    objects: OBJECTS,
    policies: ps.map((p, i) => ({
      ...p,
      id: `p${(i * 7) % 5}-${i}`,
      name: `Policy ${i}`,
      rules: p.rules.map((r, j) => ({ ...r, id: `p${i}r${j}`, name: `Rule ${i}.${j}` })),
    })),
  }));
const inputArb = inputArbOf(RULE_TYPES, 6);
/** Rule sets of one layer's types, denser, so that rules cover each other often (lint soundness). */
const layerInputArb = fc
  .constantFrom<RuleType[]>(
    ['dmn', 'DNS_REWRITE', 'app'],
    ['ROUTE', 'GEO', 'app'],
    ['url', 'SQUID_DMN', 'SQUID_KEYWORD', 'SQUID_FILEEXT'],
  )
  .chain((types) => inputArbOf(types, 8));

const requestArb: fc.Arbitrary<EngineRequest> = fc.record({
  userId: fc.constantFrom(null, 'u1', 'u2', 'u3'),
  groups: fc.subarray(['g1', 'g2', 'g3']),
  deviceId: fc.constantFrom(null, 'd1', 'd2'),
  host: fc.constantFrom(
    null,
    'a.com',
    'b.a.com',
    'x.b.a.com',
    'zz.a.com',
    'c.net',
    'd.c.net',
    'bada.com',
    'A.Com.',
    '10.1.2.3',
  ),
  path: fc.constantFrom(
    null,
    null,
    '/',
    '/x/1',
    '/Y?q=1',
    '/x.exe',
    '/setup.EXE?casino',
    '/casino',
    '/a.tar.gz',
    '/f.msi#x',
  ),
  ip: fc.constantFrom(null, '10.1.2.3', '10.2.0.1', '192.168.0.255', '8.8.8.8', '1.1.1.1'),
  port: fc.constantFrom(null, 22, 80, 443, 8080, 9000),
  sourceIp: fc.constantFrom(null, '172.16.5.5', '203.0.113.7', '1.2.3.4'),
  time: fc.integer({ min: Date.parse('2024-01-01T00:00:00Z'), max: Date.parse('2024-01-14T23:59:59Z') }),
  destinationCountry: fc.constantFrom(undefined, undefined, 'de', 'US'),
});

// ------------------------------------------------------------------------------------------------------
// The naive reference: a linear walk over the rules, straight from the documented semantics.

function cleanDomain(raw: string): string {
  let d = raw.trim().toLowerCase();
  while (d.startsWith('*.') || d.startsWith('.')) d = d.startsWith('*.') ? d.slice(2) : d.slice(1);
  while (d.endsWith('.')) d = d.slice(0, -1);
  return d;
}
function suffixOf(host: string, domain: string) {
  return domain === '*' || host === domain || host.endsWith(`.${domain}`);
}
function ipIn(ip: string, entry: string) {
  return entry.includes('/') ? isIpInCidr(ip, entry) : ip === entry;
}

interface State {
  host: string | null;
  path: string | null;
  ip: string | null;
  req: EngineRequest;
}

function refMatches(rule: PolicyRule, layer: Layer, s: State): boolean {
  const items = splitMatcher(rule.url);
  const sub = layer === 'qos' ? RULE_LAYERS[rule.type] : [layer];
  return sub.some((l) => {
    if (l === 'http' && s.path === null) return false;
    switch (rule.type) {
      case 'dmn':
      case 'SQUID_DMN':
      case 'DNS_REWRITE': {
        if (s.host === null) return false;
        const host = s.host;
        const domains = items.map(cleanDomain);
        if (rule.type !== 'DNS_REWRITE') {
          for (const id of rule.categories)
            domains.push(...(OBJECTS.categories.find((c) => c.id === id)?.domains ?? []).map(cleanDomain));
          for (const id of rule.feeds)
            domains.push(...(OBJECTS.feeds.find((f) => f.id === id)?.domains ?? []).map(cleanDomain));
        }
        return domains.some((d) => suffixOf(host, d));
      }
      case 'app': {
        const apps = OBJECTS.apps.filter((a) => items.includes(a.appid));
        if (l === 'dns')
          return (
            s.host !== null &&
            apps.some((a) => a.domains.some((d) => suffixOf(s.host as string, cleanDomain(d))))
          );
        return s.ip !== null && apps.some((a) => a.ips.some((e) => ipIn(s.ip as string, e)));
      }
      case 'ROUTE': {
        if (items.includes('*') || items.includes('0.0.0.0/0')) return true;
        if (s.ip === null) return false;
        const feedIps = rule.feeds.flatMap((id) => OBJECTS.feeds.find((f) => f.id === id)?.ips ?? []);
        return [...items, ...feedIps].some((e) => ipIn(s.ip as string, e));
      }
      case 'GEO': {
        if (items.includes('*')) return true;
        const country = s.req.destinationCountry ?? (s.ip ? lookupCountry(s.ip) : null);
        return country !== null && items.some((i) => i.toUpperCase() === country.toUpperCase());
      }
      case 'url':
        return (
          s.host !== null &&
          items.some((item) => {
            const slash = item.replace(/^https?:\/\//, '').indexOf('/');
            const bare = item.replace(/^https?:\/\//, '');
            const h = cleanDomain(slash < 0 ? bare : bare.slice(0, slash));
            const prefix = slash < 0 ? '' : bare.slice(slash);
            return (
              suffixOf(s.host as string, h) && (s.path as string).startsWith(prefix === '/' ? '' : prefix)
            );
          })
        );
      case 'SQUID_KEYWORD':
        return items.some((k) => (s.path as string).toLowerCase().includes(k.toLowerCase()));
      case 'SQUID_FILEEXT': {
        const segment = (s.path as string).split(/[?#]/)[0].split('/').pop()?.toLowerCase() ?? '';
        return items.some((e) => {
          const ext = e.toLowerCase().replace(/^\.+/, '');
          return segment.endsWith(`.${ext}`) && segment.length > ext.length + 1;
        });
      }
    }
    return false;
  });
}

function refConditions(rule: PolicyRule, req: EngineRequest): boolean {
  if (rule.locations.length > 0) {
    const nets = rule.locations.flatMap((id) => OBJECTS.locations.find((l) => l.id === id)?.networks ?? []);
    if (!req.sourceIp || !nets.some((n) => ipIn(req.sourceIp as string, n))) return false;
  }
  if (rule.ports !== '') {
    if (req.port == null) return false;
    const ok = rule.ports.split(',').some((p) => {
      const [a, b] = p.trim().split('-').map(Number);
      return (req.port as number) >= a && (req.port as number) <= (b ?? a);
    });
    if (!ok) return false;
  }
  if (rule.schedule) {
    const date = new Date(req.time as number);
    const minutes = date.getUTCHours() * 60 + date.getUTCMinutes();
    const [fh, fm] = rule.schedule.from.split(':').map(Number);
    const [th, tm] = rule.schedule.to.split(':').map(Number);
    const from = fh * 60 + fm;
    const to = th * 60 + tm;
    if (!rule.schedule.days.includes(date.getUTCDay())) return false;
    if (from < to ? !(minutes >= from && minutes < to) : !(minutes >= from || minutes < to)) return false;
  }
  return true;
}

function reference(input: EngineInput, req: EngineRequest) {
  const policies = [...input.policies].sort(
    (a, b) => a.precedence - b.precedence || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let host = req.host ? req.host.toLowerCase().replace(/\.$/, '') : null;
  let ip = req.ip ?? null;
  if (host !== null && parseIpv4(host) !== null) {
    ip = ip ?? host;
    host = null;
  }
  const s: State = { host, path: req.path ?? null, ip, req };
  const applies = (p: EnginePolicy) =>
    p.appliesTo === null ||
    (req.userId != null && p.appliesTo.users.includes(req.userId)) ||
    (req.deviceId != null && p.appliesTo.devices.includes(req.deviceId)) ||
    (req.groups ?? []).some((g) => p.appliesTo?.groups.includes(g));
  const first = (layer: Layer) => {
    for (const p of policies) {
      if (!p.enabled || !applies(p)) continue;
      for (const r of p.rules) {
        const layers = p.type === 'qos' || r.action === 'qos' ? ['qos'] : RULE_LAYERS[r.type];
        if (r.enabled && layers.includes(layer) && refMatches(r, layer, s) && refConditions(r, req))
          return { p, r };
      }
    }
    return null;
  };
  let last: { ruleId: string; layer: Layer } | null = null;
  let rewrite: string | null = null;
  let gateway: string | null = null;
  for (const layer of ['dns', 'network', 'http'] as const) {
    if (layer === 'http' && s.path === null) continue;
    const hit = first(layer);
    if (!hit) continue;
    if (hit.r.action === 'block')
      return {
        decision: 'block',
        ruleId: hit.r.id,
        layer,
        rewrite: null,
        gateway: null,
        qos: DEFAULT_SESSION_QOS,
      };
    last = { ruleId: hit.r.id, layer };
    if (hit.r.action === 'rewrite') {
      rewrite = hit.r.target;
      if (layer === 'dns' && parseIpv4(hit.r.target) !== null) s.ip = hit.r.target;
    }
    if (hit.r.action === 'route') gateway = hit.r.target;
  }
  const q = first('qos');
  return {
    decision: 'allow',
    ruleId: last?.ruleId ?? null,
    layer: last?.layer ?? null,
    rewrite,
    gateway,
    qos: q ? q.r.target || DEFAULT_SESSION_QOS : DEFAULT_SESSION_QOS,
  };
}

describe('decide / explain / reference agree', () => {
  it('explain gives the decision of decide, and its trace names the deciding rule', () => {
    fc.assert(
      fc.property(inputArb, fc.array(requestArb, { minLength: 1, maxLength: 8 }), (input, requests) => {
        const c = compile(input, { lookupCountry });
        for (const req of requests) {
          const d = decide(c, req);
          const e = explain(c, req);
          expect({
            decision: e.decision,
            rule: e.rule,
            layer: e.layer,
            rewrite: e.rewrite,
            gateway: e.gateway,
            qos: e.qos,
          }).toEqual(d);
          const matched = e.trace.filter((s) => s.outcome === 'matched');
          for (const layer of ['dns', 'network', 'http', 'qos']) {
            expect(matched.filter((s) => s.layer === layer).length).toBeLessThanOrEqual(1);
          }
          if (d.rule !== null)
            expect(matched.some((s) => s.layer === d.layer && s.rule?.ruleId === d.rule?.ruleId)).toBe(true);
          const rulesInTrace = new Set(
            e.trace.filter((s) => s.rule).map((s) => `${s.layer}:${s.rule?.ruleId}`),
          );
          const expectedSteps = c.rules.reduce((n, r) => n + r.layers.length, 0);
          expect(rulesInTrace.size).toBe(expectedSteps);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('decide equals the naive linear reference', () => {
    fc.assert(
      fc.property(inputArb, fc.array(requestArb, { minLength: 1, maxLength: 8 }), (input, requests) => {
        const c = compile(input, { lookupCountry });
        for (const req of requests) {
          const d = decide(c, req);
          expect({ ...d, ruleId: d.rule?.ruleId ?? null, rule: undefined }).toEqual({
            ...reference(input, req),
            rule: undefined,
          });
        }
      }),
      { numRuns: 600 },
    );
  });

  it('finds hits often enough to be meaningful', () => {
    // Guards the generators: if they drifted so that nothing ever matched, the agreement above would be vacuous.
    const outcomes = fc
      .sample(fc.tuple(inputArb, requestArb), { numRuns: 500, seed: 42 })
      .map(([input, req]) => decide(compile(input, { lookupCountry }), req));
    expect(outcomes.filter((d) => d.rule !== null).length).toBeGreaterThan(50);
    expect(outcomes.filter((d) => d.decision === 'block').length).toBeGreaterThan(25);
    expect(outcomes.filter((d) => d.qos !== DEFAULT_SESSION_QOS).length).toBeGreaterThan(10);
    expect(outcomes.filter((d) => d.rewrite !== null).length).toBeGreaterThan(5);
    expect(outcomes.filter((d) => d.gateway !== null).length).toBeGreaterThan(2);
  });

  it('lint is sound: a rule reported as covered never decides its layer', () => {
    let checked = 0;
    fc.assert(
      fc.property(layerInputArb, fc.array(requestArb, { minLength: 1, maxLength: 30 }), (input, requests) => {
        const covered = lint(input).filter(
          (f) => f.kind === 'shadowed' || f.kind === 'conflict' || f.kind === 'redundant',
        );
        if (covered.length === 0) return;
        const c = compile(input, { lookupCountry });
        for (const req of requests) {
          const matched = explain(c, req).trace.filter((s) => s.outcome === 'matched');
          for (const f of covered) {
            checked++;
            expect(matched.some((s) => s.layer === f.values.layer && s.rule?.ruleId === f.rule?.ruleId)).toBe(
              false,
            );
          }
        }
      }),
      { numRuns: 500 },
    );
    expect(checked).toBeGreaterThan(300);
  });
});
