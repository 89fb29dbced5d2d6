/**
 * The network layer as an nftables ruleset (`nft -f`): one `forward` chain in `table inet palisade` that
 * decides each new connection like the engine's network layer — the first matching rule in evaluation order
 * decides (block → reject or drop, allow → accept, route → accept with the gateway's mark), nothing matching →
 * accept. Addresses live in interval sets (merged, never one rule per address).
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

interface SetDef {
  name: string;
  family: 4 | 6;
  elements: string[];
  comment: string;
}

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
 * replies and running connections pass (a new block applies to new connections). The table is deleted and
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
  const countryRanges = new Map<string, { v4: Interval[]; v6: boolean; bad: string[] }>();
  const policySources = new Map<string, { v4: string | null; v6: string | null }>();
  const feeds = new Map(input.objects.feeds.map((f) => [f.id, f]));
  const apps = new Map(input.objects.apps.map((a) => [a.appid, a]));
  const rules: string[] = [];

  /** A named interval set for these intervals (one family), shared by rules with the same content. */
  const setFor = (name: string, family: 4 | 6, intervals: Interval[], comment: string): string => {
    const elements = mergeIntervals(intervals).map(formatInterval);
    const key = `${family}|${elements.join(',')}`;
    const existing = setByContent.get(key);
    if (existing !== undefined) return existing;
    sets.push({ name, family, elements, comment });
    setByContent.set(key, name);
    return name;
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
    for (const u of [...p.users].sort()) texts.push(...(subjects.users?.[u] ?? []));
    for (const g of [...p.groups].sort()) texts.push(...(subjects.groups?.[g] ?? []));
    for (const d of [...p.devices].sort()) texts.push(...(subjects.devices?.[d] ?? []));
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

  for (const r of rulesOf(input, 'network')) {
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
      portMatch = `meta l4proto { tcp, udp } th dport ${list.length === 1 ? list[0] : `{ ${list.join(', ')} }`}`;
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
        timeMatches.push(`meta day ${names.length === 1 ? names[0] : `{ ${names.join(', ')} }`}`);
      }
      if (!(windows.length === 1 && windows[0][0] === 0 && windows[0][1] === 1440)) {
        const hours = windows.map(([a, b]) => `"${hhmm(a)}"-"${hhmm(b - 1)}:59"`);
        timeMatches.push(`meta hour ${hours.length === 1 ? hours[0] : `{ ${hours.join(', ')} }`}`);
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
      const name = setFor(`r${r.ordinal}_from`, 4, v4Intervals(r.locationNets), `locations of ${label}`);
      matches.push(`ip saddr @${name}`);
    }
    if (destination !== null) {
      matches.push(`ip daddr @${setFor(`r${r.ordinal}_to`, 4, destination, `destinations of ${label}`)}`);
    }
    if (portMatch !== null) matches.push(portMatch);
    matches.push(...timeMatches);

    let verdict = 'accept';
    if (r.action === 'block') verdict = blockVerdict;
    else if (r.action === 'route') {
      const mark = marks[r.target];
      if (mark !== undefined) verdict = `meta mark set 0x${mark.toString(16).padStart(8, '0')} accept`;
    }
    const tail = `counter ${verdict} comment "${label.slice(0, 120)}"`;

    const via = r.action === 'route' ? ` (route to ${commentText(r.target)})` : '';
    rules.push(`\t\t# ${label}${via}`);
    for (const s of sources) rules.push(`\t\t${[s, ...matches, tail].filter(Boolean).join(' ')}`);
  }

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
    out.push(`\t\ttype ${s.family === 4 ? 'ipv4_addr' : 'ipv6_addr'}`);
    out.push('\t\tflags interval');
    out.push('\t\telements = {');
    const chunks = group(s.elements, 8);
    chunks.forEach((c, i) => {
      out.push(`\t\t\t${c.join(', ')}${i < chunks.length - 1 ? ',' : ''}`);
    });
    out.push('\t\t}');
    out.push('\t}');
  }
  out.push('\tchain forward {');
  out.push('\t\ttype filter hook forward priority filter; policy accept;');
  out.push('\t\tct state established,related accept');
  if (interfaces.length > 0) {
    out.push(`\t\tiifname != { ${interfaces.map((i) => `"${i}"`).join(', ')} } accept`);
  }
  for (const rule of rules) out.push(rule);
  out.push('\t\t# default: accept');
  out.push('\t}');
  out.push('}');
  return { text: `${out.join('\n')}\n`, skipped: skipped.list };
}
