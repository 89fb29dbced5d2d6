import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, rpzZone } from './index';
import { parseRpz, rpzLookup } from './test-kit';

const zoneOf = (
  input: Parameters<typeof rpzZone>[0],
  options: Partial<Parameters<typeof rpzZone>[1]> = {},
) => {
  const z = rpzZone(input, { serial: 7, ...options });
  return { ...z, zone: parseRpz(z.text) };
};

describe('rpzZone', () => {
  it('writes SOA and NS, a block as NXDOMAIN for the name and its subdomains', () => {
    const { text, zone, skipped } = zoneOf(
      makeInput([makePolicy('p', [makeRule('dmn', 'Example.COM.', 'block', { id: 'r' })])]),
    );
    expect(text).toContain('$ORIGIN rpz.palisade.');
    expect(text).toContain('@ IN SOA localhost. hostmaster.localhost. ( 7 3600 600 86400 60 )');
    expect(text).toContain('@ IN NS localhost.');
    expect(text).toContain('; p/r dmn block\nexample.com IN CNAME .\n*.example.com IN CNAME .');
    expect(rpzLookup(zone, 'a.b.example.com')).toEqual({ kind: 'nxdomain' });
    expect(rpzLookup(zone, 'badexample.com')).toEqual({ kind: 'none' });
    expect(skipped).toEqual([]);
  });

  it("answers a block page policy's blocks with the block page's address, the others (threat intel) NXDOMAIN", () => {
    const input = makeInput([
      makePolicy('web', [makeRule('dmn', 'casino.example', 'block', { id: 'c' })], { precedence: 10 }),
      makePolicy('threat', [makeRule('dmn', 'malware.example', 'block', { id: 'm' })], {
        precedence: 5,
        blockPage: false,
      }),
      makePolicy('allow', [makeRule('dmn', 'ok.casino.example', 'allow', { id: 'ok' })], { precedence: 1 }),
    ]);
    const { text, zone } = zoneOf(input, { blockPageAddress: '192.0.2.1' });
    expect(text).toContain('casino.example IN A 192.0.2.1\n*.casino.example IN A 192.0.2.1');
    expect(rpzLookup(zone, 'www.casino.example')).toEqual({ kind: 'a', value: '192.0.2.1' });
    expect(rpzLookup(zone, 'ok.casino.example')).toEqual({ kind: 'passthru' });
    expect(rpzLookup(zone, 'x.malware.example')).toEqual({ kind: 'nxdomain' });
    // Without the option (an older gateway's zone), every block stays NXDOMAIN.
    expect(rpzLookup(zoneOf(input).zone, 'casino.example')).toEqual({ kind: 'nxdomain' });
    for (const blockPageAddress of ['10.0.0', '256.1.1.1', 'fd00::1', '10.0.0.1 ; x']) {
      expect(() => zoneOf(input, { blockPageAddress }), blockPageAddress).toThrow(GatewayConfigError);
    }
  });

  it('rewrites to an address (A) or a host (CNAME), and reports a target that is neither', () => {
    const { zone, skipped } = zoneOf(
      makeInput([
        makePolicy('p', [
          makeRule('DNS_REWRITE', 'intranet.corp', 'rewrite', { id: 'a', target: ' 10.0.0.5 ' }),
          makeRule('DNS_REWRITE', 'search.example', 'rewrite', { id: 'c', target: 'Safe.Search.Example.' }),
          makeRule('DNS_REWRITE', 'x.example', 'rewrite', { id: 'bad', target: 'not a host' }),
          makeRule('DNS_REWRITE', 'y.example', 'rewrite', { id: 'rpz', target: 'rpz-passthru' }),
        ]),
      ]),
    );
    expect(rpzLookup(zone, 'www.intranet.corp')).toEqual({ kind: 'a', value: '10.0.0.5' });
    expect(rpzLookup(zone, 'search.example')).toEqual({ kind: 'cname', value: 'safe.search.example' });
    // An invalid target answers normally (the engine allows with a rewrite nobody can apply).
    expect(rpzLookup(zone, 'x.example')).toEqual({ kind: 'none' });
    expect(skipped).toEqual([
      { policyId: 'p', ruleId: 'bad', item: 'not a host', reason: 'invalid-target' },
      { policyId: 'p', ruleId: 'rpz', item: 'rpz-passthru', reason: 'invalid-target' },
    ]);
  });

  it('first match wins across policies: an earlier allow is passthru, a later allow under a block is not needed', () => {
    const input = makeInput([
      makePolicy('late', [makeRule('dmn', 'example.com', 'block', { id: 'block' })], { precedence: 20 }),
      makePolicy('early', [makeRule('dmn', 'ok.example.com', 'allow', { id: 'allow' })], { precedence: 10 }),
      makePolicy('later', [makeRule('dmn', 'x.example.com', 'allow', { id: 'shadowed' })], {
        precedence: 30,
      }),
    ]);
    const { zone, text } = zoneOf(input);
    expect(rpzLookup(zone, 'a.ok.example.com')).toEqual({ kind: 'passthru' });
    expect(rpzLookup(zone, 'x.example.com')).toEqual({ kind: 'nxdomain' });
    expect(text).not.toContain('x.example.com');
  });

  it('leaves out a passthru nobody needs and records that only repeat their parent (dedupe)', () => {
    const input = makeInput([
      makePolicy('p', [
        makeRule('dmn', 'only-allowed.net', 'allow', { id: 'a' }),
        makeRule('dmn', 'example.com; example.com; a.example.com', 'block', { id: 'b' }),
        makeRule('dmn', 'b.example.com', 'block', { id: 'c' }),
      ]),
    ]);
    const { text } = zoneOf(input);
    expect(text.match(/example\.com IN/g)).toHaveLength(2);
    expect(text).not.toContain('only-allowed.net');
  });

  it('repeats an inherited decision on the names between a listed domain and a listed subdomain', () => {
    // `x.y.example.com` listed, `y.example.com` not: under DNS wildcard rules `y.example.com` exists (an empty
    // non-terminal), so `*.example.com` would no longer cover it or `z.y.example.com`.
    const input = makeInput([
      makePolicy('p', [
        makeRule('dmn', 'x.y.example.com', 'allow', { id: 'a' }),
        makeRule('dmn', 'example.com', 'block', { id: 'b' }),
      ]),
    ]);
    const { zone, text } = zoneOf(input);
    expect(text).toContain(
      '; p/b dmn block (inherited)\ny.example.com IN CNAME .\n*.y.example.com IN CNAME .',
    );
    for (const host of ['y.example.com', 'z.y.example.com', 'example.com']) {
      expect(rpzLookup(zone, host), host).toEqual({ kind: 'nxdomain' });
    }
    // Under the zone's own `*`, even the top-level label is such a name.
    const all = zoneOf(
      makeInput([
        makePolicy('p', [
          makeRule('dmn', 'x.example.com', 'allow', { id: 'a' }),
          makeRule('dmn', '*', 'block', { id: 'all' }),
        ]),
      ]),
    );
    expect(all.text).toContain('; p/all dmn block (inherited)\ncom IN CNAME .');
    for (const host of ['com', 'example.com', 'y.example.com', 'other.com', 'org']) {
      expect(rpzLookup(all.zone, host), host).toEqual({ kind: 'nxdomain' });
    }
    expect(rpzLookup(all.zone, 'a.x.example.com')).toEqual({ kind: 'passthru' });
    expect(rpzLookup(zone, 'a.x.y.example.com')).toEqual({ kind: 'passthru' });
  });

  it('covers categories, feeds and app domains, and `*` as the wildcard of the zone', () => {
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('dmn', 'fine.example', 'allow', { id: 'fine' }),
          makeRule('dmn', '', 'block', { id: 'objects', categories: ['cat'], feeds: ['feed'] }),
          makeRule('app', 'chat', 'block', { id: 'app' }),
          makeRule('dmn', '*', 'block', { id: 'all' }),
        ]),
      ],
      {
        categories: [{ id: 'cat', name: 'Gambling', domains: ['casino.example', '*.bet.example'] }],
        feeds: [{ id: 'feed', name: 'Malware', domains: ['evil.example'], ips: [] }],
        apps: [{ appid: 'chat', appname: 'Chat', domains: ['chat.example'], ips: ['192.0.2.0/24'] }],
      },
    );
    const { zone, text } = zoneOf(input);
    for (const host of ['casino.example', 'x.bet.example', 'evil.example', 'a.chat.example', 'other.org']) {
      expect(rpzLookup(zone, host), host).toEqual({ kind: 'nxdomain' });
    }
    expect(rpzLookup(zone, 'www.fine.example')).toEqual({ kind: 'passthru' });
    expect(text).toContain('* IN CNAME .');
    // Everything under the zone's `*` that blocks is not repeated.
    expect(text).not.toContain('casino.example IN');
  });

  it('leaves out disabled policies and rules, and QoS rules', () => {
    const input = makeInput([
      makePolicy('off', [makeRule('dmn', 'a.example', 'block')], { enabled: false }),
      makePolicy('p', [
        makeRule('dmn', 'b.example', 'block', { enabled: false }),
        makeRule('dmn', 'c.example', 'qos', { target: 'gold' }),
      ]),
      makePolicy('q', [makeRule('dmn', 'd.example', 'block')], { type: 'qos' }),
    ]);
    expect(zoneOf(input).zone.size).toBe(0);
  });

  it('reports rules for some subjects, unless the zone is for a subject', () => {
    const input = makeInput([
      makePolicy('group', [makeRule('dmn', 'a.example', 'block', { id: 'r' })], {
        appliesTo: { users: [], groups: ['g1'], devices: [] },
      }),
      makePolicy('all', [makeRule('dmn', 'b.example', 'block', { id: 's' })]),
    ]);
    const shared = zoneOf(input);
    expect(shared.skipped).toEqual([
      { policyId: 'group', ruleId: 'r', item: '', reason: 'subject-not-expressible' },
    ]);
    expect(rpzLookup(shared.zone, 'a.example').kind).toBe('none');
    const member = zoneOf(input, { subject: { userId: 'u', groups: ['g1'] } });
    expect(member.skipped).toEqual([]);
    expect(rpzLookup(member.zone, 'a.example').kind).toBe('nxdomain');
    const other = zoneOf(input, { subject: { userId: 'u', groups: ['g2'] } });
    expect(rpzLookup(other.zone, 'a.example').kind).toBe('none');
    expect(rpzLookup(other.zone, 'b.example').kind).toBe('nxdomain');
  });

  it('reports ports and locations, and schedules unless built for a time', () => {
    const schedule = { days: [1], from: '09:00', to: '17:00' };
    const input = makeInput(
      [
        makePolicy('p', [
          makeRule('dmn', 'a.example', 'block', { id: 'ports', ports: '443' }),
          makeRule('dmn', 'b.example', 'block', { id: 'loc', locations: ['office'] }),
          makeRule('dmn', 'c.example', 'block', { id: 'sched', schedule }),
        ]),
      ],
      { locations: [{ id: 'office', name: 'Office', networks: ['203.0.113.0/24'] }] },
    );
    const plain = zoneOf(input);
    expect(plain.zone.size).toBe(0);
    expect(plain.skipped.map((s) => `${s.ruleId}:${s.item}:${s.reason}`)).toEqual([
      'ports:ports:condition-not-expressible',
      'loc:locations:condition-not-expressible',
      'sched:schedule:condition-not-expressible',
    ]);
    const monday10 = Date.UTC(2024, 0, 1, 10, 0); // a Monday
    expect(rpzLookup(zoneOf(input, { at: monday10 }).zone, 'c.example').kind).toBe('nxdomain');
    expect(rpzLookup(zoneOf(input, { at: monday10 + 8 * 3_600_000 }).zone, 'c.example').kind).toBe('none');
  });

  it('keeps injection attempts out of the zone and reports them', () => {
    const LONG = `${'b.'.repeat(118)}example`;
    const input = makeInput([
      makePolicy('p"\n@ IN A 6.6.6.6', [
        makeRule('dmn', 'evil.com\n@ IN A 1.2.3.4;"; drop;a b.example;x..y;ok.example', 'block', {
          id: 'r\n$ORIGIN x.',
        }),
        makeRule('DNS_REWRITE', 'ok2.example', 'rewrite', { target: '1.2.3.4\n@ IN NS evil.' }),
        makeRule('dmn', `${'a'.repeat(64)}.example;${LONG}`, 'block', { id: 'long' }),
        makeRule('DNS_REWRITE', '_srv.example', 'rewrite', { id: 'underscore', target: '10.0.0.1' }),
      ]),
    ]);
    const { text, zone, skipped } = zoneOf(input);
    // Every line is a comment of safe characters, a directive of the generator, or a record of a checked name.
    const records = text.split('\n').filter((l) => l !== '' && !l.startsWith(';'));
    expect(records.slice(0, 4)).toEqual([
      '$ORIGIN rpz.palisade.',
      '$TTL 60',
      '@ IN SOA localhost. hostmaster.localhost. ( 7 3600 600 86400 60 )',
      '@ IN NS localhost.',
    ]);
    for (const line of records.slice(4)) expect(line).toMatch(/^(\*\.)?[a-z0-9_.-]+ IN CNAME \.$/);
    // `drop` is a name like any other (the engine matches the host `drop`).
    expect([...zone.keys()].sort()).toEqual([
      '*.drop',
      '*.evil.com',
      '*.ok.example',
      'drop',
      'evil.com',
      'ok.example',
    ]);
    expect(skipped.map((s) => s.item)).toEqual([
      '@ in a 1.2.3.4',
      '"',
      'a b.example',
      'x..y',
      '1.2.3.4\n@ IN NS evil.',
      `${'a'.repeat(64)}.example`,
      // Too long with `*.` and the origin (in the report: cut at 200 characters).
      `${LONG.slice(0, 200)}…`,
      '_srv.example',
    ]);
    // The comments naming policies and rules (after the two of the header) keep safe characters only.
    const comments = text
      .split('\n')
      .filter((l) => l.startsWith(';'))
      .slice(2);
    for (const c of comments) expect(c).toMatch(/^; [\w.:@/+=\- ]*$/);
  });

  it('is deterministic and refuses bad options', () => {
    const input = makeInput([
      makePolicy('p', [makeRule('dmn', 'b.example;a.example;c.a.example', 'block', { id: 'r' })]),
    ]);
    expect(rpzZone(input, { serial: 1 }).text).toBe(rpzZone(structuredClone(input), { serial: 1 }).text);
    expect(() => rpzZone(input, { serial: -1 })).toThrow(GatewayConfigError);
    expect(() => rpzZone(input, { serial: 2 ** 32 })).toThrow(/serial/);
    expect(() => rpzZone(input, { serial: 1, origin: 'rpz.palisade' })).toThrow(/origin/);
    expect(() => rpzZone(input, { serial: 1, origin: 'x\n.' })).toThrow(GatewayConfigError);
    expect(() => rpzZone(input, { serial: 1, ttl: 1.5 })).toThrow(/ttl/);
  });
});
