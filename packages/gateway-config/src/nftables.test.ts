import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, nftablesRuleset } from './index';
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
    expect(nftDecide(text, pkt('192.0.2.1')).verdict).toBe('accept');
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
    expect(text).toContain('192.0.2.0/24, 198.51.100.0/24, 203.0.113.9');
    expect(text).toContain('meta l4proto { tcp, udp } th dport { 80, 443, 8000-8090 }');
    expect(text.match(/^\t\t[^#\t].*comment/gm)).toHaveLength(2);
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
    expect(text).toMatch(/ip saddr @p\d_src4 ip daddr @\w+ counter reject/);
    expect(text).not.toMatch(/ip6 saddr @p\d_src6 ip daddr/);
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
    expect(text).toContain('meta day "Monday" meta hour { "00:00"-"05:59:59", "22:00"-"23:59:59" }');
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
    expect(nftablesRuleset(input).text).not.toMatch(/comment "/);
  });

  it('only decides what enters through the given interfaces; refuses bad names', () => {
    const input = makeInput([makePolicy('p', [makeRule('ROUTE', '*', 'block')])]);
    const { text } = nftablesRuleset(input, { interfaces: ['wg0', 'wg0'] });
    expect(text).toContain('iifname != { "wg0" } accept');
    expect(nftDecide(text, pkt('192.0.2.1', { iif: 'eth0' })).verdict).toBe('accept');
    expect(nftDecide(text, pkt('192.0.2.1', { iif: 'wg0' })).verdict).toBe('reject');
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
    expect(text).not.toContain('drop');
    expect(text.match(/"/g)?.length).toBe(2);
    expect(skipped.map((s) => s.item)).toEqual(['flush ruleset', '"', 'drop', '1.2.3.4/33', '01.2.3.4']);
  });

  it('shares a set between rules with the same addresses and is deterministic', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('ROUTE', '192.0.2.0/24', 'allow', { id: 'a', ports: '22' }),
        makeRule('ROUTE', '192.0.2.0/25;192.0.2.128/25', 'block', { id: 'b' }),
      ]),
    ]);
    const { text } = nftablesRuleset(input);
    expect(text.match(/\tset /g)).toHaveLength(1);
    expect(nftablesRuleset(structuredClone(input)).text).toBe(text);
  });
});
