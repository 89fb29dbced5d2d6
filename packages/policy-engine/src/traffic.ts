/**
 * Synthetic traffic (issue 12): plausible requests of a tenant's users and devices, decided by the real engine
 * ({@link explain}) and turned into the events a gateway posts to `POST /api/gw/events` (`{id, at, kind, data}`,
 * contracts/telemetry.ts). Pure and seedable: the same options give the same events, in the same order.
 *
 * - Destinations: the domains of the engine input's categories, apps and feeds (a bundle carries the shipped
 *   catalog), merged with a short built-in list of popular sites, so the categories and apps of the events are
 *   the engine's own; plus raw network flows (resolvers, NTP, SSH, mail, QUIC, internal servers, the feeds' and
 *   the apps' addresses) with a few destination countries.
 * - A web visit is a DNS query, then (unless DNS blocked it) an HTTP(S) request a few milliseconds later.
 * - Rhythm: {@link diurnalShape} (working hours UTC busiest, nights and weekends quiet); business sites in
 *   working hours, streaming, games and social media after them.
 * - Habits: each user (each anonymous profile when the roster is empty) gets, from the seed, an activity level,
 *   a working day (connected from about 07:00–10:00 to 16:00–19:00 UTC, rarely on weekends), a taste per segment
 *   (most never gamble) and favourite sites. Devices connected at the time carry most of the traffic.
 * - Connections ({@link synthesiseConnections}): the same working days as `connected` / `disconnected` events.
 */
import type { ConnectionEventData, DecisionEventData, Layer, RuleRef } from '@palisade/contracts';
import { DEFAULT_GEO_RULE_NAME } from '@palisade/contracts';
import type { CompiledPolicy } from './compile';
import { normalizeDomainItem } from './domain';
import { explain } from './explain';
import { formatIp, inNet, type Net, parseIp, parseNet } from './ip';
import type { EngineObjects, EngineRequest, Explanation } from './types';

// ─── Public types ───────────────────────────────────────────────────────────────────────────────────────────

/** Who is behind the tunnel: one device, its user (null: nobody's) and the user's group ids. */
export interface RosterEntry {
  deviceId: string;
  userId: string | null;
  groups: readonly string[];
  /** The device's tunnel address: the source of its requests (location conditions). */
  address?: string | null;
}

export interface SyntheticDecision {
  id: string;
  at: string;
  kind: 'decision';
  data: DecisionEventData;
}

export interface SyntheticConnection {
  id: string;
  at: string;
  kind: 'connection';
  data: ConnectionEventData;
}

type Instant = number | string | Date;

export interface TrafficGeneratorOptions {
  /** The compiled policy the requests are decided against (`compile(bundle.policy)`). */
  engine: CompiledPolicy;
  /** Who makes the requests; empty (the default): anonymous traffic, null user and device. */
  roster?: readonly RosterEntry[];
  /** The same seed gives the same events. */
  seed?: number | string;
  /** When the traffic starts (epoch ms, ISO text or Date). */
  start: Instant;
  /** Events per second at the busiest time (weekday working hours; all the time with `diurnal: false`). */
  ratePerSecond?: number;
  /** Follow {@link diurnalShape} (default); false: the same rate day and night. */
  diurnal?: boolean;
  /** Event ids are this prefix and a sequence number (default: from the seed and the start). */
  idPrefix?: string;
}

export interface TrafficOptions extends TrafficGeneratorOptions {
  /** Stop after this many events. */
  count?: number;
  /** Stop before this instant. With `count` and no `ratePerSecond`, the rate is set so `count` fills the span. */
  end?: Instant;
}

export interface TrafficConnectionOptions {
  roster: readonly RosterEntry[];
  seed?: number | string;
  start: Instant;
  end: Instant;
  idPrefix?: string;
}

// ─── Randomness ─────────────────────────────────────────────────────────────────────────────────────────────

/** A 32-bit hash of a text (FNV-1a with a final avalanche): seeds from names. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a small, fast seeded PRNG; numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  static of(...parts: (string | number)[]): Rng {
    return new Rng(hashSeed(parts.join('\u0000')));
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  between(from: number, to: number): number {
    return from + this.next() * (to - from);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  /** An exponential wait of mean 1/rate. */
  exp(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
  /** Log-normal around `median` (sigma of the log). */
  logNormal(median: number, sigma: number): number {
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }
  token(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
}

/** Index of the first cumulative weight above `x` (binary search). */
function pickIndex(cumulative: Float64Array, x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cumulate(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i];
    out[i] = sum;
  }
  return out;
}

const weightedPick = (cumulative: Float64Array, rng: Rng) =>
  pickIndex(cumulative, rng.next() * cumulative[cumulative.length - 1]);

// ─── Time ───────────────────────────────────────────────────────────────────────────────────────────────────

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Relative traffic per hour of a weekday (UTC), 1 at the busiest. */
const WEEKDAY_HOURS = [
  0.06, 0.05, 0.04, 0.04, 0.05, 0.08, 0.16, 0.38, 0.75, 1, 1, 1, 0.85, 0.95, 1, 1, 0.92, 0.68, 0.42, 0.32,
  0.27, 0.2, 0.13, 0.09,
];
/** Weekends carry this share of a weekday's traffic, with a flatter day. */
const WEEKEND_FACTOR = 0.22;

const weekdayOf = (time: number) => (((Math.floor(time / DAY) + 4) % 7) + 7) % 7; // 1970-01-01: Thursday
const isWeekend = (time: number) => {
  const d = weekdayOf(time);
  return d === 0 || d === 6;
};

/**
 * How busy the network is at `time` (epoch ms), 0–1: 1 in weekday working hours (09–17 UTC), about 0.05 at
 * night, a fifth of that on weekends; interpolated between the hours.
 */
export function diurnalShape(time: number): number {
  const hours = (((time % DAY) + DAY) % DAY) / HOUR;
  const h = Math.floor(hours);
  const f = hours - h;
  const value = WEEKDAY_HOURS[h] * (1 - f) + WEEKDAY_HOURS[(h + 1) % 24] * f;
  return isWeekend(time) ? WEEKEND_FACTOR * (0.5 * value + 0.5 * Math.sqrt(value)) : value;
}

/** The mean of {@link diurnalShape} over `[from, to)` (5-minute steps). */
export function meanShape(from: number, to: number): number {
  if (!(to > from)) return 0;
  const step = 300_000;
  let sum = 0;
  let n = 0;
  for (let t = from + step / 2; t < to; t += step, n++) sum += diurnalShape(t);
  return n === 0 ? diurnalShape(from) : sum / n;
}

function instant(value: Instant, name: string): number {
  const t = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (!Number.isFinite(t)) throw new RangeError(`${name}: not a time`);
  return t;
}

// ─── Destinations ───────────────────────────────────────────────────────────────────────────────────────────

export const TRAFFIC_SEGMENTS = [
  'business',
  'search',
  'social',
  'streaming',
  'news',
  'leisure',
  'games',
  'gambling',
  'adult',
  'security',
  'network',
] as const;
export type TrafficSegment = (typeof TRAFFIC_SEGMENTS)[number];

/**
 * Per segment: the share of visits for an average user, the bias in working hours (weekdays 08–18 UTC) and
 * outside them, and the median bytes of a page or transfer.
 */
const SEGMENTS: Record<TrafficSegment, { share: number; work: number; off: number; bytes: number }> = {
  business: { share: 0.4, work: 1.5, off: 0.35, bytes: 45_000 },
  search: { share: 0.1, work: 1.1, off: 1, bytes: 60_000 },
  social: { share: 0.11, work: 0.7, off: 1.6, bytes: 300_000 },
  streaming: { share: 0.08, work: 0.5, off: 2, bytes: 6_000_000 },
  news: { share: 0.07, work: 0.9, off: 1.1, bytes: 450_000 },
  leisure: { share: 0.07, work: 0.6, off: 1.6, bytes: 350_000 },
  games: { share: 0.025, work: 0.25, off: 2.2, bytes: 1_500_000 },
  gambling: { share: 0.012, work: 0.4, off: 1.8, bytes: 250_000 },
  adult: { share: 0.006, work: 0.25, off: 2, bytes: 4_000_000 },
  security: { share: 0.007, work: 1, off: 1, bytes: 6_000 },
  network: { share: 0.08, work: 1.2, off: 0.7, bytes: 20_000 },
};
const isWorkTime = (time: number) => {
  const h = (((time % DAY) + DAY) % DAY) / HOUR;
  return !isWeekend(time) && h >= 8 && h < 18;
};

/**
 * Popular sites by segment, with a relative popularity. Engine categories and apps come first (they classify);
 * these add weight to the big names and fill segments the input has no category for. Security names are
 * under the reserved `.test` TLD (RFC 6761) or the public categorisation test domains — never real ones.
 */
const BASE_SITES: Record<Exclude<TrafficSegment, 'network'>, string> = {
  business:
    'login.microsoftonline.com:14 outlook.office365.com:12 teams.microsoft.com:9 slack.com:8 ' +
    'docs.google.com:8 mail.google.com:8 zoom.us:6 github.com:6 atlassian.net:5 ' +
    'salesforce.com:4 notion.so:3 dropbox.com:3 sharepoint.com:5 chatgpt.com:4 ' +
    'stackoverflow.com:3 hubspot.com:2 workday.com:1.5 okta.com:2 zendesk.com:1.5 ' +
    'wikipedia.org:3',
  search: 'www.google.com:20 bing.com:4 duckduckgo.com:2 search.yahoo.com:1 ecosia.org:0.6',
  social:
    'linkedin.com:8 facebook.com:7 instagram.com:6 x.com:4 reddit.com:5 tiktok.com:4 ' +
    'whatsapp.com:4 pinterest.com:1.5',
  streaming:
    'youtube.com:14 googlevideo.com:8 netflix.com:5 spotify.com:6 twitch.tv:2 ' +
    'disneyplus.com:1.5 primevideo.com:1.5 soundcloud.com:1',
  news:
    'bbc.co.uk:6 nytimes.com:4 theguardian.com:4 reuters.com:3 cnn.com:3 ft.com:2 ' +
    'spiegel.de:1.5 lemonde.fr:1',
  leisure: 'amazon.com:8 ebay.com:3 booking.com:3 airbnb.com:2 etsy.com:1.5 ikea.com:1 tripadvisor.com:1',
  games: 'steampowered.com:4 epicgames.com:3 roblox.com:3 minecraft.net:2 battle.net:1.5 chess.com:2',
  gambling:
    'bet365.com:4 pokerstars.com:2 williamhill.com:2 betfair.com:2 draftkings.com:1.5 888casino.com:1',
  adult: 'pornhub.com:3 xvideos.com:3 xhamster.com:2 onlyfans.com:2 chaturbate.com:1',
  security:
    'malware.testcategory.com:2 phishing.testcategory.com:2 ' +
    'commandandcontrol.testcategory.com:1 cryptomining.testcategory.com:1 ' +
    'microsoft-account-verify.palisade.test:1 paypa1-secure-login.palisade.test:1 ' +
    'free-crypto-miner.palisade.test:1 cdn-update-flashplayer.palisade.test:1 ' +
    'x7kq2m9vd3tz.palisade.test:1 qz4w8hj1lp0n.palisade.test:1',
};

interface FlowSpec {
  /** A dotted quad; an `x` part is a random number 1–254. */
  ip: string;
  port: number | null;
  protocol: 'tcp' | 'udp' | 'icmp';
  country: string | null;
  weight: number;
  /** Median bytes of a flow. */
  bytes: number;
}

/** Raw network flows: addresses of well-known services (with their countries), internal servers, test nets. */
const BASE_FLOWS: FlowSpec[] = [
  { ip: '8.8.8.8', port: 53, protocol: 'udp', country: 'US', weight: 6, bytes: 180 },
  { ip: '8.8.4.4', port: 53, protocol: 'udp', country: 'US', weight: 2, bytes: 180 },
  { ip: '1.1.1.1', port: 853, protocol: 'tcp', country: 'AU', weight: 2, bytes: 900 },
  { ip: '9.9.9.9', port: 53, protocol: 'udp', country: 'US', weight: 1, bytes: 180 },
  { ip: '162.159.200.123', port: 123, protocol: 'udp', country: 'US', weight: 3, bytes: 96 },
  { ip: '17.253.x.x', port: 123, protocol: 'udp', country: 'US', weight: 2, bytes: 96 },
  { ip: '142.250.x.x', port: 443, protocol: 'udp', country: 'US', weight: 8, bytes: 250_000 },
  { ip: '13.107.x.x', port: 443, protocol: 'tcp', country: 'US', weight: 6, bytes: 60_000 },
  { ip: '52.16.x.x', port: 443, protocol: 'tcp', country: 'IE', weight: 4, bytes: 40_000 },
  { ip: '40.97.x.x', port: 587, protocol: 'tcp', country: 'US', weight: 1.5, bytes: 30_000 },
  { ip: '40.97.x.x', port: 993, protocol: 'tcp', country: 'US', weight: 2, bytes: 20_000 },
  { ip: '74.125.250.x', port: 3478, protocol: 'udp', country: 'US', weight: 2, bytes: 1_500_000 },
  { ip: '3.120.x.x', port: 22, protocol: 'tcp', country: 'DE', weight: 2, bytes: 120_000 },
  { ip: '18.130.x.x', port: 22, protocol: 'tcp', country: 'GB', weight: 1.5, bytes: 120_000 },
  { ip: '95.216.x.x', port: 22, protocol: 'tcp', country: 'FI', weight: 1, bytes: 80_000 },
  { ip: '51.15.x.x', port: 443, protocol: 'tcp', country: 'FR', weight: 1, bytes: 30_000 },
  { ip: '185.199.108.153', port: 443, protocol: 'tcp', country: 'NL', weight: 1, bytes: 40_000 },
  { ip: '77.88.55.x', port: 443, protocol: 'tcp', country: 'RU', weight: 0.4, bytes: 20_000 },
  { ip: '110.242.68.x', port: 443, protocol: 'tcp', country: 'CN', weight: 0.3, bytes: 20_000 },
  { ip: '200.147.x.x', port: 443, protocol: 'tcp', country: 'BR', weight: 0.3, bytes: 20_000 },
  { ip: '10.10.0.x', port: 445, protocol: 'tcp', country: null, weight: 4, bytes: 400_000 },
  { ip: '10.10.0.x', port: 3389, protocol: 'tcp', country: null, weight: 1.5, bytes: 2_000_000 },
  { ip: '10.20.0.x', port: 22, protocol: 'tcp', country: null, weight: 2, bytes: 60_000 },
  { ip: '10.20.0.x', port: 5432, protocol: 'tcp', country: null, weight: 1.5, bytes: 90_000 },
  { ip: '10.10.0.1', port: null, protocol: 'icmp', country: null, weight: 0.5, bytes: 84 },
];
/** Security flows: the RFC 5737 documentation nets (the shipped test indicators), on ports malware likes. */
const SECURITY_FLOWS: FlowSpec[] = [
  { ip: '203.0.113.x', port: 4444, protocol: 'tcp', country: null, weight: 1, bytes: 3_000 },
  { ip: '198.51.100.x', port: 8443, protocol: 'tcp', country: null, weight: 1, bytes: 5_000 },
  { ip: '192.0.2.x', port: 6667, protocol: 'tcp', country: null, weight: 0.5, bytes: 2_000 },
];

/** Classifies a category (id or name) into a segment; business by default. */
const SEGMENT_PATTERNS: [RegExp, TrafficSegment][] = [
  [
    /malware|phish|command.?and.?control|\bc2\b|botnet|crypto.?min|spam|threat|newly|ransom|suspicious/i,
    'security',
  ],
  [/gambl|betting|casino|lotter/i, 'gambling'],
  [/adult|porn|nudity|mature|sexual/i, 'adult'],
  [
    /conferenc|collab|productiv|developer|webmail|file|cloud|crm|identity|finance|bank|education|government/i,
    'business',
  ],
  [/social|dating|messag/i, 'social'],
  [/stream|video|music|podcast|entertain/i, 'streaming'],
  [/news|magazine|media/i, 'news'],
  [/game|gaming/i, 'games'],
  [/search/i, 'search'],
  [/shop|travel|sport|food|leisure|auto|real.?estate|lifestyle|hobb/i, 'leisure'],
];
function segmentOf(text: string): TrafficSegment | null {
  for (const [pattern, segment] of SEGMENT_PATTERNS) if (pattern.test(text)) return segment;
  return null;
}

const TLD_COUNTRY = new Map(
  (
    'uk:GB de:DE fr:FR nl:NL ru:RU cn:CN jp:JP br:BR au:AU ca:CA it:IT es:ES ' +
    'se:SE ch:CH pl:PL in:IN ie:IE at:AT dk:DK no:NO fi:FI kr:KR nz:NZ'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);
/** Where sites are hosted when their name says nothing (weights). */
const HOSTING: [string, number][] = [
  ['US', 70],
  ['IE', 9],
  ['NL', 6],
  ['DE', 6],
  ['GB', 4],
  ['SG', 2],
  ['JP', 2],
  ['FR', 1],
];
const HOSTING_CUMULATIVE = cumulate(HOSTING.map(([, w]) => w));
const GAMBLING_HOSTING = ['MT', 'GI', 'GB', 'CY'];
const SHADY_HOSTING = ['RU', 'CN', 'NL', 'BG', 'MD', 'VN', 'BR', 'UA'];

/** The country a site is hosted in: stable per domain (its country-code TLD, else a weighted draw). */
function countryOfDomain(domain: string, segment: TrafficSegment): string {
  const h = hashSeed(domain);
  if (segment === 'security') return SHADY_HOSTING[h % SHADY_HOSTING.length];
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  const byTld = TLD_COUNTRY.get(tld);
  if (byTld) return byTld;
  if (segment === 'gambling') return GAMBLING_HOSTING[h % GAMBLING_HOSTING.length];
  const total = HOSTING_CUMULATIVE[HOSTING_CUMULATIVE.length - 1];
  return HOSTING[pickIndex(HOSTING_CUMULATIVE, ((h >>> 8) / 16777216) * total)][0];
}

interface Site {
  readonly kind: 'web';
  readonly domain: string;
  readonly segment: TrafficSegment;
  weight: number;
  readonly country: string;
  /** `www.` and other sub-domains may be put in front (a registrable name). */
  readonly prefixable: boolean;
}
interface Flow {
  readonly kind: 'flow';
  readonly segment: TrafficSegment;
  readonly weight: number;
  /** Fixed parts of the address (-1: random) */
  readonly octets: readonly number[];
  readonly port: number | null;
  readonly protocol: 'tcp' | 'udp' | 'icmp';
  readonly country: string | null;
  readonly bytes: number;
}
type Destination = Site | Flow;

interface Pool {
  readonly objects: EngineObjects;
  readonly bySegment: Record<TrafficSegment, { items: Destination[]; cumulative: Float64Array }>;
  /** The apps whose addresses cover an address (the engine's objects; explain names apps by host only). */
  readonly appNets: { net: Net; app: string }[];
}

const SECOND_LEVEL = /\.(co|com|org|net|gov|ac|edu)\.[a-z]{2}$/;

function flowFrom(spec: FlowSpec, segment: TrafficSegment): Flow {
  return {
    kind: 'flow',
    segment,
    weight: spec.weight,
    octets: spec.ip.split('.').map((part) => (part === 'x' ? -1 : Number(part))),
    port: spec.port,
    protocol: spec.protocol,
    country: spec.country,
    bytes: spec.bytes,
  };
}

/** A flow to a random address of a block (a /32 is the address itself; at most the first /16 of a larger one). */
function flowToNet(net: Net, spec: Omit<FlowSpec, 'ip'>, segment: TrafficSegment): Flow {
  const prefix = Math.max(net.prefix, 16);
  const octets = formatIp(net.network)
    .split('.')
    .map((part, i) => ((i + 1) * 8 > prefix ? -1 : Number(part)));
  return { kind: 'flow', segment, ...spec, octets };
}

/** The destinations of an engine input: its categories', apps' and feeds' domains and addresses, then BASE_*. */
function buildPool(objects: EngineObjects): Pool {
  const sites = new Map<string, Site>();
  const flows: Flow[] = [];
  const add = (raw: string, segment: TrafficSegment, weight: number) => {
    const domain = normalizeDomainItem(raw);
    if (domain === null || domain === '*' || !domain.includes('.') || parseIp(domain) >= 0) return;
    if (!/^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/.test(domain) || domain.length > 200) return;
    const known = sites.get(domain);
    if (known) {
      known.weight = Math.max(known.weight, weight);
      return;
    }
    const labels = domain.split('.').length;
    sites.set(domain, {
      kind: 'web',
      domain,
      segment,
      weight,
      country: countryOfDomain(domain, segment),
      prefixable: segment !== 'security' && (labels === 2 || (labels === 3 && SECOND_LEVEL.test(domain))),
    });
  };
  // A category's first entries are its best-known sites: popularity falls off with the position.
  const zipf = (i: number) => 2 / (i + 1) ** 0.8;
  for (const category of objects.categories) {
    const segment =
      segmentOf(`${category.id} ${category.name}`) ?? (category.custom ? 'leisure' : 'business');
    for (const [i, d] of category.domains.entries()) add(d, segment, zipf(i));
  }
  const appNets: { net: Net; app: string }[] = [];
  for (const app of objects.apps) {
    // An app is in the segment of its domains a category already placed, else guessed from its name.
    const placed = app.domains
      .map((d) => sites.get(normalizeDomainItem(d) ?? ''))
      .find((s) => s !== undefined);
    const segment = placed?.segment ?? segmentOf(app.appname) ?? 'business';
    for (const [i, d] of app.domains.entries()) add(d, segment, 0.6 * zipf(i));
    for (const raw of app.ips) {
      const net = parseNet(raw);
      if (net === null) continue;
      appNets.push({ net, app: app.appname });
      const isResolver = /dns|resolver/i.test(`${app.appid} ${app.appname}`);
      flows.push(
        flowToNet(
          net,
          isResolver
            ? { port: 53, protocol: 'udp', country: null, weight: 1, bytes: 180 }
            : { port: 443, protocol: 'tcp', country: null, weight: 1, bytes: 30_000 },
          'network',
        ),
      );
    }
  }
  for (const feed of objects.feeds) {
    for (const d of feed.domains.slice(0, 200)) add(d, 'security', 0.5);
    for (const raw of feed.ips.slice(0, 50)) {
      const net = parseNet(raw);
      if (net !== null && net.prefix >= 8) {
        flows.push(
          flowToNet(
            net,
            { port: 443, protocol: 'tcp', country: null, weight: 0.5, bytes: 4_000 },
            'security',
          ),
        );
      }
    }
  }
  for (const [segment, list] of Object.entries(BASE_SITES)) {
    for (const item of list.split(' ')) {
      const [domain, weight] = item.split(':');
      add(domain, segment as TrafficSegment, Number(weight));
    }
  }
  for (const spec of BASE_FLOWS) flows.push(flowFrom(spec, 'network'));
  for (const spec of SECURITY_FLOWS) flows.push(flowFrom(spec, 'security'));

  const grouped = Object.fromEntries(TRAFFIC_SEGMENTS.map((s) => [s, [] as Destination[]])) as Record<
    TrafficSegment,
    Destination[]
  >;
  for (const site of sites.values()) grouped[site.segment].push(site);
  for (const flow of flows) grouped[flow.segment].push(flow);
  const bySegment = Object.fromEntries(
    TRAFFIC_SEGMENTS.map((s) => [
      s,
      { items: grouped[s], cumulative: cumulate(grouped[s].map((d) => d.weight)) },
    ]),
  ) as Pool['bySegment'];
  return { objects, bySegment, appNets };
}

// ─── Users ──────────────────────────────────────────────────────────────────────────────────────────────────

interface Habits {
  /** How much traffic the user makes, relative to others. */
  readonly activity: number;
  /** When the working day starts and how long it lasts (hours, UTC). */
  readonly startHour: number;
  readonly dayHours: number;
  /** Works from the office (one shared endpoint) rather than from home. */
  readonly office: boolean;
  /** Segment choice in working hours and outside them. */
  readonly work: Float64Array;
  readonly off: Float64Array;
  /** Favourite destinations per segment (drawn first). */
  readonly favourites: Record<TrafficSegment, Destination[]>;
}

function habitsOf(seed: string, key: string, pool: Pool | null): Habits {
  const rng = Rng.of(seed, 'user', key);
  const r = () => rng.next();
  // Drawn first: the sessions (and so the connection events) do not depend on the destinations.
  const activity = rng.logNormal(1, 0.6);
  const startHour = rng.between(6.5, 9.5);
  const dayHours = rng.between(7.5, 10);
  const office = rng.chance(0.6);
  const taste: Record<TrafficSegment, number> = {
    business: 0.6 + 0.8 * r(),
    search: 0.5 + r(),
    social: r() < 0.2 ? 0.15 : 0.5 + 1.5 * r(),
    streaming: 0.2 + 1.6 * r(),
    news: 0.3 + 1.4 * r(),
    leisure: 0.4 + r(),
    games: r() < 0.6 ? 0.1 : 0.6 + 2 * r(),
    gambling: r() < 0.85 ? 0 : 1 + 3 * r(),
    adult: r() < 0.9 ? 0 : 1 + 3 * r(),
    // A few users click everything.
    security: r() < 0.05 ? 6 : 0.4 + r(),
    network: 0.5 + r() * (r() < 0.2 ? 4 : 1),
  };
  const table = (bias: 'work' | 'off') =>
    cumulate(TRAFFIC_SEGMENTS.map((s) => SEGMENTS[s].share * SEGMENTS[s][bias] * taste[s]));
  const favourites = Object.fromEntries(TRAFFIC_SEGMENTS.map((s) => [s, [] as Destination[]])) as Record<
    TrafficSegment,
    Destination[]
  >;
  if (pool) {
    for (const s of TRAFFIC_SEGMENTS) {
      const { items, cumulative } = pool.bySegment[s];
      if (items.length === 0) continue;
      const n = 1 + rng.int(4);
      for (let i = 0; i < n; i++) favourites[s].push(items[weightedPick(cumulative, rng)]);
    }
  }
  return {
    activity,
    startHour,
    dayHours,
    office,
    work: table('work'),
    off: table('off'),
    favourites,
  };
}

interface Session {
  start: number;
  end: number;
  office: boolean;
}

/** The sessions of a device on the UTC day `day` (days since 1970): the working day, sometimes with a break. */
function sessionsOf(seed: string, deviceId: string, day: number, habits: Habits): Session[] {
  const rng = Rng.of(seed, 'sessions', deviceId, day);
  const midnight = day * DAY;
  const weekend = isWeekend(midnight);
  if (weekend) {
    if (!rng.chance(0.15)) return [];
    const start = midnight + rng.between(10, 16) * HOUR;
    return [{ start, end: start + rng.between(0.5, 3) * HOUR, office: false }];
  }
  if (!rng.chance(0.9)) return []; // a day off
  const office = habits.office && rng.chance(0.85);
  const start = midnight + (habits.startHour + rng.between(-0.5, 0.5)) * HOUR;
  const end = Math.min(midnight + 23.5 * HOUR, start + (habits.dayHours + rng.between(-1, 1)) * HOUR);
  if (!rng.chance(0.3)) return [{ start, end, office }];
  // Off the network for lunch (or a commute) and back.
  const pause = midnight + rng.between(11.5, 13.5) * HOUR;
  const back = pause + rng.between(0.3, 1.2) * HOUR;
  if (pause <= start || back >= end) return [{ start, end, office }];
  return [
    { start, end: pause, office },
    { start: back, end, office: office && rng.chance(0.8) },
  ];
}

// ─── Decisions ──────────────────────────────────────────────────────────────────────────────────────────────

/** The server's default geo rule (last, allowing every country): a decision it "made" is the default. */
const DEFAULT_GEO_RULE_ID = 'system-default-geo';
const isDefaultRule = (rule: RuleRef | null) =>
  rule !== null &&
  (rule.ruleId === DEFAULT_GEO_RULE_ID || (rule.system && rule.ruleName === DEFAULT_GEO_RULE_NAME));

/** The rule to name for a decision: the engine's, unless it is the default geo rule (then an earlier match). */
function decidingRule(e: Explanation): { rule: RuleRef | null; layer: Layer | null } {
  if (!isDefaultRule(e.rule)) return { rule: e.rule, layer: e.layer };
  const earlier = e.trace.findLast(
    (s) => s.outcome === 'matched' && s.layer !== 'qos' && s.rule !== null && !isDefaultRule(s.rule),
  );
  return earlier?.rule ? { rule: earlier.rule, layer: earlier.layer } : { rule: null, layer: null };
}

/** `item (category:Name)` etc.: what the matched step says the item came from. */
function originOf(e: Explanation, rule: RuleRef | null, layer: Layer | null, kind: string): string | null {
  if (rule === null) return null;
  const step = e.trace.find(
    (s) => s.outcome === 'matched' && s.layer === layer && s.rule?.ruleId === rule.ruleId,
  );
  const item = step?.values.item ?? '';
  const m = / \(([a-z]+):(.+)\)$/.exec(item);
  return m && m[1] === kind ? m[2] : null;
}

const short = (s: string | null | undefined): string | null => {
  const t = s?.trim() ?? '';
  return t === '' ? null : t.slice(0, 100);
};

const WORDS = (
  'report invoice roadmap pricing weather holiday budget recipe football election laptop flights ' +
  'hotel kubernetes typescript quarterly meeting onboarding security payroll coffee train benefits review'
).split(' ');
const DOWNLOADS = [
  '/download/setup.exe',
  '/files/Q3-report.pdf',
  '/dl/update.zip',
  '/media/clip.mp4',
  '/releases/installer.msi',
  '/docs/handbook.docx',
];

function pathFor(segment: TrafficSegment, rng: Rng): string {
  if (rng.chance(0.02)) return rng.pick(DOWNLOADS);
  const word = () => rng.pick(WORDS);
  const id = (n: number) => rng.token(n);
  const num = () => String(1 + rng.int(999_999));
  switch (segment) {
    case 'search':
      return `/search?q=${word()}+${word()}`;
    case 'social':
      return rng.pick(['/', '/feed', `/${word()}/status/${num()}`, '/notifications', `/p/${id(10)}`]);
    case 'streaming':
      return rng.pick([
        `/watch?v=${id(11)}`,
        '/browse',
        `/video/${id(8)}/seg-${num()}.m4s`,
        `/playlist/${id(12)}`,
      ]);
    case 'news':
      return rng.pick(['/', `/news/${word()}-${num()}`, `/2025/${1 + rng.int(12)}/${word()}-${word()}`]);
    case 'leisure':
      return rng.pick(['/', `/product/${id(10)}`, '/cart', `/hotel/${word()}`, '/checkout']);
    case 'games':
      return rng.pick(['/', '/store', `/api/matchmaking/${id(8)}`, `/download/patch-${num()}.pak`]);
    case 'gambling':
      return rng.pick(['/', '/sports/football', '/casino/slots', '/live-betting', '/account/deposit']);
    case 'adult':
      return rng.pick(['/', `/video/${id(10)}`, '/categories']);
    case 'security':
      return rng.pick(['/', '/gate.php', `/payload/${id(8)}.bin`, '/login/verify-account', '/pool/submit']);
    default:
      return rng.pick([
        '/',
        `/api/v1/${word()}`,
        `/app/${word()}`,
        '/login',
        `/files/${id(12)}`,
        '/dashboard',
        `/api/v2/events?since=${num()}`,
      ]);
  }
}

const SUBDOMAINS = ['api.', 'cdn.', 'static.', 'app.', 'm.', 'img.', 'auth.'];

/** A recurring, stable anonymous profile when nobody is on the roster. */
const ANONYMOUS_PROFILES = 8;

/**
 * The generator behind {@link synthesiseDecisions}, for callers that run for long: the gateway pulls the visits
 * due (`while (g.clock <= Date.now()) post(g.next())`) and swaps the policy and the roster as they change.
 */
export class TrafficGenerator {
  readonly ratePerSecond: number;
  private readonly seed: string;
  private readonly diurnal: boolean;
  private readonly idPrefix: string;
  private readonly rng: Rng;
  private engine: CompiledPolicy;
  private pool: Pool;
  private roster: readonly RosterEntry[] = [];
  private habits = new Map<string, Habits>();
  private sequence = 0;
  private nextTime: number;
  private visits = 0;
  private emitted = 0;
  /** Who is likely on the network in the current quarter hour (cumulative weights of the roster). */
  private presence: { quarter: number; cumulative: Float64Array } | null = null;

  constructor(options: TrafficGeneratorOptions) {
    const start = instant(options.start, 'start');
    const rate = options.ratePerSecond ?? 1;
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('ratePerSecond: a positive number');
    this.ratePerSecond = rate;
    this.seed = String(options.seed ?? 1);
    this.diurnal = options.diurnal ?? true;
    this.idPrefix =
      options.idPrefix ?? `s${hashSeed(this.seed).toString(36)}.${Math.floor(start / 1000).toString(36)}.`;
    this.rng = Rng.of(this.seed, 'traffic', start);
    this.engine = options.engine;
    this.pool = buildPool(options.engine.objects);
    this.setRoster(options.roster ?? []);
    this.nextTime = start;
    this.advance();
  }

  /** When the next visit happens (epoch ms). */
  get clock(): number {
    return this.nextTime;
  }

  /** Decides the following visits against another policy (destinations follow its objects). */
  setEngine(engine: CompiledPolicy) {
    this.engine = engine;
    if (engine.objects !== this.pool.objects) {
      this.pool = buildPool(engine.objects);
      this.habits.clear();
    }
  }

  setRoster(roster: readonly RosterEntry[]) {
    this.roster = roster;
    this.presence = null;
  }

  /** Moves the clock on to `time` when it is behind: the visits in between do not happen. */
  skipTo(time: number) {
    if (this.nextTime >= time) return;
    this.nextTime = time;
    this.advance();
  }

  /** The events of the next visit (a DNS query and its HTTP request, or a network flow): one or two. */
  next(): SyntheticDecision[] {
    const time = this.nextTime;
    const events = this.visit(time);
    this.visits++;
    this.emitted += events.length;
    this.advance();
    return events;
  }

  /** Moves the clock to the next arrival: a Poisson process at the rate, thinned by the diurnal shape. */
  private advance() {
    // Visits per second such that events per second come out at the rate (most visits are two events).
    const perVisit = (this.emitted + 1.8 * 20) / (this.visits + 20);
    const visitRate = this.ratePerSecond / perVisit;
    let t = this.nextTime;
    for (;;) {
      t += this.rng.exp(visitRate) * 1000;
      if (!this.diurnal || this.rng.next() < diurnalShape(t)) break;
    }
    this.nextTime = t;
  }

  private habitsOf(key: string): Habits {
    let h = this.habits.get(key);
    if (h === undefined) {
      h = habitsOf(this.seed, key, this.pool);
      this.habits.set(key, h);
    }
    return h;
  }

  /** A roster entry, weighted by its user's activity and whether the device is connected at `time`. */
  private who(time: number): { entry: RosterEntry | null; habits: Habits } {
    if (this.roster.length === 0) {
      const key = `anonymous-${this.rng.int(ANONYMOUS_PROFILES)}`;
      return { entry: null, habits: this.habitsOf(key) };
    }
    const quarter = Math.floor(time / 900_000);
    if (this.presence?.quarter !== quarter) {
      const day = Math.floor(time / DAY);
      const mid = quarter * 900_000 + 450_000;
      const weights = this.roster.map((entry) => {
        const habits = this.habitsOf(entry.userId ?? entry.deviceId);
        const on = sessionsOf(this.seed, entry.deviceId, day, habits).some(
          (s) => s.start <= mid && mid < s.end,
        );
        return habits.activity * (on ? 1 : 0.04);
      });
      this.presence = { quarter, cumulative: cumulate(weights) };
    }
    const entry = this.roster[weightedPick(this.presence.cumulative, this.rng)];
    return { entry, habits: this.habitsOf(entry.userId ?? entry.deviceId) };
  }

  private visit(time: number): SyntheticDecision[] {
    const rng = this.rng;
    const { entry, habits } = this.who(time);
    const table = isWorkTime(time) ? habits.work : habits.off;
    let segment = TRAFFIC_SEGMENTS[weightedPick(table, rng)];
    // A segment the input and the built-in lists leave empty cannot be visited: business instead.
    if (this.pool.bySegment[segment].items.length === 0) segment = 'business';
    const favourites = habits.favourites[segment];
    const { items, cumulative } = this.pool.bySegment[segment];
    const destination =
      favourites.length > 0 && rng.chance(0.55) ? rng.pick(favourites) : items[weightedPick(cumulative, rng)];
    const subject: EngineRequest = {
      userId: entry?.userId ?? null,
      deviceId: entry?.deviceId ?? null,
      groups: entry?.groups ?? [],
      sourceIp: entry?.address ?? null,
      time,
    };
    return destination.kind === 'web'
      ? this.webVisit(destination, subject, entry, time)
      : [this.flow(destination, subject, entry, time)];
  }

  private event(time: number, data: DecisionEventData): SyntheticDecision {
    const id = `${this.idPrefix}${(this.sequence++).toString(36)}`;
    return { id, at: new Date(Math.round(time)).toISOString(), kind: 'decision', data };
  }

  private webVisit(site: Site, subject: EngineRequest, entry: RosterEntry | null, time: number) {
    const rng = this.rng;
    let host = site.domain;
    if (site.prefixable) {
      const r = rng.next();
      if (r >= 0.45) host = r < 0.85 ? `www.${site.domain}` : `${rng.pick(SUBDOMAINS)}${site.domain}`;
    }
    const port = rng.chance(0.92) ? 443 : 80;
    const e = explain(this.engine, {
      ...subject,
      host,
      path: pathFor(site.segment, rng),
      port,
      protocol: 'tcp',
      destinationCountry: site.country,
    });
    const ids = { userId: entry?.userId ?? null, deviceId: entry?.deviceId ?? null };
    const country = e.destinationCountry;
    const describe = (rule: RuleRef | null, layer: Layer | null) => ({
      category: short(originOf(e, rule, layer, 'category') ?? e.categories[0]),
      app: short(originOf(e, rule, layer, 'app') ?? e.apps[0]),
      country,
      ruleId: short(rule?.ruleId),
      ruleName: short(rule?.ruleName),
      threat: short(originOf(e, rule, layer, 'feed')),
    });
    // The DNS query: what the DNS layer decided (a block ends the visit).
    const dnsBlocked = e.decision === 'block' && e.layer === 'dns';
    const dnsStep = e.trace.find((s) => s.layer === 'dns' && s.outcome === 'matched');
    const dnsRule = dnsBlocked ? e.rule : (dnsStep?.rule ?? null);
    const dns = this.event(time, {
      layer: 'dns',
      decision: dnsBlocked ? 'block' : 'allow',
      destination: host,
      port: 53,
      protocol: 'udp',
      ...ids,
      ...describe(dnsRule, dnsRule ? 'dns' : null),
      bytes: Math.round(rng.between(90, 420)),
    });
    if (dnsBlocked) return [dns];
    const decided = decidingRule(e);
    const blocked = e.decision === 'block';
    const http = this.event(time + rng.between(5, 250), {
      layer: blocked && decided.layer === 'network' ? 'network' : 'http',
      decision: e.decision,
      destination: host,
      port,
      protocol: 'tcp',
      ...ids,
      ...describe(decided.rule, decided.layer),
      bytes: blocked
        ? Math.round(rng.between(0, 2_000))
        : Math.max(200, Math.round(rng.logNormal(SEGMENTS[site.segment].bytes, 1.2))),
    });
    return [dns, http];
  }

  private flow(flow: Flow, subject: EngineRequest, entry: RosterEntry | null, time: number) {
    const rng = this.rng;
    const ip = flow.octets.map((o) => (o >= 0 ? o : 1 + rng.int(254))).join('.');
    const e = explain(this.engine, {
      ...subject,
      ip,
      port: flow.port,
      ...(flow.protocol === 'icmp' ? {} : { protocol: flow.protocol }),
      ...(flow.country ? { destinationCountry: flow.country } : {}),
    });
    const decided = decidingRule(e);
    const address = parseIp(ip);
    const app =
      originOf(e, decided.rule, decided.layer, 'app') ??
      this.pool.appNets.find((a) => inNet(address, a.net))?.app;
    const blocked = e.decision === 'block';
    return this.event(time, {
      layer: 'network',
      decision: e.decision,
      destination: ip,
      port: flow.port,
      protocol: flow.protocol,
      userId: entry?.userId ?? null,
      deviceId: entry?.deviceId ?? null,
      category: null,
      app: short(app),
      country: e.destinationCountry,
      ruleId: short(decided.rule?.ruleId),
      ruleName: short(decided.rule?.ruleName),
      threat: short(originOf(e, decided.rule, decided.layer, 'feed')),
      bytes: blocked ? 0 : Math.max(40, Math.round(rng.logNormal(flow.bytes, 1))),
    });
  }
}

/**
 * Synthetic decision events from `start`: until `count` events or `end`, whichever comes first (neither: for
 * ever, lazily). Events come in visit order (an HTTP request follows its DNS query by a few milliseconds).
 */
export function* synthesiseDecisions(options: TrafficOptions): Generator<SyntheticDecision> {
  const start = instant(options.start, 'start');
  const end = options.end === undefined ? Number.POSITIVE_INFINITY : instant(options.end, 'end');
  const count = options.count ?? Number.POSITIVE_INFINITY;
  if (!(count >= 0)) throw new RangeError('count: zero or more');
  let ratePerSecond = options.ratePerSecond;
  if (ratePerSecond === undefined && Number.isFinite(count) && Number.isFinite(end) && end > start) {
    const shape = options.diurnal === false ? 1 : meanShape(start, end);
    ratePerSecond = count / (((end - start) / 1000) * Math.max(shape, 1e-6));
  }
  if (count === 0 || end <= start) return;
  const generator = new TrafficGenerator({ ...options, start, ratePerSecond });
  let n = 0;
  while (generator.clock < end) {
    for (const event of generator.next()) {
      if (Date.parse(event.at) >= end) return;
      yield event;
      if (++n >= count) return;
    }
  }
}

/**
 * The roster's connections between `start` and `end`: each device connects at the start of its user's working
 * day (07:00–10:00 UTC, from the office or from home; rarely at weekends), sometimes drops off for lunch, and
 * disconnects in the evening with the session's duration and bytes. In time order.
 */
export function* synthesiseConnections(options: TrafficConnectionOptions): Generator<SyntheticConnection> {
  const start = instant(options.start, 'start');
  const end = instant(options.end, 'end');
  const seed = String(options.seed ?? 1);
  const prefix =
    options.idPrefix ?? `s${hashSeed(seed).toString(36)}.${Math.floor(start / 1000).toString(36)}.c`;
  const habits = new Map<string, Habits>();
  let sequence = 0;
  const officeEndpoint = `198.51.100.${10 + (hashSeed(`${seed}office`) % 200)}`;
  for (let day = Math.floor(start / DAY); day * DAY < end; day++) {
    const due: { time: number; data: ConnectionEventData }[] = [];
    for (const entry of options.roster) {
      const key = entry.userId ?? entry.deviceId;
      let h = habits.get(key);
      if (h === undefined) {
        h = habitsOf(seed, key, null);
        habits.set(key, h);
      }
      const rng = Rng.of(seed, 'connection', entry.deviceId, day);
      const home = `203.0.113.${1 + (hashSeed(`${seed}${entry.deviceId}`) % 254)}`;
      for (const session of sessionsOf(seed, entry.deviceId, day, h)) {
        const ids = { deviceId: entry.deviceId, userId: entry.userId };
        const endpoint = `${session.office ? officeEndpoint : home}:${1024 + rng.int(64_511)}`;
        due.push({ time: session.start, data: { action: 'connected', ...ids, endpoint } });
        const durationMs = Math.round(session.end - session.start);
        const minutes = durationMs / 60_000;
        due.push({
          time: session.end,
          data: {
            action: 'disconnected',
            ...ids,
            endpoint,
            durationMs,
            bytesIn: Math.round(minutes * h.activity * rng.logNormal(400_000, 0.7)),
            bytesOut: Math.round(minutes * h.activity * rng.logNormal(60_000, 0.7)),
          },
        });
      }
    }
    due.sort((a, b) => a.time - b.time);
    for (const { time, data } of due) {
      if (time < start || time >= end) continue;
      yield {
        id: `${prefix}${(sequence++).toString(36)}`,
        at: new Date(Math.round(time)).toISOString(),
        kind: 'connection',
        data,
      };
    }
  }
}
