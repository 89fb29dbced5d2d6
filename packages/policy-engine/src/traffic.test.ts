import { ConnectionEventData, DecisionEventData, GwEvent } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import {
  compile,
  diurnalShape,
  type EngineObjects,
  type RosterEntry,
  type SyntheticDecision,
  synthesiseConnections,
  synthesiseDecisions,
  TrafficGenerator,
} from './index';
import { makeInput, makePolicy, makeRule } from './testing';

const OBJECTS: EngineObjects = {
  categories: [
    {
      id: 'gambling',
      name: 'Gambling',
      domains: ['bet365.com', 'pokerstars.com', 'betfair.com', 'bwin.com'],
    },
    {
      id: 'social-networking',
      name: 'Social networking',
      domains: ['facebook.com', 'linkedin.com', 'x.com'],
    },
    {
      id: 'streaming-media',
      name: 'Streaming media',
      domains: ['youtube.com', 'netflix.com', 'spotify.com'],
    },
    { id: 'collaboration', name: 'Collaboration', domains: ['slack.com', 'zoom.us', 'notion.so'] },
  ],
  apps: [
    { appid: 'slack', appname: 'Slack', domains: ['slack.com', 'slack-edge.com'], ips: [] },
    { appid: 'google-public-dns', appname: 'Google Public DNS', domains: [], ips: ['8.8.8.8', '8.8.4.4'] },
  ],
  feeds: [
    {
      id: 'test-indicators',
      name: 'Test indicators',
      domains: ['malware.testcategory.com'],
      ips: ['203.0.113.0/24'],
    },
  ],
  locations: [],
};

const uuid = (prefix: string, i: number) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
/** 30 users in two groups, with one device each and five with a second one. */
const ROSTER: RosterEntry[] = Array.from({ length: 35 }, (_, i) => ({
  deviceId: uuid('d0000000', i),
  userId: uuid('a0000000', i % 30),
  groups: [i % 2 === 0 ? 'group-even' : 'group-odd'],
}));

const MONDAY = Date.parse('2025-06-02T00:00:00.000Z');
const HOUR = 3_600_000;

const openPolicy = compile(makeInput([], OBJECTS));

function take(options: Partial<Parameters<typeof synthesiseDecisions>[0]> = {}): SyntheticDecision[] {
  return [
    ...synthesiseDecisions({
      engine: openPolicy,
      roster: ROSTER,
      seed: 'test',
      start: MONDAY + 9 * HOUR,
      ratePerSecond: 20,
      count: 5_000,
      ...options,
    }),
  ];
}

describe('synthesiseDecisions', () => {
  it('gives the same events for the same seed, others for another', () => {
    const a = take();
    expect(take()).toEqual(a);
    const b = take({ seed: 'other' });
    expect(b).not.toEqual(a);
    expect(b.map((e) => e.data.destination)).not.toEqual(a.map((e) => e.data.destination));
  });

  it('makes valid, uniquely named gateway events', () => {
    const events = take({ count: 20_000 });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    for (const event of events) {
      expect(GwEvent.safeParse(event).success, JSON.stringify(event)).toBe(true);
      const parsed = DecisionEventData.safeParse(event.data);
      expect(parsed.success, JSON.stringify(event.data)).toBe(true);
    }
    // The mix: DNS then HTTP for web names, raw flows, several categories and apps from the engine.
    const layers = new Set(events.map((e) => e.data.layer));
    expect(layers).toEqual(new Set(['dns', 'http', 'network']));
    const categories = new Set(events.map((e) => e.data.category).filter(Boolean));
    expect(categories).toContain('Collaboration');
    expect(categories).toContain('Streaming media');
    expect(events.some((e) => e.data.app === 'Slack')).toBe(true);
    // An address of Google Public DNS is named by the app catalogue's addresses.
    expect(
      events.some((e) => e.data.destination.startsWith('8.8.') && e.data.app === 'Google Public DNS'),
    ).toBe(true);
    expect(new Set(events.map((e) => e.data.country).filter(Boolean)).size).toBeGreaterThan(4);
    const flows = events.filter((e) => e.data.layer === 'network');
    expect(flows.length / events.length).toBeGreaterThan(0.02);
    expect(flows.length / events.length).toBeLessThan(0.15);
    for (const flow of flows) expect(flow.data.destination).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // Everybody is on the roster, and users differ.
    const users = new Set(events.map((e) => e.data.userId));
    expect(users.size).toBeGreaterThan(20);
    for (const u of users) expect(ROSTER.some((r) => r.userId === u)).toBe(true);
    // Every HTTP request follows the DNS query of its host.
    for (let i = 0; i < events.length; i++) {
      if (events[i].data.layer !== 'http') continue;
      expect(events[i - 1].data).toMatchObject({ layer: 'dns', destination: events[i].data.destination });
      expect(Date.parse(events[i].at)).toBeGreaterThanOrEqual(Date.parse(events[i - 1].at));
    }
  });

  it('decides with the engine: a blocked category is blocked by its rule, a feed names the threat', () => {
    const engine = compile(
      makeInput(
        [
          makePolicy(
            'threats',
            [
              makeRule('dmn', '', 'block', {
                id: 'ti-domains',
                name: 'Threat intel',
                feeds: ['test-indicators'],
              }),
              makeRule('ROUTE', '', 'block', { id: 'ti-ips', name: 'IP rule', feeds: ['test-indicators'] }),
            ],
            { precedence: 1 },
          ),
          makePolicy('web', [
            makeRule('dmn', '', 'block', {
              id: 'no-gambling',
              name: 'No gambling',
              categories: ['gambling'],
            }),
          ]),
          makePolicy('geo', [makeRule('GEO', 'RU, CN', 'block', { id: 'geo', name: 'Blocked countries' })], {
            precedence: 200,
          }),
        ],
        OBJECTS,
      ),
    );
    // In the evening, when the few who gamble do.
    const events = take({ engine, start: MONDAY + 19 * HOUR, count: 40_000, ratePerSecond: 50 });
    const gambling = events.filter((e) => e.data.category === 'Gambling');
    expect(gambling.length).toBeGreaterThan(10);
    for (const e of gambling) {
      expect(e.data).toMatchObject({
        layer: 'dns',
        decision: 'block',
        ruleId: 'no-gambling',
        ruleName: 'No gambling',
      });
    }
    // A blocked DNS query has no HTTP request after it.
    for (let i = 0; i + 1 < events.length; i++) {
      if (events[i].data.decision === 'block' && events[i].data.layer === 'dns') {
        expect(events[i + 1].data.layer).not.toBe('http');
      }
    }
    expect(events.filter((e) => e.data.ruleId === 'no-gambling')).toHaveLength(gambling.length);
    // Nothing else is blocked but by the rules above.
    for (const e of events.filter((x) => x.data.decision === 'block')) {
      expect(['no-gambling', 'ti-domains', 'ti-ips', 'geo']).toContain(e.data.ruleId);
    }
    const threats = events.filter((e) => e.data.threat === 'Test indicators');
    expect(
      threats.some((e) => e.data.ruleId === 'ti-ips' && e.data.destination.startsWith('203.0.113.')),
    ).toBe(true);
    for (const e of threats) expect(e.data.decision).toBe('block');
    const geo = events.filter((e) => e.data.ruleId === 'geo');
    expect(geo.length).toBeGreaterThan(0);
    for (const e of geo) expect(['RU', 'CN']).toContain(e.data.country);
    // Allowed requests of the blocked category's neighbours stay allowed.
    expect(events.some((e) => e.data.category === 'Social networking' && e.data.decision === 'allow')).toBe(
      true,
    );
  });

  it('decides per subject: a policy of one group blocks its members only', () => {
    const engine = compile(
      makeInput(
        [
          makePolicy(
            'odd',
            [makeRule('dmn', '', 'block', { id: 'no-social', categories: ['social-networking'] })],
            {
              appliesTo: { users: [], groups: ['group-odd'], devices: [] },
            },
          ),
        ],
        OBJECTS,
      ),
    );
    const social = take({ engine, count: 20_000 }).filter((e) => e.data.category === 'Social networking');
    const odd = new Set(ROSTER.filter((r) => r.groups[0] === 'group-odd').map((r) => r.deviceId));
    const blocked = social.filter((e) => e.data.decision === 'block');
    const allowed = social.filter((e) => e.data.decision === 'allow');
    expect(blocked.length).toBeGreaterThan(0);
    expect(allowed.length).toBeGreaterThan(0);
    for (const e of blocked) expect(odd.has(e.data.deviceId!)).toBe(true);
    for (const e of allowed) expect(odd.has(e.data.deviceId!)).toBe(false);
  });

  it('is anonymous with an empty roster', () => {
    const events = take({ roster: [], count: 2_000 });
    expect(events).toHaveLength(2_000);
    for (const e of events) expect(e.data).toMatchObject({ userId: null, deviceId: null });
  });

  it('follows the day: busier in weekday working hours than at night and at weekends', () => {
    const events = take({
      start: MONDAY,
      end: MONDAY + 7 * 24 * HOUR,
      count: undefined,
      ratePerSecond: 0.25,
    });
    const perHour = (filter: (d: Date) => boolean, hours: number) =>
      events.filter((e) => filter(new Date(e.at))).length / hours;
    const weekday = (d: Date) => d.getUTCDay() >= 1 && d.getUTCDay() <= 5;
    const work = perHour((d) => weekday(d) && d.getUTCHours() >= 9 && d.getUTCHours() < 17, 5 * 8);
    const night = perHour((d) => weekday(d) && d.getUTCHours() < 6, 5 * 6);
    const weekend = perHour((d) => !weekday(d), 2 * 24);
    expect(work).toBeGreaterThan(5 * night);
    expect(work).toBeGreaterThan(3 * weekend);
    // About the asked rate at the busiest hours (0.25/s = 900 an hour).
    expect(work).toBeGreaterThan(900 * 0.85);
    expect(work).toBeLessThan(900 * 1.1);
    expect(diurnalShape(MONDAY + 10 * HOUR)).toBe(1);
    expect(diurnalShape(MONDAY + 3 * HOUR)).toBeLessThan(0.1);
    expect(diurnalShape(MONDAY - 12 * HOUR)).toBeLessThan(0.25); // Sunday noon
  });

  it('respects the count, the span and the rate', () => {
    expect(take({ count: 1_234 })).toHaveLength(1_234);
    const start = MONDAY + 2 * HOUR; // 02:00: a flat rate ignores the night
    const flat = take({ start, end: start + HOUR, count: undefined, ratePerSecond: 5, diurnal: false });
    expect(flat.length).toBeGreaterThan(18_000 * 0.95);
    expect(flat.length).toBeLessThan(18_000 * 1.05);
    for (const e of flat) {
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(start);
      expect(Date.parse(e.at)).toBeLessThan(start + HOUR);
    }
    // A count over a span, no rate: about the count, spread over the whole span.
    const week = take({
      start: MONDAY,
      end: MONDAY + 7 * 24 * HOUR,
      count: 10_000,
      ratePerSecond: undefined,
    });
    expect(week.length).toBeGreaterThan(9_000);
    expect(week.length).toBeLessThanOrEqual(10_000);
    expect(Date.parse(week.at(-1)!.at)).toBeGreaterThan(MONDAY + 6.5 * 24 * HOUR);
  });

  it('keeps a long-running generator going across a policy change', () => {
    const generator = new TrafficGenerator({
      engine: openPolicy,
      roster: ROSTER,
      seed: 1,
      start: MONDAY + 10 * HOUR,
    });
    generator.setEngine(
      compile(makeInput([makePolicy('all', [makeRule('dmn', '*', 'block', { id: 'all' })])], OBJECTS)),
    );
    const events: SyntheticDecision[] = [];
    while (events.length < 200) {
      const before = generator.clock;
      events.push(...generator.next());
      expect(generator.clock).toBeGreaterThan(before);
    }
    for (const e of events.filter((x) => x.data.layer !== 'network')) {
      expect(e.data).toMatchObject({ layer: 'dns', decision: 'block', ruleId: 'all' });
    }
  });
});

describe('synthesiseConnections', () => {
  it('connects devices in the morning and disconnects them in the evening, mostly on weekdays', () => {
    const events = [
      ...synthesiseConnections({ roster: ROSTER, seed: 'test', start: MONDAY, end: MONDAY + 7 * 24 * HOUR }),
    ];
    expect(events).toEqual([
      ...synthesiseConnections({ roster: ROSTER, seed: 'test', start: MONDAY, end: MONDAY + 7 * 24 * HOUR }),
    ]);
    for (const e of events) {
      expect(GwEvent.safeParse(e).success).toBe(true);
      expect(ConnectionEventData.safeParse(e.data).success).toBe(true);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const times = events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const connected = events.filter((e) => e.data.action === 'connected');
    const disconnected = events.filter((e) => e.data.action === 'disconnected');
    expect(connected.length).toBe(disconnected.length);
    // 35 devices, five weekdays at 90 %: ~160 working days (a lunch break adds a second session).
    expect(connected.length).toBeGreaterThan(140);
    const weekend = connected.filter((e) => [0, 6].includes(new Date(e.at).getUTCDay()));
    expect(weekend.length).toBeLessThan(connected.length * 0.1);
    const mornings = connected.filter((e) => new Date(e.at).getUTCHours() < 11);
    expect(mornings.length).toBeGreaterThan(connected.length * 0.6);
    // Each disconnection closes the device's last connection: its duration and bytes.
    const open = new Map<string, number>();
    for (const e of events) {
      const device = e.data.deviceId!;
      if (e.data.action === 'connected') {
        expect(open.has(device)).toBe(false);
        open.set(device, Date.parse(e.at));
      } else {
        expect(open.has(device)).toBe(true);
        expect(Math.abs(Date.parse(e.at) - open.get(device)! - e.data.durationMs!)).toBeLessThanOrEqual(1);
        expect(e.data.bytesIn).toBeGreaterThan(0);
        expect(e.data.bytesOut).toBeGreaterThan(0);
        open.delete(device);
      }
    }
    expect(open.size).toBe(0);
  });

  it('has nobody to connect with an empty roster', () => {
    expect([...synthesiseConnections({ roster: [], start: MONDAY, end: MONDAY + 24 * HOUR })]).toEqual([]);
  });
});
