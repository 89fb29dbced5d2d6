/**
 * Agreement: for generated and handwritten policies, what each artefact's TEXT decides (read by the evaluators
 * of test-kit.ts the way the tools read it) equals `decide()` for what that layer sees:
 * - RPZ: a DNS request (a host, no address, port or path) from one subject at one time;
 * - nftables: a new connection (source tunnel address, destination address, protocol and port, time);
 * - squid: an HTTP request (source, host, path, port, time).
 * The engine is given only the rule types of the layer (what the other layers decide is their artefacts').
 */
import { type PolicyRule, RULE_TYPE_ACTIONS, type RuleType } from '@palisade/contracts';
import {
  compile,
  decide,
  type EngineDecision,
  type EngineInput,
  type EnginePolicy,
  type EngineRequest,
  normalizeHost,
} from '@palisade/policy-engine';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  audiencesText,
  nftablesRuleset,
  parseAudiences,
  rpzAudiences,
  rpzZone,
  squidAcl,
  subjectAddressesOf,
} from './index';
import { nftDecide, parseRpz, type RpzAnswer, rpzLookup, squidDecide } from './test-kit';

const OBJECTS: EngineInput['objects'] = {
  apps: [
    { appid: 'app1', appname: 'App One', domains: ['a.com'], ips: ['192.168.0.0/24'] },
    { appid: 'app2', appname: 'App Two', domains: ['*.c.net'], ips: ['8.8.8.8'] },
  ],
  categories: [{ id: 'cat1', name: 'Cat', domains: ['b.a.com', 'bet.org'] }],
  feeds: [{ id: 'f1', name: 'Feed', domains: ['c.net'], ips: ['10.1.0.0/16'] }],
  locations: [
    { id: 'loc1', name: 'Office', networks: ['100.64.0.0/31'] },
    { id: 'loc2', name: 'Lab', networks: ['100.64.0.3'] },
  ],
};

/** Country ranges and the look-up the engine is compiled with: the same table. */
const COUNTRIES: Record<string, string[]> = { US: ['10.0.0.0/8'], RU: ['8.0.0.0/8'], DE: ['1.0.0.0/8'] };
const lookupCountry = (ip: string) =>
  ip.startsWith('10.') ? 'US' : ip.startsWith('8.') ? 'RU' : ip.startsWith('1.') ? 'DE' : null;

/** Devices behind the gateway: who they are and their tunnel address. */
const DEVICES = [
  { deviceId: 'd1', userId: 'u1', groups: ['g1'], address: '100.64.0.1' },
  { deviceId: 'd2', userId: 'u2', groups: ['g1', 'g2'], address: '100.64.0.2' },
  { deviceId: 'd3', userId: 'u3', groups: [], address: '100.64.0.3' },
  { deviceId: 'd4', userId: 'u1', groups: ['g1'], address: 'fd00::4' },
];
const SUBJECTS = {
  users: group(DEVICES.map((d) => [d.userId, d.address])),
  groups: group(DEVICES.flatMap((d) => d.groups.map((g) => [g, d.address]))),
  devices: group(DEVICES.map((d) => [d.deviceId, d.address])),
};
const SUBJECTS_SORTED = {
  users: { u1: ['100.64.0.1', 'fd00::4'], u2: ['100.64.0.2'], u3: ['100.64.0.3'] },
  groups: { g1: ['100.64.0.1', '100.64.0.2', 'fd00::4'], g2: ['100.64.0.2'] },
  devices: { d1: ['100.64.0.1'], d2: ['100.64.0.2'], d3: ['100.64.0.3'], d4: ['fd00::4'] },
};
function group(pairs: string[][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of pairs) {
    out[k] ??= [];
    out[k].push(v);
  }
  return out;
}

const MATCHERS: Record<RuleType, string[]> = {
  dmn: ['a.com', 'b.a.com', '*.c.net', '*', 'A.COM.', 'x.b.a.com; c.net', 'bada.com', 'org', 'm.n.a.com'],
  SQUID_DMN: ['a.com', 'c.net', '*', '.b.a.com', 'x.b.a.com'],
  DNS_REWRITE: ['a.com', 'b.a.com', '*', 'x.b.a.com;bet.org'],
  app: ['app1', 'app2', 'app1,app2', 'missing'],
  ROUTE: ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.3', '192.168.0.0/24', '*', '0.0.0.0/0', '8.8.8.8;10.2.0.0/16'],
  GEO: ['US', 'ru', '*', 'US;RU', 'DE', 'FR'],
  url: ['a.com/x', 'b.a.com', 'c.net/Y', '*/x', 'https://a.com/', 'a.com/download?', '*.a.com/D'],
  SQUID_KEYWORD: ['casino', 'X/1', 'q=', 'zzz', 'a.'],
  SQUID_FILEEXT: ['exe', '.msi', 'tar.gz', 'EXE'],
};
const LAYER_TYPES = {
  dns: ['dmn', 'DNS_REWRITE', 'app'],
  network: ['ROUTE', 'GEO', 'app'],
  http: ['url', 'SQUID_DMN', 'SQUID_KEYWORD', 'SQUID_FILEEXT'],
} as const satisfies Record<string, readonly RuleType[]>;

const ruleArb = (types: readonly RuleType[], withConditions: boolean): fc.Arbitrary<PolicyRule> =>
  fc
    .record({
      type: fc.constantFrom(...types),
      pick: fc.nat(20),
      action: fc.nat(5),
      target: fc.constantFrom('', '10.1.2.3', '8.8.8.8', 'gw1', 'gw2', 'safe.example', 'q1'),
      ports: withConditions ? fc.constantFrom('', '', '', '443', '80, 8000-8080', '1-100') : fc.constant(''),
      categories: fc.constantFrom([], [], ['cat1'], ['nope']),
      feeds: fc.constantFrom([], [], ['f1']),
      locations: withConditions
        ? fc.constantFrom([], [], [], ['loc1'], ['loc1', 'loc2'], ['gone'])
        : fc.constant([]),
      schedule: withConditions
        ? fc.option(
            fc.record({
              days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
              from: fc.constantFrom('00:00', '09:00', '22:00'),
              to: fc.constantFrom('06:00', '17:00', '23:59'),
            }),
            { freq: 4 },
          )
        : fc.constant(null),
      enabled: fc.constantFrom(true, true, true, false),
    })
    .map((r) => {
      const matchers = MATCHERS[r.type];
      const actions = [...RULE_TYPE_ACTIONS[r.type]];
      return makeRule(r.type, matchers[r.pick % matchers.length], actions[r.action % actions.length], {
        target: r.target,
        ports: r.ports,
        categories: [...r.categories],
        feeds: [...r.feeds],
        locations: [...r.locations],
        schedule: r.schedule,
        enabled: r.enabled,
      });
    });

const inputArb = (types: readonly RuleType[], withConditions: boolean): fc.Arbitrary<EngineInput> =>
  fc
    .array(
      fc.record({
        type: fc.constantFrom<EnginePolicy['type']>('other', 'other', 'route', 'qos'),
        enabled: fc.constantFrom(true, true, true, false),
        precedence: fc.integer({ min: 0, max: 3 }),
        blockPage: fc.boolean(),
        rules: fc.array(ruleArb(types, withConditions), { minLength: 1, maxLength: 6 }),
        appliesTo: fc.option(
          fc.record({
            users: fc.subarray(['u1', 'u2', 'u9']),
            groups: fc.subarray(['g1', 'g2']),
            devices: fc.subarray(['d1', 'd4']),
          }),
          { freq: 3 },
        ),
      }),
      { minLength: 1, maxLength: 5 },
    )
    .map((ps) => ({
      objects: OBJECTS,
      policies: ps.map((p, i) => ({
        ...p,
        id: `p${(i * 7) % 5}-${i}`,
        name: `Policy ${i}`,
        rules: p.rules.map((r, j) => ({ ...r, id: `p${i}r${j}`, name: `Rule ${i}.${j}` })),
      })),
    }));

/** Monday 10:00, Monday 23:30, Saturday 03:00 (UTC), and the edges of the windows: 06:00, 16:59, 17:00, 23:59. */
const TIMES = [
  Date.UTC(2024, 0, 1, 10, 0),
  Date.UTC(2024, 0, 1, 23, 30),
  Date.UTC(2024, 0, 6, 3, 0),
  Date.UTC(2024, 0, 2, 6, 0),
  Date.UTC(2024, 0, 3, 16, 59),
  Date.UTC(2024, 0, 3, 17, 0),
  Date.UTC(2024, 0, 7, 23, 59),
];
const HOSTS = [
  'a.com',
  'b.a.com',
  'x.b.a.com',
  'y.a.com',
  'c.net',
  'd.c.net',
  'bada.com',
  'bet.org',
  'other.org',
];
const IPS = [
  '10.1.2.3',
  '10.2.0.1',
  '10.9.9.9',
  '192.168.0.5',
  '8.8.8.8',
  '8.8.4.4',
  '1.1.1.1',
  '172.16.0.1',
];
const PATHS = [
  '/',
  '/x',
  '/X/1',
  '/Y',
  '/D/a',
  '/download?casino=1',
  '/a/setup.EXE?x',
  '/b.tar.gz',
  '/f.msi#x',
  '/q=1',
];

const who = (d: (typeof DEVICES)[number]) => ({ userId: d.userId, groups: d.groups, deviceId: d.deviceId });
const RUNS = { numRuns: 150 };

/**
 * Found by the RPZ property (seed -1287442753): a name rewritten to an address an app rule blocks is blocked by
 * the network layer, not the DNS layer — the zone answers the rewrite and the firewall refuses the connection.
 */
const REWRITE_TO_A_BLOCKED_ADDRESS: [EngineInput, number] = [
  {
    objects: {
      apps: [
        { appid: 'app1', appname: 'App One', domains: ['a.com'], ips: ['192.168.0.0/24'] },
        { appid: 'app2', appname: 'App Two', domains: ['*.c.net'], ips: ['8.8.8.8'] },
      ],
      categories: [{ id: 'cat1', name: 'Cat', domains: ['b.a.com', 'bet.org'] }],
      feeds: [{ id: 'f1', name: 'Feed', domains: ['c.net'], ips: ['10.1.0.0/16'] }],
      locations: [
        { id: 'loc1', name: 'Office', networks: ['100.64.0.0/31'] },
        { id: 'loc2', name: 'Lab', networks: ['100.64.0.3'] },
      ],
    },
    policies: [
      {
        type: 'other',
        enabled: true,
        precedence: 0,
        rules: [
          {
            id: 'p0r0',
            name: 'Rule 0.0',
            type: 'app',
            url: 'app2',
            action: 'block',
            target: '',
            ports: '',
            categories: [],
            feeds: [],
            locations: [],
            schedule: null,
            enabled: true,
            issysgen: false,
          },
          {
            id: 'p0r1',
            name: 'Rule 0.1',
            type: 'DNS_REWRITE',
            url: 'a.com',
            action: 'rewrite',
            target: '8.8.8.8',
            ports: '',
            categories: [],
            feeds: [],
            locations: [],
            schedule: null,
            enabled: true,
            issysgen: false,
          },
        ],
        appliesTo: null,
        id: 'p0-0',
        name: 'Policy 0',
      },
    ],
  },
  1704103200000,
];

/** Where DNS blocks of policies with the block page point (the server's placeholder; no generated rewrite uses it). */
const PAGE = '192.0.2.1';
/** A zone's answer as a block: 'nxdomain', 'page' (the block page's address), or null (not a block). */
const blockAnswer = (answer: RpzAnswer) =>
  answer.kind === 'nxdomain' ? 'nxdomain' : answer.kind === 'a' && answer.value === PAGE ? 'page' : null;
/** How a DNS block of the engine answers: the block page where the deciding rule's policy shows it. */
const blockExpected = (input: EngineInput, engine: EngineDecision) =>
  input.policies.find((p) => p.id === engine.rule?.policyId)?.blockPage === false ? 'nxdomain' : 'page';

describe('the artefacts agree with decide()', () => {
  it("RPZ: NXDOMAIN or the block page iff the DNS layer blocks (by the policy's choice), A/CNAME iff it rewrites (shared zone and per-subject zones)", () => {
    fc.assert(
      fc.property(inputArb(LAYER_TYPES.dns, true), fc.constantFrom(...TIMES), (input, time) => {
        const compiled = compile(input);
        const viewers = [null, ...DEVICES];
        for (const d of viewers) {
          const zone = parseRpz(
            rpzZone(input, { serial: 1, at: time, blockPageAddress: PAGE, ...(d ? { subject: who(d) } : {}) })
              .text,
          );
          for (const host of HOSTS) {
            // A DNS query: a host, no address, port or path.
            const request: EngineRequest = { host, time, ...(d ? who(d) : {}) };
            const engine = decide(compiled, request);
            const answer = rpzLookup(zone, host);
            const label = `${d?.deviceId ?? 'everyone'} ${host}`;
            // The DNS layer's own blocks. A rewritten name whose new address the network layer blocks resolves
            // to that address here; the firewall refuses the connection (the nftables property below).
            const isDnsBlock = engine.decision === 'block' && engine.layer === 'dns';
            expect(blockAnswer(answer), label).toBe(isDnsBlock ? blockExpected(input, engine) : null);
            // A block decided later (network, HTTP) answers no rewrite: what the zone answers is not its business.
            if (engine.decision === 'block') continue;
            const target = engine.rewrite?.trim() ?? '';
            const expected =
              engine.rewrite === null
                ? 'none'
                : /^\d+\.\d+\.\d+\.\d+$/.test(target)
                  ? `a ${target}`
                  : normalizeHost(target) && /^[a-z0-9.-]+$/.test(normalizeHost(target)!)
                    ? `cname ${normalizeHost(target)}`
                    : 'none';
            const got =
              answer.kind === 'a' || answer.kind === 'cname' ? `${answer.kind} ${answer.value}` : 'none';
            expect(got, label).toBe(expected);
          }
        }
      }),
      { ...RUNS, examples: [REWRITE_TO_A_BLOCKED_ADDRESS] },
    );
  });

  it('RPZ audiences: the one zone each device meets answers as decide() does for that device', () => {
    // What the gateway's Unbound serves: the zone of the device's audience (tagged by its address), else the
    // zone for everyone. The IPv6 device asks like the others (DNS does not care about the address family).
    fc.assert(
      fc.property(inputArb(LAYER_TYPES.dns, true), fc.constantFrom(...TIMES), (input, time) => {
        const compiled = compile(input);
        const { audiences, skipped } = rpzAudiences(input, DEVICES, {
          serial: 1,
          at: time,
          blockPageAddress: PAGE,
        });
        // Through the text artefact the gateway reads.
        const served = parseAudiences(audiencesText(audiences));
        expect(served).toEqual(audiences);
        const everyone = parseRpz(rpzZone(input, { serial: 1, at: time, blockPageAddress: PAGE }).text);
        for (const d of DEVICES) {
          const mine = served.filter((a) => a.clients.includes(d.address));
          expect(mine.length, d.deviceId).toBeLessThanOrEqual(1);
          const zone = mine[0] ? parseRpz(mine[0].zone) : everyone;
          for (const host of HOSTS) {
            const engine = decide(compiled, { host, time, ...who(d) });
            const isDnsBlock = engine.decision === 'block' && engine.layer === 'dns';
            expect(blockAnswer(rpzLookup(zone, host)), `${d.deviceId} ${host}`).toBe(
              isDnsBlock ? blockExpected(input, engine) : null,
            );
          }
        }
        // A scoped rule is reported as not enforced only when no device it applies to exists.
        for (const s of skipped.filter((x) => x.reason === 'no-subject-addresses')) {
          const policy = input.policies.find((p) => p.id === s.policyId);
          const a = policy?.appliesTo;
          const reached = DEVICES.some(
            (d) =>
              a?.users.includes(d.userId) ||
              a?.devices.includes(d.deviceId) ||
              d.groups.some((g) => a?.groups.includes(g)),
          );
          expect(reached, s.policyId).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it("subject addresses: each user, group and device names exactly its devices' tunnel addresses", () => {
    expect(subjectAddressesOf(DEVICES)).toEqual(SUBJECTS_SORTED);
  });

  it('nftables: reject iff the network layer blocks, the route mark iff it routes', () => {
    fc.assert(
      fc.property(inputArb(LAYER_TYPES.network, true), fc.constantFrom(...TIMES), (input, time) => {
        const compiled = compile(input, { lookupCountry });
        const { text } = nftablesRuleset(input, {
          subjectAddresses: SUBJECTS,
          lookupCountryRanges: (cc) => COUNTRIES[cc] ?? [],
          routeMarks: { gw1: 1, gw2: 2 },
        });
        // An IPv6 client has no IPv4 destination: see the next test.
        for (const d of DEVICES.filter((x) => !x.address.includes(':'))) {
          for (const ip of IPS) {
            for (const [protocol, port] of [
              ['tcp', 443],
              ['udp', 8080],
              ['tcp', 22],
            ] as const) {
              const engine = decide(compiled, { ...who(d), ip, port, protocol, sourceIp: d.address, time });
              const nft = nftDecide(text, { src: d.address, dst: ip, proto: protocol, port, time });
              const label = `${d.deviceId} ${ip}:${port}`;
              expect(nft.verdict === 'reject', label).toBe(engine.decision === 'block');
              if (engine.decision === 'allow') {
                const mark = engine.gateway === 'gw1' ? 1 : engine.gateway === 'gw2' ? 2 : null;
                expect(nft.mark, label).toBe(engine.layer === 'network' ? mark : null);
              }
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('nftables for an IPv6 client: rules without a destination or location decide as in the engine', () => {
    fc.assert(
      fc.property(inputArb(['ROUTE', 'GEO'], true), fc.constantFrom(...TIMES), (input, time) => {
        // An IPv6 connection: the engine knows no IPv4 destination, so only rules without an address match
        // (locations fail: the engine reads IPv4 sources only; subjects still match by who the client is).
        const compiled = compile(input, { lookupCountry });
        const { text } = nftablesRuleset(input, {
          subjectAddresses: SUBJECTS,
          lookupCountryRanges: (cc) => COUNTRIES[cc] ?? [],
        });
        const d = DEVICES[3];
        for (const port of [443, 22]) {
          const engine = decide(compiled, { ...who(d), port, protocol: 'tcp', time });
          const nft = nftDecide(text, { src: d.address, dst: '2001:db8::1', proto: 'tcp', port, time });
          expect(nft.verdict === 'reject', `${port}`).toBe(engine.decision === 'block');
        }
      }),
      RUNS,
    );
  });

  it('squid: deny iff the HTTP layer blocks', () => {
    fc.assert(
      fc.property(inputArb(LAYER_TYPES.http, true), fc.constantFrom(...TIMES), (input, time) => {
        const compiled = compile(input);
        const { text } = squidAcl(input, { subjectAddresses: SUBJECTS });
        for (const d of DEVICES) {
          for (const host of [...HOSTS, '192.0.2.1']) {
            for (const path of PATHS) {
              for (const port of [80, 443]) {
                const engine = decide(compiled, { ...who(d), host, path, port, sourceIp: d.address, time });
                const squid = squidDecide(text, { src: d.address, host, path, port, time });
                expect(squid === 'deny', `${d.deviceId} ${host}:${port}${path}`).toBe(
                  engine.decision === 'block',
                );
              }
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a handwritten tenant: system policies, categories, feeds, apps, geo, everyone and a group', () => {
    const input = makeInput(
      [
        makePolicy(
          'system-threat-intel',
          [
            makeRule('dmn', '', 'block', { id: 'feed-domains', feeds: ['f1'] }),
            makeRule('ROUTE', '', 'block', { id: 'feed-ips', feeds: ['f1'] }),
          ],
          { precedence: -2_000_000, system: true },
        ),
        makePolicy(
          'staff',
          [
            makeRule('dmn', 'b.a.com', 'allow', { id: 'allow-b' }),
            makeRule('url', 'a.com/download', 'block', { id: 'no-downloads' }),
            makeRule('ROUTE', '192.168.0.0/24', 'route', { id: 'to-branch', target: 'gw1' }),
          ],
          { precedence: 10, appliesTo: { users: [], groups: ['g2'], devices: [] } },
        ),
        makePolicy(
          'all',
          [
            makeRule('dmn', 'a.com', 'block', { id: 'block-a' }),
            makeRule('app', 'app2', 'block', { id: 'block-app2' }),
            makeRule('SQUID_FILEEXT', 'exe', 'block', { id: 'no-exe' }),
            makeRule('DNS_REWRITE', 'bet.org', 'rewrite', { id: 'safe', target: '10.1.2.3' }),
          ],
          { precedence: 20 },
        ),
        makePolicy('system-geo', [makeRule('GEO', 'RU', 'block', { id: 'geo' })], {
          precedence: 1_500_000_000,
          system: true,
        }),
        makePolicy('system-default-geo', [makeRule('GEO', '*', 'allow', { id: 'default-geo' })], {
          precedence: 2_000_000_000,
          system: true,
        }),
      ],
      OBJECTS,
    );
    const time = TIMES[0];
    const compiled = compile(input, { lookupCountry });
    const d2 = DEVICES[1];
    const d1 = DEVICES[0];
    // DNS: d2 (group g2) may resolve b.a.com, d1 may not; everyone: c.net is a feed domain; bet.org rewritten.
    const zone2 = parseRpz(rpzZone(input, { serial: 1, subject: who(d2) }).text);
    const zone1 = parseRpz(rpzZone(input, { serial: 1, subject: who(d1) }).text);
    expect(rpzLookup(zone2, 'x.b.a.com').kind).toBe('passthru');
    expect(rpzLookup(zone1, 'x.b.a.com').kind).toBe('nxdomain');
    expect(rpzLookup(zone1, 'd.c.net').kind).toBe('nxdomain');
    expect(rpzLookup(zone1, 'www.bet.org')).toEqual({ kind: 'a', value: '10.1.2.3' });
    expect(decide(compiled, { ...who(d2), host: 'x.b.a.com', time }).decision).toBe('allow');
    expect(decide(compiled, { ...who(d1), host: 'x.b.a.com', time }).decision).toBe('block');
    // Network: the feed's addresses, app2's address, Russia; d2 routed to the branch.
    const { text: nft } = nftablesRuleset(input, {
      subjectAddresses: SUBJECTS,
      lookupCountryRanges: (cc) => COUNTRIES[cc] ?? [],
      routeMarks: { gw1: 7 },
    });
    for (const [d, ip, verdict, mark] of [
      [d1, '10.1.5.5', 'reject', null],
      [d1, '8.8.8.8', 'reject', null],
      [d1, '8.8.4.4', 'reject', null],
      [d1, '192.168.0.9', 'accept', null],
      [d2, '192.168.0.9', 'accept', 7],
      [d2, '1.1.1.1', 'accept', null],
    ] as const) {
      const engine = decide(compiled, {
        ...who(d),
        ip,
        port: 443,
        protocol: 'tcp',
        sourceIp: d.address,
        time,
      });
      expect(engine.decision === 'block').toBe(verdict === 'reject');
      expect(nftDecide(nft, { src: d.address, dst: ip, proto: 'tcp', port: 443, time })).toMatchObject({
        verdict,
        mark,
      });
    }
    // HTTP: only d2's group blocks downloads; nobody gets .exe.
    const { text: squid } = squidAcl(input, { subjectAddresses: SUBJECTS });
    expect(squidDecide(squid, { src: d2.address, host: 'a.com', path: '/download/x', port: 80, time })).toBe(
      'deny',
    );
    expect(squidDecide(squid, { src: d1.address, host: 'a.com', path: '/download/x', port: 80, time })).toBe(
      'allow',
    );
    expect(squidDecide(squid, { src: d1.address, host: 'any.org', path: '/setup.exe', port: 80, time })).toBe(
      'deny',
    );
  });
});
