/**
 * The HTTP layer as squid ACLs: an include file of `acl` definitions and `http_access` lines in the engine's
 * evaluation order, so squid's own first-match over `http_access` decides like the engine (block → deny,
 * allow, route and rewrite → allow), ending with `http_access allow all` (the engine's default).
 */

import { splitMatcher } from '@palisade/contracts';
import { type CompiledRule, type EngineInput, parseUrlItem } from '@palisade/policy-engine';
import {
  commentText,
  GatewayConfigError,
  type Generated,
  hhmm,
  isSafeDomain,
  ruleLabel,
  rulesOf,
  SkipList,
  scheduleDays,
  windowMinutes,
} from './common';
import { formatInterval, type Interval, mergeIntervals, parseInterval } from './net';
import type { SubjectAddresses } from './nftables';

export interface SquidOptions {
  /** Who is behind which source address: rules of policies for some subjects match these sources only. */
  subjectAddresses?: SubjectAddresses;
  /** Prefix of every ACL name (default `pal`), so the include cannot clash with the main configuration's. */
  prefix?: string;
}

/** Squid's day letters, Sunday first. */
const DAY_LETTERS = 'SMTWHFA';
/** What a URL path, keyword or extension may contain: RFC 3986 path and query characters, nothing else. */
const SAFE_TEXT = /^[A-Za-z0-9\-._~%!$&'()*+=:@/?]+$/;
/** Squid reads at most 2048 characters per configuration line: long lists are split over several lines. */
const LINE_BUDGET = 1000;

/** A literal for a POSIX extended regular expression: the special characters of SAFE_TEXT escaped. */
function literal(text: string): string {
  const escaped = text.replace(/[.$()*+?]/g, '\\$&');
  // A leading `-` would read as a squid option flag.
  return escaped.startsWith('-') ? `[-]${escaped.slice(1)}` : escaped;
}

/** Drops the domains another one in the list already covers (squid warns about them). */
function pruneDomains(domains: Iterable<string>): string[] {
  const set = new Set(domains);
  return [...set]
    .filter((d) => {
      for (let dot = d.indexOf('.'); dot >= 0; dot = d.indexOf('.', dot + 1)) {
        if (set.has(d.slice(dot + 1))) return false;
      }
      return true;
    })
    .sort();
}

/**
 * A squid configuration include for the HTTP layer: `SQUID_DMN` (with its categories and feeds) and the hosts of
 * `url` rules → `dstdomain -n .host` (label suffix, no reverse look-up of address hosts), `*` → any named host;
 * `url` path prefixes → `urlpath_regex ^prefix` (case-sensitive); `SQUID_KEYWORD` → `urlpath_regex -i keyword`
 * (the path and query, like the engine: not the host); `SQUID_FILEEXT` → `urlpath_regex -i` on the extension of
 * the last path segment. Conditions: locations → `src`, ports → `port`, schedules → `time` (squid's local time:
 * run it with TZ=UTC). Policies for some subjects match the source addresses `subjectAddresses` gives for them.
 * Left out and reported: domains and texts that cannot be written safely, subjects without addresses, rules
 * that can never match.
 *
 * Without SSL bumping squid sees only the host of an HTTPS request (CONNECT): host rules apply to it, rules on
 * the path cannot match it.
 */
export function squidAcl(input: EngineInput, options: SquidOptions = {}): Generated {
  const prefix = options.prefix ?? 'pal';
  if (!/^[a-z][a-z0-9_]{0,15}$/.test(prefix)) {
    throw new GatewayConfigError(
      'invalid-option',
      'prefix',
      'prefix: a lower-case name of 16 characters at most',
    );
  }
  const skipped = new SkipList();
  const acls: string[] = [];
  const access: string[] = [];
  const policyAcl = new Map<string, string | null>();
  let anyNameAcl: string | null = null;

  const defineAcl = (name: string, type: string, values: readonly string[], flags = '') => {
    let line: string[] = [];
    let length = 0;
    const flush = () => {
      if (line.length) acls.push(`acl ${name} ${type}${flags ? ` ${flags}` : ''} ${line.join(' ')}`);
      line = [];
      length = 0;
    };
    for (const v of values) {
      if (length + v.length + 1 > LINE_BUDGET) flush();
      line.push(v);
      length += v.length + 1;
    }
    flush();
  };
  /** Any host that is a name: defined at the top when a rule needs it. */
  const anyName = () => {
    anyNameAcl = `${prefix}_any_name`;
    return anyNameAcl;
  };
  const subjectAcl = (r: CompiledRule): string | null => {
    const p = r.policy;
    if (policyAcl.has(p.id)) return policyAcl.get(p.id)!;
    const subjects = options.subjectAddresses ?? {};
    const texts: string[] = [];
    for (const u of [...p.users].sort()) texts.push(...(subjects.users?.[u] ?? []));
    for (const g of [...p.groups].sort()) texts.push(...(subjects.groups?.[g] ?? []));
    for (const d of [...p.devices].sort()) texts.push(...(subjects.devices?.[d] ?? []));
    const intervals: Interval[] = [];
    for (const t of texts) {
      const i = parseInterval(t);
      if (i === null) skipped.add(p.id, '', t, 'invalid-address');
      else intervals.push(i);
    }
    let name: string | null = null;
    if (intervals.length > 0) {
      name = `${prefix}_p${policyAcl.size}_who`;
      acls.push(`# sources of policy ${commentText(p.id)}`);
      defineAcl(name, 'src', mergeIntervals(intervals).map(formatInterval));
    }
    policyAcl.set(p.id, name);
    return name;
  };

  for (const r of rulesOf(input, 'http')) {
    const pid = r.policy.id;
    const rid = r.ref.ruleId;
    const label = `${ruleLabel(r)} ${r.type} ${r.action}`;
    const base = `${prefix}_r${r.ordinal}`;
    /** Reports an item left out; false, to filter it out. */
    const bad = (item: string, reason: 'invalid-domain' | 'unsafe-text'): false => {
      skipped.add(pid, rid, item, reason);
      return false;
    };

    // The matcher as alternatives: each is a list of ACL definitions ANDed on one http_access line.
    const defs: { name: string; type: string; values: string[]; flags?: string }[] = [];
    const alternatives: string[][] = [];
    if (r.type === 'SQUID_DMN') {
      if (r.anyHost) alternatives.push(['@any']);
      else {
        const domains = r.domains.filter((d) => isSafeDomain(d) || bad(d, 'invalid-domain'));
        if (domains.length) {
          defs.push({
            name: `${base}_dom`,
            type: 'dstdomain',
            flags: '-n',
            values: pruneDomains(domains).map((d) => `.${d}`),
          });
          alternatives.push([`${base}_dom`]);
        }
      }
    } else if (r.type === 'url') {
      // Items grouped by path prefix: one host list per prefix.
      const byPrefix = new Map<string, { any: boolean; hosts: Set<string> }>();
      for (const raw of splitMatcher(r.rule.url ?? '')) {
        const u = parseUrlItem(raw);
        if (u === null) {
          bad(raw, 'invalid-domain');
          continue;
        }
        if (u.host !== '*' && !isSafeDomain(u.host)) {
          bad(u.host, 'invalid-domain');
          continue;
        }
        if (u.prefix !== '' && !SAFE_TEXT.test(u.prefix)) {
          bad(u.prefix, 'unsafe-text');
          continue;
        }
        let g = byPrefix.get(u.prefix);
        if (g === undefined) {
          g = { any: false, hosts: new Set() };
          byPrefix.set(u.prefix, g);
        }
        if (u.host === '*') g.any = true;
        else g.hosts.add(u.host);
      }
      [...byPrefix.keys()].sort().forEach((p, i) => {
        const g = byPrefix.get(p)!;
        const hosts = `${base}_u${i}_host`;
        const path = `${base}_u${i}_path`;
        if (!g.any)
          defs.push({
            name: hosts,
            type: 'dstdomain',
            flags: '-n',
            values: pruneDomains(g.hosts).map((d) => `.${d}`),
          });
        if (p !== '') defs.push({ name: path, type: 'urlpath_regex', values: [`^${literal(p)}`] });
        alternatives.push([g.any ? '@any' : hosts, ...(p !== '' ? [path] : [])]);
      });
    } else if (r.type === 'SQUID_KEYWORD') {
      const words = [...new Set(r.keywords)].filter((k) => SAFE_TEXT.test(k) || bad(k, 'unsafe-text'));
      if (words.length) {
        defs.push({
          name: `${base}_kw`,
          type: 'urlpath_regex',
          flags: '-i',
          values: words.sort().map(literal),
        });
        alternatives.push([`${base}_kw`]);
      }
    } else if (r.type === 'SQUID_FILEEXT') {
      const exts = [...new Set(r.exts)].filter(
        (e) => /^[a-z0-9_~+-][a-z0-9_~+.-]*$/.test(e) || bad(e, 'unsafe-text'),
      );
      if (exts.length) {
        // The extension of the last path segment before `?`/`#`; a dotted one (tar.gz) needs a name before it.
        const patterns = exts
          .sort()
          .map((e) => `^[^?#]*/[^/?#]${e.includes('.') ? '+' : '*'}\\.${literal(e)}([?#]|$)`);
        defs.push({ name: `${base}_ext`, type: 'urlpath_regex', flags: '-i', values: patterns });
        alternatives.push([`${base}_ext`]);
      }
    }
    if (alternatives.length === 0) {
      skipped.add(pid, rid, '', 'never-matches');
      continue;
    }

    const conditions: string[] = [];
    if (r.locationNets !== null) {
      if (r.locationNets.length === 0) {
        skipped.add(pid, rid, 'locations', 'never-matches');
        continue;
      }
      const nets: Interval[] = r.locationNets.map((n) => ({
        family: 4,
        first: BigInt(n.network >>> 0),
        last: BigInt((n.network | ~n.mask) >>> 0),
      }));
      defs.push({ name: `${base}_from`, type: 'src', values: mergeIntervals(nets).map(formatInterval) });
      conditions.push(`${base}_from`);
    }
    if (r.ports !== null) {
      const ports: Interval[] = [];
      for (let i = 0; i < r.ports.length; i += 2) {
        ports.push({ family: 4, first: BigInt(r.ports[i]), last: BigInt(r.ports[i + 1]) });
      }
      if (ports.length === 0) {
        skipped.add(pid, rid, 'ports', 'never-matches');
        continue;
      }
      const values = mergeIntervals(ports).map((p) =>
        p.first === p.last ? `${p.first}` : `${p.first}-${p.last}`,
      );
      defs.push({ name: `${base}_port`, type: 'port', values });
      conditions.push(`${base}_port`);
    }
    const timeLines: string[] = [];
    if (r.schedule !== null) {
      const days = scheduleDays(r.schedule);
      const windows = windowMinutes(r.schedule);
      if (days.length === 0 || windows.length === 0) {
        skipped.add(pid, rid, 'schedule', 'never-matches');
        continue;
      }
      // squid's time ACL holds on [from, to] to the minute: the engine's [from, to) ends a minute earlier.
      const letters = days.map((d) => DAY_LETTERS[d]).join('');
      for (const [a, b] of windows)
        timeLines.push(`acl ${base}_time time ${letters} ${hhmm(a)}-${hhmm(b - 1)}`);
      conditions.push(`${base}_time`);
    }
    let who: string | null = null;
    if (!r.policy.everyone) {
      who = subjectAcl(r);
      if (who === null) {
        skipped.add(pid, rid, '', 'no-subject-addresses');
        continue;
      }
    }

    acls.push(`# ${label}`);
    for (const d of defs) defineAcl(d.name, d.type, d.values, d.flags);
    acls.push(...timeLines);
    const verb = r.action === 'block' ? 'deny' : 'allow';
    access.push(`# ${label}`);
    for (const alt of alternatives) {
      const names = alt.map((n) => (n === '@any' ? anyName() : n));
      access.push(`http_access ${verb} ${[who, ...conditions, ...names].filter(Boolean).join(' ')}`);
    }
  }

  const lines = [
    "# Palisade: the HTTP layer of the tenant's policy for squid. Generated: do not edit.",
    '# Include it after the rules on who may use the proxy; run squid with TZ=UTC (schedules are UTC).',
  ];
  if (anyNameAcl !== null) {
    // A host that is a name: the engine treats an IPv4 host as an address, which no host rule matches.
    lines.push(`acl ${anyNameAcl} dstdom_regex -n [^0-9.]`);
  }
  // concat, not push(...): a spread of 100 000 lines overflows the call stack.
  const text = lines.concat(
    acls,
    '',
    '# First match decides, in policy precedence and rule order.',
    access,
    '# default: allow (the engine default)',
    'http_access allow all',
  );
  return { text: `${text.join('\n')}\n`, skipped: skipped.list };
}
