/**
 * The HTTP layer as squid ACLs: an include file of `acl` definitions and `http_access` lines in the engine's
 * evaluation order, so squid's own first-match over `http_access` decides like the engine (block → deny,
 * allow, route and rewrite → allow), ending with `http_access allow all` (the engine's default).
 *
 * Every rule's line ends with an `annotate_transaction` ACL naming the rule (`palisade=<block|allow>:<ruleId>`),
 * which squid evaluates only when the rest of the line matched: the access log ({@link squidLogging},
 * {@link squidDecisionOf}) says which rule decided, and `deny_info` (which names the last ACL of the denying
 * line) sends a blocked request of a policy with the block page to the console's `/blockaccess/<type>/<ruleId>`.
 * HTTPS is not decrypted: host rules also become `ssl_bump` lines on the TLS server name (SNI), which the
 * gateway's squid (`ssl_bump peek step1` before the include, `ssl_bump splice all` after it) uses to splice
 * or terminate the connection.
 */

import { type BlockPageType, splitMatcher } from '@palisade/contracts';
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
  /**
   * Where blocked requests of policies with the block page go (`deny_info 302:` to
   * `<publicUrl>/blockaccess/<type>/<ruleId>?tenant=<tenantId>&host=…&url=…&client=…`), and the answer of the
   * gateway's block-page port ({@link SQUID_PAGE_PORT_NAME}: plain HTTP to the gateway's own address, a DNS
   * block) to `/blockaccess/site`. Without it a blocked request gets squid's 403.
   */
  blockPage?: { publicUrl: string; tenantId: string };
  /** `ssl_bump splice|terminate` lines on the TLS server name for host rules (default true). */
  sni?: boolean;
  /** Appends the access log in the `palisade` format to this file ({@link squidLogging}). */
  accessLog?: string;
}

/**
 * The name of the gateway's `http_port` for plain HTTP to its own address (a DNS-blocked name answered with
 * the block-page address): the include denies everything arriving there, with the block page's redirect.
 */
export const SQUID_PAGE_PORT_NAME = 'palisade_page';
/** The annotation key naming the deciding rule (`<block|allow>:<ruleId>`). */
export const SQUID_NOTE = 'palisade';

/**
 * The access log line of every transaction, space-separated (none of the fields can hold a space): epoch
 * seconds with milliseconds, client address, method, URL host, TLS server name, URL, HTTP status, squid's
 * result code, the deciding rule's annotation, bytes sent to the client. `-` where squid has no value.
 */
export const SQUID_LOGFORMAT = `%ts.%03tu %>a %rm %>rd %ssl::>sni %ru %>Hs %Ss %{${SQUID_NOTE}}note %<st`;

/** The `logformat` and `access_log` lines writing {@link SQUID_LOGFORMAT} to `path`. */
export function squidLogging(path: string): string[] {
  if (!/^\/[A-Za-z0-9._\-/]+$/.test(path)) {
    throw new GatewayConfigError('invalid-option', 'accessLog', 'accessLog: an absolute path without spaces');
  }
  return [`logformat palisade ${SQUID_LOGFORMAT}`, `access_log stdio:${path} logformat=palisade`];
}

/** One HTTP decision of squid's access log. */
export interface SquidDecision {
  /** Epoch milliseconds. */
  at: number;
  client: string;
  /** The URL's host, or the TLS server name of an HTTPS connection. */
  host: string;
  url: string;
  method: string;
  /** HTTP status to the client (0 when none, e.g. a terminated TLS connection). */
  status: number;
  ruleId: string | null;
  action: 'block' | 'allow';
  bytes: number;
}

/**
 * Parses one line of the `palisade` access log. Null for a line in another format, for the block-page port's
 * answers (a DNS block, reported by the resolver, not an HTTP decision), for connections without a request and
 * for the TLS peek's step of a spliced connection (its TCP_TUNNEL line is the decision).
 */
export function squidDecisionOf(line: string): SquidDecision | null {
  const f = line.trim().split(/\s+/);
  if (f.length !== 10 || !/^\d+\.\d{3}$/.test(f[0])) return null;
  const [at, client, method, urlHost, sni, url, status, result, note, bytes] = f;
  const none = (v: string) => v === '-' || v === '';
  const mark = /^(block|allow|page):(.+)$/.exec(note);
  if (mark?.[1] === 'page') return null;
  // No request at all (a connection closed before one: a port check), or the TLS peek's own transaction of a
  // connection squid then spliced (logged again as TCP_TUNNEL): one decision per request.
  if (method === '-' || (result === 'NONE_NONE' && mark?.[1] !== 'block')) return null;
  const denied = /DENIED/.test(result);
  const host = method === 'CONNECT' && !none(sni) ? sni : none(urlHost) ? (none(sni) ? '' : sni) : urlHost;
  return {
    at: Math.round(Number(at) * 1000),
    client,
    host: host.toLowerCase(),
    url: none(url) ? '' : url,
    method,
    status: /^\d+$/.test(status) ? Number(status) : 0,
    ruleId: mark && mark[2] !== '-' ? mark[2] : null,
    action: mark ? (mark[1] as 'block' | 'allow') : denied ? 'block' : 'allow',
    bytes: /^\d+$/.test(bytes) ? Number(bytes) : 0,
  };
}

/** What an annotation, a URL path segment or a query value may carry here verbatim. */
const SAFE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** The block page's `{type}` of a rule: what kind of rule blocked, never its text. */
function blockPageType(r: CompiledRule): BlockPageType {
  if (r.type === 'url') return 'url';
  if (r.type === 'SQUID_KEYWORD') return 'keyword';
  if (r.type === 'SQUID_FILEEXT') return 'fileext';
  if ((r.rule.categories ?? []).length > 0) return 'category';
  if ((r.rule.feeds ?? []).length > 0 && splitMatcher(r.rule.url ?? '').length === 0) return 'threat';
  return 'domain';
}

function checkedBlockPage(option: SquidOptions['blockPage']) {
  if (option === undefined) return null;
  const publicUrl = option.publicUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/[A-Za-z0-9.\-[\]:]+(\/[A-Za-z0-9._~\-/]*)?$/.test(publicUrl)) {
    throw new GatewayConfigError(
      'invalid-option',
      'blockPage',
      'blockPage.publicUrl: an http(s) URL without a query',
    );
  }
  if (!SAFE_ID.test(option.tenantId)) {
    throw new GatewayConfigError('invalid-option', 'blockPage', 'blockPage.tenantId: an identifier');
  }
  return { publicUrl, tenantId: option.tenantId };
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
  const blockPage = checkedBlockPage(options.blockPage);
  const sni = options.sni !== false;
  const skipped = new SkipList();
  const acls: string[] = [];
  const access: string[] = [];
  const bump: string[] = [];
  const denyInfo: string[] = [];
  let anySniAcl: string | null = null;
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
    /** The host-only matchers as TLS server names: `@any` or the domains (with their leading dot). */
    const sniHosts: string[] = [];
    if (r.type === 'SQUID_DMN') {
      if (r.anyHost) {
        alternatives.push(['@any']);
        sniHosts.push('@any');
      } else {
        const domains = r.domains.filter((d) => isSafeDomain(d) || bad(d, 'invalid-domain'));
        if (domains.length) {
          defs.push({
            name: `${base}_dom`,
            type: 'dstdomain',
            flags: '-n',
            values: pruneDomains(domains).map((d) => `.${d}`),
          });
          alternatives.push([`${base}_dom`]);
          sniHosts.push(...pruneDomains(domains).map((d) => `.${d}`));
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
        else if (g.any) sniHosts.push('@any');
        else sniHosts.push(...pruneDomains(g.hosts).map((d) => `.${d}`));
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
    const action = r.action === 'block' ? 'block' : 'allow';
    // Last on every line of the rule: evaluated only when the rest matched, and what deny_info names.
    const mark = `${base}_mark`;
    acls.push(`acl ${mark} annotate_transaction ${SQUID_NOTE}=${action}:${SAFE_ID.test(rid) ? rid : '-'}`);
    access.push(`# ${label}`);
    for (const alt of alternatives) {
      const names = alt.map((n) => (n === '@any' ? anyName() : n));
      access.push(`http_access ${verb} ${[who, ...conditions, ...names, mark].filter(Boolean).join(' ')}`);
    }
    if (blockPage && r.action === 'block' && r.policy.blockPage && SAFE_ID.test(rid)) {
      denyInfo.push(
        `deny_info 302:${blockPage.publicUrl}/blockaccess/${blockPageType(r)}/${rid}?tenant=${blockPage.tenantId}&host=%H&url=%u&client=%i ${mark}`,
      );
    }
    if (sni && sniHosts.length > 0) {
      const names: string[] = [];
      const listed = sniHosts.filter((h) => h !== '@any');
      if (sniHosts.includes('@any')) {
        anySniAcl = `${prefix}_any_sni`;
        names.push(anySniAcl);
      }
      if (listed.length > 0) {
        defineAcl(`${base}_sni`, 'ssl::server_name', [...new Set(listed)].sort());
        names.push(`${base}_sni`);
      }
      const tls = r.action === 'block' ? 'terminate' : 'splice';
      for (const n of names)
        bump.push(`ssl_bump ${tls} ${[who, ...conditions, n, mark].filter(Boolean).join(' ')}`);
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
  if (anySniAcl !== null) lines.push(`acl ${anySniAcl} ssl::server_name_regex [^0-9.]`);
  const page: string[] = [];
  if (blockPage) {
    // Plain HTTP to the gateway's own address: a name the resolver blocked with the block page.
    page.push(
      '# Plain HTTP to the gateway itself (a DNS block with the block page): the console names the rule.',
      `acl ${prefix}_page myportname ${SQUID_PAGE_PORT_NAME}`,
      `acl ${prefix}_page_mark annotate_transaction ${SQUID_NOTE}=page:-`,
      `http_access deny ${prefix}_page ${prefix}_page_mark`,
      `deny_info 302:${blockPage.publicUrl}/blockaccess/site?tenant=${blockPage.tenantId}&host=%H&client=%i ${prefix}_page_mark`,
    );
  }
  // concat, not push(...): a spread of 100 000 lines overflows the call stack.
  const text = lines.concat(
    acls,
    '',
    page,
    '# First match decides, in policy precedence and rule order.',
    access,
    '# default: allow (the engine default)',
    'http_access allow all',
    denyInfo.length
      ? ['', '# Blocked requests of policies with the block page: to the console.', ...denyInfo]
      : [],
    bump.length
      ? [
          '',
          "# HTTPS, not decrypted: host rules on the TLS server name (after the gateway's peek at step 1).",
          ...bump,
        ]
      : [],
    options.accessLog === undefined ? [] : ['', ...squidLogging(options.accessLog)],
  );
  return { text: `${text.join('\n')}\n`, skipped: skipped.list };
}
