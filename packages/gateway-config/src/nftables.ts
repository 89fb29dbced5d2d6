/**
 * The network layer as an nftables ruleset (`nft -f`) in `table inet palisade`, deciding each new connection
 * like the engine's network layer — the first matching rule in evaluation order decides (block → reject or drop,
 * allow → accept, route → accept with the gateway's mark), nothing matching → accept.
 *
 * Layout (fast at size: a 10 000-rule bundle loads in well under a second):
 * - `chain decide` holds the rules in evaluation order. Rules of the same shape (same sources, locations, ports
 *   and schedule; only the destination differs) are one lookup in an interval verdict map (`ip daddr vmap
 *   @r<n>_to`; one destination interval is matched inline) whose elements are the destinations "painted"
 *   first-match-first: an address in several rules' destinations maps to the first of them. A rule joins the
 *   latest group of its shape only when the groups in between cannot match its destinations (so no packet's
 *   decision changes); otherwise the order between groups is the chain's order. Addresses are never one rule
 *   each, and lists (ports, protocols, days, hours) are named sets shared by content: an anonymous set per rule
 *   is what made large rulesets slow to load.
 * - Each rule's verdict is a chain of its own, `chain r<n>` (its place among the network rules), that logs the decision to NFLOG group
 *   {@link NFLOG_GROUP} with the prefix `pal <block|allow|route> <ruleId> ` and then decides; the default accept
 *   logs `pal allow - `. Only new flows reach `decide` (established and related are accepted before it, invalid
 *   packets dropped), so only new flows are logged: ulogd2 reads the group (decision telemetry).
 * - Sources: one interval set per policy for some subjects (`p<n>_src4`, `p<n>_src6`: the tunnel addresses of
 *   the devices behind its users, groups and devices), none for a policy for everyone.
 * - `chain prerouting` (filter, priority -150, before the steering table's redirect to squid at dstnat) decides
 *   new tcp/80 and tcp/443 flows not addressed to the gateway itself (`fib daddr type local` skipped); `chain
 *   forward` decides every other new flow and does not decide those again — each flow is decided and logged once.
 */

import { splitMatcher } from '@palisade/contracts';
import { type CompiledRule, type EngineInput, parseNet } from '@palisade/policy-engine';
import {
  commentText,
  GatewayConfigError,
  type Generated,
  hhmm,
  ruleLabel,
  rulesOf,
  SkipList,
  scheduleDays,
  windowMinutes,
} from './common';
import { formatInterval, type Interval, mergeIntervals, parseBlock, parseInterval } from './net';

/** Tunnel addresses (addresses or blocks, IPv4 or IPv6) of the devices behind each subject the policies name. */
export interface SubjectAddresses {
  /** A user's devices. */
  users?: Readonly<Record<string, readonly string[]>>;
  /** The devices of a group's members. */
  groups?: Readonly<Record<string, readonly string[]>>;
  devices?: Readonly<Record<string, readonly string[]>>;
}

export interface NftablesOptions {
  /** Named in the header comment. */
  gatewayId?: string;
  /**
   * The IPv4 ranges of a country (ISO alpha-2, upper case): CIDR blocks, addresses or `a.b.c.d-e.f.g.h`. Must
   * agree with the `lookupCountry` the engine is compiled with. Without it GEO rules naming countries are left
   * out (reported); `*` needs no ranges.
   */
  lookupCountryRanges?: (country: string) => readonly string[];
  /** Who is behind which tunnel address: rules of policies for some subjects match these sources only. */
  subjectAddresses?: SubjectAddresses;
  /** How a block answers: `reject` (default: ICMP administratively prohibited, clients fail fast) or `drop`. */
  blockVerdict?: 'reject' | 'drop';
  /** fwmark per route target (gateway name): a route rule sets it, for the gateway's policy routing. */
  routeMarks?: Readonly<Record<string, number>>;
  /** Decide only connections entering through these interfaces (e.g. the WireGuard one); default all. */
  interfaces?: readonly string[];
  /**
   * The table's name in family inet (default `palisade`): a site gateway's local controls for its LANs load as
   * `palisade_local` beside the tenant's policy.
   */
  table?: string;
}

const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;
const COUNTRY = /^[A-Z]{2}$/;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The NFLOG group every decision is logged to (ulogd2 reads it: decision telemetry). */
export const NFLOG_GROUP = 7;
/** The tcp ports steered to squid: their new flows are decided in `prerouting`, before the redirect. */
export const WEB_PORTS = [80, 443] as const;

/** A rule id as the log prefix carries it: letters, digits and `._:-` (others `_`), at most 100 characters. */
export function nflogRuleId(ruleId: string): string {
  return ruleId.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 100) || '_';
}

/** The log statement of a decision: `log prefix "pal <action> <ruleId> " group 7` (`-` for the default). */
export function nflogStatement(action: 'block' | 'allow' | 'route', ruleId: string): string {
  return `log prefix "pal ${action} ${ruleId === '-' ? '-' : nflogRuleId(ruleId)} " group ${NFLOG_GROUP}`;
}

/** A network rule that can match, with what it matches besides its destination. */
interface Entry {
  r: CompiledRule;
  label: string;
  /** Source matches: null for everyone. */
  sources: (string | null)[];
  /** Locations, ports, schedule. */
  matches: string[];
  /** Null: any address (either family). */
  destination: Interval[] | null;
  /** Rules of one shape differ only in their destination. */
  shape: string;
}

interface SetDef {
  name: string;
  /** `type ipv4_addr`, `typeof meta day`… */
  type: string;
  interval: boolean;
  elements: string[];
  comment: string;
}

/** What a list in a rule matches: each list is a named set (an anonymous one per rule is slow to load). */
const LIST_TYPES = {
  proto: { type: 'type inet_proto', interval: false, prefix: 'protocols' },
  port: { type: 'type inet_service', interval: true, prefix: 'ports' },
  day: { type: 'typeof meta day', interval: false, prefix: 'days' },
  hour: { type: 'typeof meta hour', interval: true, prefix: 'hours' },
} as const;

/** Items of the rule the engine ignores as addresses: reported, with IPv6 told apart. */
function reportAddresses(items: readonly string[], r: CompiledRule, skipped: SkipList) {
  for (const item of items) {
    if (item === '*' || parseNet(item) !== null) continue;
    const v6 = parseBlock(item)?.family === 6;
    skipped.add(r.policy.id, r.ref.ruleId, item, v6 ? 'ipv6' : 'invalid-address');
  }
}

function v4Intervals(nets: readonly { network: number; mask: number }[]): Interval[] {
  return nets.map((n) => ({
    family: 4,
    first: BigInt(n.network >>> 0),
    last: BigInt((n.network | ~n.mask) >>> 0),
  }));
}

function group<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * An `nft -f` ruleset for the network layer: `ROUTE` (addresses, blocks, the rule's feeds' addresses), the
 * addresses of `app` rules, `GEO` through `lookupCountryRanges`; conditions: ports (`meta l4proto { tcp, udp }
 * th dport`), locations (`ip saddr`), schedules (`meta day`, `meta hour`, UTC). Policies for some subjects
 * match the tunnel addresses `subjectAddresses` gives for them; a policy for everyone has no source match.
 *
 * Decisions are taken on a connection's first packet: `ct state established,related accept` comes first, so
 * replies and running connections pass (a new block applies to new connections); invalid packets are dropped.
 * Each decision is logged to NFLOG group 7 (see the module comment). The table is deleted and
 * declared again in the same transaction, so loading the file again replaces the previous ruleset atomically.
 * Left out and reported: addresses the engine ignores (malformed, IPv6), countries without ranges, subjects
 * without addresses, rules that can never match. QoS rules are not enforced here.
 */
export function nftablesRuleset(input: EngineInput, options: NftablesOptions = {}): Generated {
  const interfaces = [...new Set(options.interfaces ?? [])].sort();
  for (const i of interfaces) {
    if (!IFNAME.test(i)) throw new GatewayConfigError('invalid-option', 'interfaces', `interfaces: bad name`);
  }
  const table = options.table ?? 'palisade';
  if (!/^[a-z][a-z0-9_]{0,31}$/.test(table)) {
    throw new GatewayConfigError('invalid-option', 'table', 'table: lower-case letters, digits and _');
  }
  const marks = options.routeMarks ?? {};
  for (const [target, mark] of Object.entries(marks)) {
    if (!Number.isInteger(mark) || mark < 1 || mark > 0xffffffff) {
      throw new GatewayConfigError(
        'invalid-option',
        `routeMarks.${target}`,
        'routeMarks: integers 1 … 2^32-1',
      );
    }
  }
  const blockVerdict =
    (options.blockVerdict ?? 'reject') === 'drop' ? 'drop' : 'reject with icmpx type admin-prohibited';
  const skipped = new SkipList();
  const sets: SetDef[] = [];
  const setByContent = new Map<string, string>();
  const listCounts: Partial<Record<keyof typeof LIST_TYPES, number>> = {};
  const countryRanges = new Map<string, { v4: Interval[]; v6: boolean; bad: string[] }>();
  const policySources = new Map<string, { v4: string | null; v6: string | null }>();
  const feeds = new Map(input.objects.feeds.map((f) => [f.id, f]));
  const apps = new Map(input.objects.apps.map((a) => [a.appid, a]));
  const entries: Entry[] = [];

  /** A named interval set for these intervals (one family), shared by rules with the same content. */
  const setFor = (name: string, family: 4 | 6, intervals: Interval[], comment: string): string => {
    const elements = mergeIntervals(intervals).map(formatInterval);
    const key = `${family}|${elements.join(',')}`;
    const existing = setByContent.get(key);
    if (existing !== undefined) return existing;
    const type = family === 4 ? 'type ipv4_addr' : 'type ipv6_addr';
    sets.push({ name, type, interval: true, elements, comment });
    setByContent.set(key, name);
    return name;
  };

  /** A list (ports, protocols, days, hours) as a match: one value inline, more a named set shared by content. */
  const listMatch = (kind: keyof typeof LIST_TYPES, elements: string[]): string => {
    if (elements.length === 1) return elements[0];
    const key = `${kind}|${elements.join(',')}`;
    const existing = setByContent.get(key);
    if (existing !== undefined) return `@${existing}`;
    const { type, interval, prefix } = LIST_TYPES[kind];
    listCounts[kind] = (listCounts[kind] ?? 0) + 1;
    const name = `${prefix}${listCounts[kind] - 1}`;
    sets.push({ name, type, interval, elements, comment: `${prefix} of rules` });
    setByContent.set(key, name);
    return `@${name}`;
  };

  const rangesOf = (cc: string) => {
    let entry = countryRanges.get(cc);
    if (entry === undefined) {
      entry = { v4: [], v6: false, bad: [] };
      for (const text of options.lookupCountryRanges?.(cc) ?? []) {
        const i = parseInterval(text);
        if (i === null) entry.bad.push(text);
        else if (i.family === 6) entry.v6 = true;
        else entry.v4.push(i);
      }
      countryRanges.set(cc, entry);
    }
    return entry;
  };

  const sourcesOf = (r: CompiledRule) => {
    const p = r.policy;
    let entry = policySources.get(p.id);
    if (entry !== undefined) return entry;
    const subjects = options.subjectAddresses ?? {};
    const texts: string[] = [];
    // Loops, not push(...list): a large group's addresses would overflow the stack.
    for (const u of [...p.users].sort()) for (const t of subjects.users?.[u] ?? []) texts.push(t);
    for (const g of [...p.groups].sort()) for (const t of subjects.groups?.[g] ?? []) texts.push(t);
    for (const d of [...p.devices].sort()) for (const t of subjects.devices?.[d] ?? []) texts.push(t);
    const v4: Interval[] = [];
    const v6: Interval[] = [];
    for (const t of texts) {
      const i = parseInterval(t);
      if (i === null) skipped.add(p.id, '', t, 'invalid-address');
      else (i.family === 4 ? v4 : v6).push(i);
    }
    const base = `p${policySources.size}_src`;
    const comment = `sources of policy ${commentText(p.id)}`;
    entry = {
      v4: v4.length ? setFor(`${base}4`, 4, v4, comment) : null,
      v6: v6.length ? setFor(`${base}6`, 6, v6, comment) : null,
    };
    policySources.set(p.id, entry);
    return entry;
  };

  // Chains are numbered among the network layer's rules only: a change of another layer renumbers nothing here.
  const chainNo = new Map<CompiledRule, number>();
  const no = (r: CompiledRule) => chainNo.get(r) as number;
  for (const r of rulesOf(input, 'network')) {
    chainNo.set(r, chainNo.size);
    const pid = r.policy.id;
    const rid = r.ref.ruleId;
    const label = `${ruleLabel(r)} ${r.type} ${r.action}`;

    // Destination: null = any address (either family).
    let destination: Interval[] | null = null;
    if (r.type === 'ROUTE') {
      reportAddresses(splitMatcher(r.rule.url ?? ''), r, skipped);
      for (const id of r.rule.feeds ?? []) reportAddresses(feeds.get(id)?.ips ?? [], r, skipped);
      destination = r.anyIp ? null : v4Intervals(r.nets);
    } else if (r.type === 'app') {
      for (const id of splitMatcher(r.rule.url ?? '')) reportAddresses(apps.get(id)?.ips ?? [], r, skipped);
      // An app without addresses is decided in the DNS layer only.
      if (r.appNets.length === 0) continue;
      destination = v4Intervals(r.appNets);
    } else if (r.type === 'GEO') {
      if (!r.anyCountry) {
        destination = [];
        for (const cc of r.countries) {
          if (!COUNTRY.test(cc)) {
            skipped.add(pid, rid, cc, 'invalid-country');
            continue;
          }
          const ranges = rangesOf(cc);
          for (const bad of ranges.bad) skipped.add(pid, rid, bad, 'invalid-address');
          if (ranges.v6) skipped.add(pid, rid, cc, 'ipv6');
          if (ranges.v4.length === 0) skipped.add(pid, rid, cc, 'no-country-ranges');
          for (const range of ranges.v4) destination.push(range);
        }
      }
    } else continue;
    if (destination !== null && destination.length === 0) {
      skipped.add(pid, rid, '', 'never-matches');
      continue;
    }

    // Conditions first: a rule that can never match declares no set.
    if (r.locationNets !== null && r.locationNets.length === 0) {
      skipped.add(pid, rid, 'locations', 'never-matches');
      continue;
    }
    let portMatch: string | null = null;
    if (r.ports !== null) {
      const ports: Interval[] = [];
      for (let i = 0; i < r.ports.length; i += 2) {
        ports.push({ family: 4, first: BigInt(r.ports[i]), last: BigInt(r.ports[i + 1]) });
      }
      if (ports.length === 0) {
        skipped.add(pid, rid, 'ports', 'never-matches');
        continue;
      }
      const list = mergeIntervals(ports).map((p) =>
        p.first === p.last ? `${p.first}` : `${p.first}-${p.last}`,
      );
      portMatch = `meta l4proto ${listMatch('proto', ['tcp', 'udp'])} th dport ${listMatch('port', list)}`;
    }
    const timeMatches: string[] = [];
    if (r.schedule !== null) {
      const days = scheduleDays(r.schedule);
      const windows = windowMinutes(r.schedule);
      if (days.length === 0 || windows.length === 0) {
        skipped.add(pid, rid, 'schedule', 'never-matches');
        continue;
      }
      if (days.length < 7) {
        const names = days.map((d) => `"${DAYS[d]}"`);
        timeMatches.push(`meta day ${listMatch('day', names)}`);
      }
      if (!(windows.length === 1 && windows[0][0] === 0 && windows[0][1] === 1440)) {
        const hours = windows.map(([a, b]) => `"${hhmm(a)}"-"${hhmm(b - 1)}:59"`);
        timeMatches.push(`meta hour ${listMatch('hour', hours)}`);
      }
    }
    // IPv4 only when an IPv4 address is matched (the destination, or a location's source networks).
    const v4Only = destination !== null || r.locationNets !== null;
    const sources: (string | null)[] = [];
    if (r.policy.everyone) sources.push(null);
    else {
      const s = sourcesOf(r);
      if (s.v4 !== null) sources.push(`ip saddr @${s.v4}`);
      if (s.v6 !== null && !v4Only) sources.push(`ip6 saddr @${s.v6}`);
      if (sources.length === 0) {
        skipped.add(pid, rid, '', 'no-subject-addresses');
        continue;
      }
    }

    const matches: string[] = [];
    if (r.locationNets !== null) {
      const name = setFor(`r${no(r)}_from`, 4, v4Intervals(r.locationNets), `locations of ${label}`);
      matches.push(`ip saddr @${name}`);
    }
    if (portMatch !== null) matches.push(portMatch);
    matches.push(...timeMatches);
    entries.push({ r, label, sources, matches, destination, shape: JSON.stringify([sources, matches]) });
  }

  // Each rule's decision: a chain that logs it, then decides.
  const ruleChains: string[] = [];
  for (const { r, label } of entries) {
    let verdict = 'accept';
    if (r.action === 'block') verdict = blockVerdict;
    else if (r.action === 'route') {
      const mark = marks[r.target];
      if (mark !== undefined) verdict = `meta mark set 0x${mark.toString(16).padStart(8, '0')} accept`;
    }
    const via = r.action === 'route' ? ` (route to ${commentText(r.target)})` : '';
    const action = r.action === 'block' ? 'block' : r.action === 'route' ? 'route' : 'allow';
    ruleChains.push(
      `\t# ${label}${via}`,
      `\tchain r${no(r)} {`,
      `\t\t${nflogStatement(action, r.ref.ruleId)} ${verdict} comment "${label.slice(0, 120)}"`,
      '\t}',
    );
  }

  // The decide chain: rules of one shape with destinations are one verdict-map lookup (see groupRules).
  const maps: string[] = [];
  const decide: string[] = [];
  for (const g of groupRules(entries)) {
    const first = g.members[0];
    const last = g.members[g.members.length - 1];
    const names =
      g.members.length === 1 ? first.label : `${first.label} … ${last.label} (${g.members.length} rules)`;
    let lookup: string;
    if (first.destination === null) lookup = `jump r${no(first.r)}`;
    else {
      const pieces = paint(g.members.map((m) => m.destination ?? []));
      const element = (p: (typeof pieces)[number]) =>
        formatInterval({ family: 4, first: BigInt(p.first), last: BigInt(p.last) });
      if (pieces.length === 1) {
        lookup = `ip daddr ${element(pieces[0])} jump r${no(g.members[pieces[0].owner].r)}`;
      } else {
        const name = `r${no(first.r)}_to`;
        const elements = pieces.map((p) => `${element(p)} : jump r${no(g.members[p.owner].r)}`);
        maps.push(`\t# destinations of ${names}, first match first`);
        maps.push(
          `\tmap ${name} {`,
          '\t\ttype ipv4_addr : verdict',
          '\t\tflags interval',
          '\t\telements = {',
        );
        const chunks = group(elements, 4);
        chunks.forEach((c, i) => {
          maps.push(`\t\t\t${c.join(', ')}${i < chunks.length - 1 ? ',' : ''}`);
        });
        maps.push('\t\t}', '\t}');
        lookup = `ip daddr vmap @${name}`;
      }
    }
    decide.push(`\t\t# ${names}`);
    for (const s of first.sources)
      decide.push(`\t\t${[s, ...first.matches, lookup].filter(Boolean).join(' ')}`);
  }

  const iifCheck =
    interfaces.length > 0 ? [`\t\tiifname != { ${interfaces.map((i) => `"${i}"`).join(', ')} } accept`] : [];
  const webPorts = `meta l4proto tcp th dport { ${WEB_PORTS.join(', ')} }`;
  const out = [
    '#!/usr/sbin/nft -f',
    `# Palisade gateway ${commentText(options.gatewayId ?? '')}: the network layer of the tenant's policy.`,
    '# Generated: do not edit. Load with TZ=UTC (schedules are UTC) on a kernel whose timezone is UTC.',
    '# The first matching rule decides each new connection; nothing matching: accept (the engine default).',
    `table inet ${table} {}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
  ];
  for (const s of sets) {
    out.push(`\t# ${s.comment}`);
    out.push(`\tset ${s.name} {`);
    out.push(`\t\t${s.type}`);
    if (s.interval) out.push('\t\tflags interval');
    out.push('\t\telements = {');
    const chunks = group(s.elements, 8);
    chunks.forEach((c, i) => {
      out.push(`\t\t\t${c.join(', ')}${i < chunks.length - 1 ? ',' : ''}`);
    });
    out.push('\t\t}');
    out.push('\t}');
  }
  for (const line of ruleChains) out.push(line);
  for (const line of maps) out.push(line);
  out.push('\t# The rules in evaluation order; reached by the first packet of a flow only.');
  out.push('\tchain decide {');
  out.push('\t\tct state invalid drop');
  for (const line of decide) out.push(line);
  out.push(`\t\t${nflogStatement('allow', '-')} accept comment "default: accept"`);
  out.push('\t}');
  out.push(
    '\t# New web flows (tcp/80, tcp/443) not to the gateway itself: decided before the redirect to squid.',
  );
  out.push('\tchain prerouting {');
  out.push('\t\ttype filter hook prerouting priority -150; policy accept;');
  out.push('\t\tct state established,related accept');
  out.push(...iifCheck);
  out.push('\t\tfib daddr type local accept');
  out.push(`\t\t${webPorts} jump decide`);
  out.push('\t}');
  out.push('\tchain forward {');
  out.push('\t\ttype filter hook forward priority filter; policy accept;');
  out.push('\t\tct state established,related accept');
  out.push(...iifCheck);
  out.push(`\t\t${webPorts} accept comment "decided in prerouting"`);
  out.push('\t\tjump decide');
  out.push('\t}');
  out.push('}');
  return { text: `${out.join('\n')}\n`, skipped: skipped.list };
}

/** How many groups back a rule may move to join the group of its shape (past rules it cannot meet). */
const GROUP_LOOKBACK = 64;

/** Merged sorted flat intervals [first0, last0, first1, last1, …] of two such lists. */
function mergeFlat(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  const put = (first: number, last: number) => {
    const n = out.length;
    if (n > 0 && first <= out[n - 1] + 1) out[n - 1] = Math.max(out[n - 1], last);
    else out.push(first, last);
  };
  let x = 0;
  let y = 0;
  while (x < a.length || y < b.length) {
    if (y >= b.length || (x < a.length && a[x] <= b[y])) {
      put(a[x], a[x + 1]);
      x += 2;
    } else {
      put(b[y], b[y + 1]);
      y += 2;
    }
  }
  return out;
}

/**
 * Destination intervals (IPv4, as numbers) of a group, for "can a later rule move past it": sorted runs of
 * halving sizes (merged like a binary counter), so adding and asking stay O(log² n) however the two interleave.
 */
class Coverage {
  private runs: number[][] = [];
  private pending: number[] = [];
  constructor(readonly everything: boolean) {}
  add(list: readonly Interval[]) {
    for (const i of list) this.pending.push(Number(i.first), Number(i.last));
  }
  private flush() {
    const pairs: [number, number][] = [];
    for (let k = 0; k < this.pending.length; k += 2) pairs.push([this.pending[k], this.pending[k + 1]]);
    pairs.sort((x, y) => x[0] - y[0]);
    let run = mergeFlat([], pairs.flat());
    this.pending = [];
    while (this.runs.length > 0 && this.runs[this.runs.length - 1].length <= 2 * run.length) {
      run = mergeFlat(this.runs.pop() as number[], run);
    }
    this.runs.push(run);
  }
  meets(list: readonly Interval[]): boolean {
    if (this.everything) return true;
    if (this.pending.length > 0) this.flush();
    for (const i of list) {
      const first = Number(i.first);
      const last = Number(i.last);
      for (const run of this.runs) {
        // The first stored interval ending at or after `first` meets [first, last] if it starts by `last`.
        let lo = 0;
        let hi = run.length / 2;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (run[2 * mid + 1] < first) lo = mid + 1;
          else hi = mid;
        }
        if (lo < run.length / 2 && run[2 * lo] <= last) return true;
      }
    }
    return false;
  }
}

/**
 * The rules in groups, in an order that decides every packet as the evaluation order does: a rule with a
 * destination joins the latest group of its shape when every group after that one has destinations disjoint
 * from its own (no packet can match both, so moving it before them changes no decision), else it starts a
 * group. Inside a group the members keep their order (the painting decides by it). A rule for any destination
 * is a group of its own that nothing moves past.
 */
function groupRules(entries: readonly Entry[]): { members: Entry[] }[] {
  const groups: { shape: string; members: Entry[]; coverage: Coverage }[] = [];
  for (const e of entries) {
    const destination = e.destination;
    let joined = false;
    if (destination !== null) {
      for (let k = groups.length - 1; k >= 0 && k >= groups.length - GROUP_LOOKBACK; k--) {
        const g = groups[k];
        if (g.shape === e.shape && !g.coverage.everything) {
          g.members.push(e);
          g.coverage.add(destination);
          joined = true;
          break;
        }
        if (g.coverage.meets(destination)) break;
      }
    }
    if (!joined) {
      const coverage = new Coverage(destination === null);
      if (destination !== null) coverage.add(destination);
      groups.push({ shape: e.shape, members: [e], coverage });
    }
  }
  return groups;
}

/**
 * First match over one group's destinations (IPv4 intervals per rule, in order): disjoint pieces, each owned by
 * the first rule whose destinations hold it; adjacent pieces of one owner merged. A sweep over the intervals'
 * edges with a heap of the rules covering the current address: O(n log n) in the number of intervals.
 */
export function paint(
  destinations: readonly (readonly Interval[])[],
): { first: number; last: number; owner: number }[] {
  const edges: { at: number; owner: number; start: boolean }[] = [];
  destinations.forEach((list, owner) => {
    for (const i of mergeIntervals(list)) {
      if (i.family !== 4) continue;
      edges.push({ at: Number(i.first), owner, start: true });
      edges.push({ at: Number(i.last) + 1, owner, start: false });
    }
  });
  edges.sort((x, y) => x.at - y.at);
  const active = new Uint8Array(destinations.length);
  const heap: number[] = [];
  const push = (v: number) => {
    heap.push(v);
    for (let c = heap.length - 1; c > 0; ) {
      const parent = (c - 1) >> 1;
      if (heap[parent] <= heap[c]) break;
      [heap[parent], heap[c]] = [heap[c], heap[parent]];
      c = parent;
    }
  };
  const pop = () => {
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let c = 0; ; ) {
      const l = 2 * c + 1;
      const r = l + 1;
      let m = c;
      if (l < heap.length && heap[l] < heap[m]) m = l;
      if (r < heap.length && heap[r] < heap[m]) m = r;
      if (m === c) break;
      [heap[m], heap[c]] = [heap[c], heap[m]];
      c = m;
    }
  };
  const out: { first: number; last: number; owner: number }[] = [];
  for (let e = 0; e < edges.length; ) {
    const at = edges[e].at;
    for (; e < edges.length && edges[e].at === at; e++) {
      const { owner, start } = edges[e];
      active[owner] = start ? 1 : 0;
      if (start) push(owner);
    }
    while (heap.length > 0 && active[heap[0]] === 0) pop();
    if (heap.length === 0 || e === edges.length) continue;
    const owner = heap[0];
    const last = edges[e].at - 1;
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.owner === owner && prev.last === at - 1) prev.last = last;
    else out.push({ first: at, last, owner });
  }
  return out;
}
