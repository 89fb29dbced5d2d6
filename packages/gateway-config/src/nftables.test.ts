import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, NFLOG_GROUP, nftablesRuleset } from './index';
import { parseInterval } from './net';
import { paint } from './nftables';
import { nftDecide, type Packet } from './test-kit';

const MONDAY_10 = Date.UTC(2024, 0, 1, 10, 0);
const pkt = (dst: string, extra: Partial<Packet> = {}): Packet => ({
  src: '10.64.0.2',
  dst,
  proto: 'tcp',
  port: 443,
  time: MONDAY_10,
  ...extra,
});

describe('nftablesRuleset', () => {
  it('replaces its own table atomically and accepts by default', () => {
    const { text, skipped } = nftablesRuleset(makeInput([]), { gatewayId: 'gw-1' });
    expect(text).toContain('table inet palisade {}\ndelete table inet palisade\ntable inet palisade {');
    expect(text).toContain('type filter hook forward priority filter; policy accept;');
    expect(text).toContain('ct state established,related accept');
    expect(text).toContain('# Palisade gateway gw-1');
    // The default accept is logged like a rule's decision, with the rule id `-`.
    expect(NFLOG_GROUP).toBe(7);
    expect(nftDecide(text, pkt('192.0.2.1'))).toMatchObject({
      verdict: 'accept',
      logs: [{ prefix: 'pal allow - ', group: 7 }],
    });
    expect(skipped).toEqual([]);
  });

  it('names its table as asked (a site’s local controls beside the policy), and refuses a bad name', () => {
    const { text } = nftablesRuleset(makeInput([]), { table: 'palisade_local', interfaces: ['lan0'] });
    expect(text).toContain(
      'table inet palisade_local {}\ndelete table inet palisade_local\ntable inet palisade_local {',
    );
    expect(text).not.toMatch(/table inet palisade \{/);
    expect(() => nftablesRuleset(makeInput([]), { table: 'Palisade; flush ruleset' })).toThrow(
      GatewayConfigError,
    );
  });

  it('ROUTE: addresses, blocks and feeds in one merged interval set, ports as ranges, in first-match order', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('ROUTE', '198.51.100.7', 'allow', { id: 'hole' }),
          makeRule('ROUTE', '198.51.100.0/25; 198.51.100.128/25; 203.0.113.9; 203.0.113.9', 'block', {
            id: 'r',
            ports: '80,443, 8000-8080,8080-8090',
            feeds: ['f'],
          }),
        ]),
      ],
      { feeds: [{ id: 'f', name: 'Bad IPs', domains: [], ips: ['192.0.2.0/24'] }] },
    );
    const { text } = nftablesRuleset(input, { blockVerdict: 'drop' });
    // One chain per rule; the addresses merged, but the hole first: `hole` owns 198.51.100.7.
    expect(text.match(/^\tchain r\d+ \{$/gm)).toHaveLength(2);
    // One destination: matched inline. The second rule has ports (another shape): a map of its own, after it.
    expect(text).toMatch(/^\t\tip daddr 198\.51\.100\.7 jump r0$/m);
    expect(text).toContain('192.0.2.0/24 : jump r1, 198.51.100.0/24 : jump r1, 203.0.113.9 : jump r1');
    // Lists are named sets, shared by content (an anonymous set per rule is slow to load).
    expect(text).toMatch(/^\t\tmeta l4proto @protocols0 th dport @ports0 ip daddr vmap @r1_to$/m);
    expect(text).toContain(
      '\tset ports0 {\n\t\ttype inet_service\n\t\tflags interval\n\t\telements = {\n\t\t\t80, 443, 8000-8090\n',
    );
    expect(text).toContain('\tset protocols0 {\n\t\ttype inet_proto\n\t\telements = {\n\t\t\ttcp, udp\n');
    expect(nftDecide(text, pkt('198.51.100.7')).verdict).toBe('accept');
    expect(nftDecide(text, pkt('198.51.100.8')).verdict).toBe('drop');
    expect(nftDecide(text, pkt('192.0.2.200', { port: 8085, proto: 'udp' })).verdict).toBe('drop');
    expect(nftDecide(text, pkt('192.0.2.200', { port: 22 })).verdict).toBe('accept');
    expect(nftDecide(text, pkt('192.0.2.200', { proto: 'icmp', port: undefined })).verdict).toBe('accept');
  });

  it('reject is the default block, route accepts with the mark of its gateway', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('ROUTE', '192.0.2.0/24', 'route', { id: 'via', target: 'gw-eu' }),
        makeRule('ROUTE', '198.51.100.0/24', 'route', { id: 'plain', target: 'gw-us' }),
        makeRule('ROUTE', '*', 'block', { id: 'rest' }),
      ]),
    ]);
    const { text } = nftablesRuleset(input, { routeMarks: { 'gw-eu': 0x10 } });
    expect(nftDecide(text, pkt('192.0.2.1'))).toMatchObject({ verdict: 'accept', mark: 0x10 });
    expect(nftDecide(text, pkt('198.51.100.1'))).toMatchObject({ verdict: 'accept', mark: null });
    expect(nftDecide(text, pkt('203.0.113.1')).verdict).toBe('reject');
    expect(nftDecide(text, pkt('2001:db8::1', { src: 'fd00::2' })).verdict).toBe('reject');
    expect(text).toContain('# p/via ROUTE route (route to gw-eu)');
    expect(() => nftablesRuleset(input, { routeMarks: { x: 0 } })).toThrow(GatewayConfigError);
  });

  it('GEO through the country ranges, app addresses, and reports what it cannot use', () => {
    const ranges: Record<string, string[]> = {
      RU: ['5.0.0.0/8', '2a00::/16'],
      CN: ['1.0.0.0-1.0.0.255', 'nonsense'],
    };
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('app', 'chat', 'block', { id: 'app' }),
          makeRule('GEO', 'ru; cn; XX; 123', 'block', { id: 'geo' }),
          makeRule('GEO', '*', 'allow', { id: 'default' }),
        ]),
      ],
      {
        apps: [
          { appid: 'chat', appname: 'Chat', domains: ['chat.example'], ips: ['192.0.2.0/24', 'fd00::/8'] },
        ],
      },
    );
    const { text, skipped } = nftablesRuleset(input, { lookupCountryRanges: (cc) => ranges[cc] ?? [] });
    expect(nftDecide(text, pkt('5.1.2.3')).verdict).toBe('reject');
    expect(nftDecide(text, pkt('1.0.0.9')).verdict).toBe('reject');
    expect(nftDecide(text, pkt('192.0.2.9')).verdict).toBe('reject');
    expect(nftDecide(text, pkt('8.8.8.8')).comment).toBe('p/default GEO allow');
    expect(skipped).toEqual([
      { policyId: 'p', ruleId: 'app', item: 'fd00::/8', reason: 'ipv6' },
      { policyId: 'p', ruleId: 'geo', item: 'RU', reason: 'ipv6' },
      { policyId: 'p', ruleId: 'geo', item: 'nonsense', reason: 'invalid-address' },
      { policyId: 'p', ruleId: 'geo', item: 'XX', reason: 'no-country-ranges' },
      { policyId: 'p', ruleId: 'geo', item: '123', reason: 'invalid-country' },
    ]);
    // Without ranges a GEO rule naming countries matches nothing here.
    const none = nftablesRuleset(input);
    expect(none.text).not.toContain('geo GEO');
    expect(none.skipped).toContainEqual({ policyId: 'p', ruleId: 'geo', item: '', reason: 'never-matches' });
  });

  it('subjects: source sets of their tunnel addresses (both families), none for everyone', () => {
    const input = makeInput([
      makePolicy(
        'staff',
        [
          makeRule('ROUTE', '*', 'block', { id: 'all' }),
          makeRule('ROUTE', '192.0.2.0/24', 'block', { id: 'v4' }),
        ],
        {
          appliesTo: { users: ['u1'], groups: ['g1'], devices: ['d1'] },
        },
      ),
      makePolicy('nobody-here', [makeRule('ROUTE', '*', 'block', { id: 'x' })], {
        appliesTo: { users: ['u9'], groups: [], devices: [] },
      }),
    ]);
    const { text, skipped } = nftablesRuleset(input, {
      subjectAddresses: {
        users: { u1: ['10.64.0.2', 'fd00::2'] },
        groups: { g1: ['10.64.1.0/24', 'junk'] },
        devices: { d1: ['10.64.0.3'] },
      },
    });
    expect(text).toContain('10.64.0.2/31, 10.64.1.0/24');
    expect(nftDecide(text, pkt('203.0.113.1', { src: '10.64.1.77' })).verdict).toBe('reject');
    expect(nftDecide(text, pkt('2001:db8::1', { src: 'fd00::2' })).verdict).toBe('reject');
    expect(nftDecide(text, pkt('203.0.113.1', { src: '10.64.9.9' })).verdict).toBe('accept');
    // An IPv4 destination set: the IPv6 sources are not needed on that rule.
    expect(text).toMatch(/^\t\tip saddr @p\d_src4 ip daddr 192\.0\.2\.0\/24 jump r\d+$/m);
    expect(text).not.toMatch(/ip6 saddr @p\d_src6 ip daddr/);
    // The rule for any destination: both families, through the rule's own chain.
    expect(text).toMatch(/^\t\tip6 saddr @p\d_src6 jump r\d+$/m);
    // Same precedence: policies in id order.
    expect(skipped).toEqual([
      { policyId: 'nobody-here', ruleId: 'x', item: '', reason: 'no-subject-addresses' },
      { policyId: 'staff', ruleId: '', item: 'junk', reason: 'invalid-address' },
    ]);
  });

  it('locations and schedules: meta day and meta hour in UTC, a window across midnight split in two', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('ROUTE', '*', 'block', {
            id: 'night',
            schedule: { days: [1], from: '22:00', to: '06:00' },
            locations: ['office'],
          }),
          makeRule('ROUTE', '*', 'block', {
            id: 'never',
            schedule: { days: [1], from: '10:00', to: '10:00' },
          }),
          makeRule('ROUTE', '*', 'block', { id: 'nowhere', locations: ['missing'] }),
          makeRule('ROUTE', '*', 'block', { id: 'noport', ports: 'x' }),
        ]),
      ],
      { locations: [{ id: 'office', name: 'Office', networks: ['10.64.0.0/24'] }] },
    );
    const { text, skipped } = nftablesRuleset(input);
    expect(text).toContain('meta day "Monday" meta hour @hours0');
    expect(text).toContain(
      '\tset hours0 {\n\t\ttypeof meta hour\n\t\tflags interval\n\t\telements = {\n\t\t\t"00:00"-"05:59:59", "22:00"-"23:59:59"\n',
    );
    const at = (h: number, m = 0) => Date.UTC(2024, 0, 1, h, m);
    expect(nftDecide(text, pkt('192.0.2.1', { time: at(23, 59) })).verdict).toBe('reject');
    expect(nftDecide(text, pkt('192.0.2.1', { time: at(5, 59) })).verdict).toBe('reject');
    expect(nftDecide(text, pkt('192.0.2.1', { time: at(6, 0) })).verdict).toBe('accept');
    expect(nftDecide(text, pkt('192.0.2.1', { time: at(23) + 86_400_000 })).verdict).toBe('accept');
    expect(nftDecide(text, pkt('192.0.2.1', { time: at(23), src: '10.64.1.1' })).verdict).toBe('accept');
    expect(skipped.map((s) => `${s.ruleId}:${s.item}:${s.reason}`)).toEqual([
      'never:schedule:never-matches',
      'nowhere:locations:never-matches',
      'noport:ports:never-matches',
    ]);
  });

  it('leaves out disabled policies and rules, DNS/HTTP and QoS rules', () => {
    const input = makeInput([
      makePolicy('off', [makeRule('ROUTE', '*', 'block')], { enabled: false }),
      makePolicy('p', [
        makeRule('ROUTE', '*', 'block', { enabled: false }),
        makeRule('ROUTE', '*', 'qos', { target: 'gold' }),
        makeRule('dmn', 'a.example', 'block'),
        makeRule('url', 'a.example/x', 'block'),
      ]),
      makePolicy('q', [makeRule('ROUTE', '*', 'block')], { type: 'qos' }),
    ]);
    const { text } = nftablesRuleset(input);
    expect(text).not.toMatch(/chain r\d/);
    expect(nftDecide(text, pkt('192.0.2.1')).verdict).toBe('accept');
  });

  it('only decides what enters through the given interfaces; refuses bad names', () => {
    const input = makeInput([makePolicy('p', [makeRule('ROUTE', '*', 'block')])]);
    const { text } = nftablesRuleset(input, { interfaces: ['wg0', 'wg0'] });
    // In both base chains: web flows are decided in prerouting, the others in forward.
    expect(text.match(/iifname != \{ "wg0" \} accept/g)).toHaveLength(2);
    for (const port of [443, 22]) {
      expect(nftDecide(text, pkt('192.0.2.1', { iif: 'eth0', port }))).toMatchObject({
        verdict: 'accept',
        logs: [],
      });
      expect(nftDecide(text, pkt('192.0.2.1', { iif: 'wg0', port })).verdict).toBe('reject');
    }
    expect(() => nftablesRuleset(input, { interfaces: ['wg0"; flush ruleset'] })).toThrow(GatewayConfigError);
  });

  it('keeps injection attempts out: ids in comments are sanitised, items are parsed addresses only', () => {
    const input = makeInput([
      makePolicy('p"; flush ruleset; #', [
        makeRule('ROUTE', '1.2.3.4\nflush ruleset; "; drop; 1.2.3.4/33; 01.2.3.4', 'block', { id: 'r"\n}' }),
      ]),
    ]);
    const { text, skipped } = nftablesRuleset(input, { gatewayId: 'gw"\nflush ruleset' });
    expect(text).not.toMatch(/^flush/m);
    expect(text.replace('ct state invalid drop', '')).not.toContain('drop');
    // The rule's comment, its log prefix and the default's log prefix and comment.
    expect(text).toContain('log prefix "pal block r___ " group 7 reject');
    expect(text.match(/"/g)?.length).toBe(10);
    expect(skipped.map((s) => s.item)).toEqual(['flush ruleset', '"', 'drop', '1.2.3.4/33', '01.2.3.4']);
  });

  it('shares a set between rules with the same locations and is deterministic', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('ROUTE', '192.0.2.0/24', 'allow', { id: 'a', ports: '22', locations: ['office'] }),
          makeRule('ROUTE', '198.51.100.0/24', 'block', { id: 'b', locations: ['lab'] }),
        ]),
      ],
      {
        locations: [
          { id: 'office', name: 'Office', networks: ['10.64.0.0/24'] },
          { id: 'lab', name: 'Lab', networks: ['10.64.0.0/25', '10.64.0.128/25'] },
        ],
      },
    );
    const { text } = nftablesRuleset(input);
    expect(text.match(/\tset r\d+_from /g)).toHaveLength(1);
    expect(nftDecide(text, pkt('198.51.100.1', { src: '10.64.0.200' })).verdict).toBe('reject');
    expect(nftablesRuleset(structuredClone(input)).text).toBe(text);
  });

  it('first match inside a verdict map: overlapping destinations go to the earlier rule', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('ROUTE', '192.0.2.7', 'allow', { id: 'one' }),
        makeRule('ROUTE', '192.0.2.0/24', 'block', { id: 'net' }),
        makeRule('ROUTE', '192.0.2.0/25; 198.51.100.0/24', 'allow', { id: 'half' }),
        makeRule('ROUTE', '198.51.100.0/24', 'block', { id: 'ports', ports: '22' }),
        makeRule('ROUTE', '*', 'block', { id: 'rest', ports: '22' }),
      ]),
    ]);
    const { text } = nftablesRuleset(input);
    // The first three have one shape: one map; `ports` another shape (one destination, inline), `rest` any.
    expect(text.match(/^\tmap /gm)).toHaveLength(1);
    expect(text).toMatch(/^\t\tip daddr vmap @r0_to$/m);
    expect(text).toMatch(/^\t\tmeta l4proto @protocols0 th dport 22 ip daddr 198\.51\.100\.0\/24 jump r3$/m);
    expect(text).toMatch(/^\t\tmeta l4proto @protocols0 th dport 22 jump r4$/m);
    const decide = (dst: string, port = 443) => nftDecide(text, pkt(dst, { port }));
    expect(decide('192.0.2.7').logs).toEqual([{ prefix: 'pal allow one ', group: 7 }]);
    expect(decide('192.0.2.8')).toMatchObject({ verdict: 'reject', comment: 'p/net ROUTE block' });
    expect(decide('192.0.2.200').verdict).toBe('reject');
    expect(decide('198.51.100.1')).toMatchObject({ verdict: 'accept', comment: 'p/half ROUTE allow' });
    // 198.51.100.0/24 on port 22: `half` came first.
    expect(decide('198.51.100.1', 22).verdict).toBe('accept');
    expect(decide('203.0.113.1', 22).logs).toEqual([{ prefix: 'pal block rest ', group: 7 }]);
    expect(decide('203.0.113.1', 23).logs).toEqual([{ prefix: 'pal allow - ', group: 7 }]);
  });

  it('moves a rule back to the group of its shape only past rules it cannot meet', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('ROUTE', '10.0.0.1', 'block', { id: 'a1' }),
        makeRule('ROUTE', '10.0.0.2', 'allow', { id: 'web', ports: '443' }),
        makeRule('ROUTE', '10.0.0.3', 'allow', { id: 'a2' }),
        makeRule('ROUTE', '10.0.0.0/24', 'block', { id: 'a3' }),
        makeRule('ROUTE', '*', 'block', { id: 'ssh', ports: '22' }),
        makeRule('ROUTE', '10.0.1.0/24', 'allow', { id: 'a4' }),
      ]),
    ]);
    const { text } = nftablesRuleset(input);
    // a2 joins a1 (web's address is another); a3 meets web's address: after it; a4 cannot pass `ssh` (any address).
    expect(text).toContain('10.0.0.1 : jump r0, 10.0.0.3 : jump r2');
    const decide = text.slice(text.indexOf('chain decide {'), text.indexOf('chain prerouting {'));
    const lookups = decide.split('\n').filter((l) => /^\t\t[^#]/.test(l));
    expect(lookups).toEqual([
      '\t\tct state invalid drop',
      '\t\tip daddr vmap @r0_to',
      '\t\tmeta l4proto @protocols0 th dport 443 ip daddr 10.0.0.2 jump r1',
      '\t\tip daddr 10.0.0.0/24 jump r3',
      '\t\tmeta l4proto @protocols0 th dport 22 jump r4',
      '\t\tip daddr 10.0.1.0/24 jump r5',
      '\t\tlog prefix "pal allow - " group 7 accept comment "default: accept"',
    ]);
    const who = (dst: string, port: number) => nftDecide(text, pkt(dst, { port })).logs[0].prefix;
    expect(who('10.0.0.2', 443)).toBe('pal allow web ');
    expect(who('10.0.0.2', 22)).toBe('pal block a3 ');
    expect(who('10.0.0.3', 22)).toBe('pal allow a2 ');
    expect(who('10.0.1.9', 22)).toBe('pal block ssh ');
    expect(who('10.0.1.9', 443)).toBe('pal allow a4 ');
  });

  it('logs each decision once to NFLOG group 7 with the verdict and the rule id', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('ROUTE', '192.0.2.0/24', 'block', { id: 'deny-1' }),
        makeRule('ROUTE', '198.51.100.0/24', 'route', { id: 'via-eu', target: 'gw-eu' }),
        makeRule('ROUTE', '203.0.113.0/24', 'allow', { id: 'id with "quotes" and spaces' }),
      ]),
    ]);
    const { text } = nftablesRuleset(input, { routeMarks: { 'gw-eu': 3 } });
    const logsOf = (dst: string, proto = 'tcp', port = 443) =>
      nftDecide(text, pkt(dst, { proto, port })).logs.map((l) => `${l.group}:${l.prefix}`);
    for (const [proto, port] of [
      ['tcp', 443],
      ['tcp', 80],
      ['udp', 443],
      ['tcp', 22],
    ] as const) {
      expect(logsOf('192.0.2.1', proto, port)).toEqual(['7:pal block deny-1 ']);
      expect(logsOf('198.51.100.1', proto, port)).toEqual(['7:pal route via-eu ']);
      expect(logsOf('203.0.113.1', proto, port)).toEqual(['7:pal allow id_with__quotes__and_spaces ']);
      expect(logsOf('8.8.8.8', proto, port)).toEqual(['7:pal allow - ']);
    }
    // Every rule chain logs before its verdict; only new flows get there (established, related pass first).
    const ruleLines = text.split('\n').filter((l) => /^\t\tlog prefix/.test(l));
    expect(ruleLines).toHaveLength(4);
    const base = text.slice(text.indexOf('chain prerouting'));
    expect(base.match(/ct state established,related accept/g)).toHaveLength(2);
    expect(text).toContain('ct state invalid drop');
  });

  it('web flows are decided in prerouting before the squid redirect, every other flow in forward, once', () => {
    const input = makeInput([makePolicy('p', [makeRule('ROUTE', '192.0.2.0/24', 'block', { id: 'b' })])]);
    const { text } = nftablesRuleset(input, { interfaces: ['wg0'] });
    expect(text).toContain('type filter hook prerouting priority -150; policy accept;');
    const outcome = (extra: Partial<Packet>) => nftDecide(text, pkt('192.0.2.1', { iif: 'wg0', ...extra }));
    expect(outcome({ port: 443 })).toMatchObject({ verdict: 'reject', decidedIn: ['prerouting'] });
    expect(outcome({ port: 80, dst: '8.8.8.8' })).toMatchObject({
      verdict: 'accept',
      decidedIn: ['prerouting'],
    });
    expect(outcome({ port: 443, proto: 'udp' })).toMatchObject({ verdict: 'reject', decidedIn: ['forward'] });
    expect(outcome({ port: 22 })).toMatchObject({ verdict: 'reject', decidedIn: ['forward'] });
    expect(outcome({ port: 80, dst: '8.8.8.8' }).logs).toHaveLength(1);
    // To the gateway itself (its block-page listener, squid, DNS): not this table's business.
    expect(outcome({ port: 80, local: true })).toMatchObject({ verdict: 'accept', logs: [], decidedIn: [] });
  });

  it('paint: each address goes to the first rule holding it, pieces merged', () => {
    const iv = (...texts: string[]) => texts.map((t) => parseInterval(t)!);
    expect(paint([iv('10.0.0.5'), iv('10.0.0.0/24'), iv('10.0.0.0/16', '10.0.0.6')])).toEqual([
      { first: 0x0a000000, last: 0x0a000004, owner: 1 },
      { first: 0x0a000005, last: 0x0a000005, owner: 0 },
      { first: 0x0a000006, last: 0x0a0000ff, owner: 1 },
      { first: 0x0a000100, last: 0x0a00ffff, owner: 2 },
    ]);
    // Against the naive first match over random overlapping intervals of a small space.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const rules = Array.from({ length: 1 + random(8) }, () =>
        Array.from({ length: 1 + random(3) }, () => {
          const a = random(64);
          const b = a + random(16);
          return { family: 4 as const, first: BigInt(a), last: BigInt(b) };
        }),
      );
      const pieces = paint(rules);
      for (let x = 0; x < 90; x++) {
        const want = rules.findIndex((list) => list.some((i) => BigInt(x) >= i.first && BigInt(x) <= i.last));
        const got = pieces.find((p) => x >= p.first && x <= p.last)?.owner ?? -1;
        expect(got, `round ${round} address ${x}`).toBe(want);
      }
      for (let k = 1; k < pieces.length; k++) {
        expect(pieces[k].first).toBeGreaterThan(pieces[k - 1].last);
        const touching = pieces[k].first === pieces[k - 1].last + 1;
        expect(touching && pieces[k].owner === pieces[k - 1].owner).toBe(false);
      }
    }
  });

  it('10 000 rules of one policy: one verdict map, one chain per rule, first match kept', () => {
    const rules = Array.from({ length: 10_000 }, (_, i) =>
      makeRule(
        'ROUTE',
        i % 100 === 99 ? `10.${i >> 8}.0.0/16` : `10.${i >> 8}.${i & 255}.1`,
        i % 3 ? 'block' : 'allow',
        {
          id: `r${i}`,
        },
      ),
    );
    const { text } = nftablesRuleset(makeInput([makePolicy('p', rules)]));
    expect(text.match(/^\tmap /gm)).toHaveLength(1);
    expect(text.match(/^\tchain r\d+ \{$/gm)).toHaveLength(10_000);
    expect(text.match(/vmap/g)).toHaveLength(1);
    // 10.0.0.1 is rule 0's (allow); 10.0.99.1 rule 99's /16 came after 10.0.0.1 … 10.0.98.1.
    expect(nftDecide(text, pkt('10.0.0.1')).logs[0].prefix).toBe('pal allow r0 ');
    expect(nftDecide(text, pkt('10.0.98.1')).logs[0].prefix).toBe('pal block r98 ');
    expect(nftDecide(text, pkt('10.0.200.9')).logs[0].prefix).toBe('pal allow r99 ');
  });
});
