/**
 * For the tests: small evaluators that read the generated TEXT (not the generators' internals) the way the
 * tools do — an RPZ resolver (exact name, else the longest wildcard), nftables' first match over the base
 * chains (with jumps and verdict maps), squid's first match over `http_access` — so a test can compare the
 * artefacts' decisions with `decide()`. They understand only what the generators write.
 */
import { parseAddress, parseInterval } from './net';

export type RpzAnswer =
  | { kind: 'none' }
  | { kind: 'nxdomain' }
  | { kind: 'passthru' }
  | { kind: 'a'; value: string }
  | { kind: 'cname'; value: string };

/** Parses an RPZ zone's records (relative owner names) into name → answer. */
export function parseRpz(text: string): Map<string, RpzAnswer> {
  const out = new Map<string, RpzAnswer>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(';') || line.startsWith('$') || line.startsWith('@')) continue;
    const m = /^(\S+) IN (CNAME|A) (\S+)$/.exec(line);
    if (!m) throw new Error(`unexpected zone line: ${line}`);
    const [, name, type, data] = m;
    const answer: RpzAnswer =
      type === 'A'
        ? { kind: 'a', value: data }
        : data === '.'
          ? { kind: 'nxdomain' }
          : data === 'rpz-passthru.'
            ? { kind: 'passthru' }
            : { kind: 'cname', value: data.slice(0, -1) };
    if (out.has(name)) throw new Error(`duplicate owner ${name}`);
    out.set(name, answer);
  }
  return out;
}

/**
 * What a resolver applying the zone answers for `host`, by DNS rules: the name's own record; nothing when the
 * name exists only as the parent of another (an empty non-terminal); else the wildcard of the closest existing
 * ancestor (the closest encloser), the zone's own `*` when no ancestor exists. BIND and unbound may be more
 * lenient (the longest wildcard); a zone right under these rules is right under those too.
 */
export function rpzLookup(zone: Map<string, RpzAnswer>, host: string): RpzAnswer {
  const exact = zone.get(host);
  if (exact) return exact;
  const exists = (name: string) => {
    for (const owner of zone.keys()) if (owner === name || owner.endsWith(`.${name}`)) return true;
    return false;
  };
  if (exists(host)) return { kind: 'none' };
  for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
    const encloser = host.slice(dot + 1);
    if (exists(encloser)) return zone.get(`*.${encloser}`) ?? { kind: 'none' };
  }
  return zone.get('*') ?? { kind: 'none' };
}

export interface Packet {
  src: string;
  dst: string;
  /** tcp, udp or icmp. */
  proto: string;
  port?: number;
  /** Epoch ms (UTC). */
  time: number;
  iif?: string;
  /** Addressed to the gateway itself (`fib daddr type local`); default false. */
  local?: boolean;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function seconds(hhmmss: string): number {
  const [h, m, s] = hhmmss.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
}

function listOf(token: string): string[] {
  const t = token.trim();
  return t.startsWith('{')
    ? t
        .slice(1, -1)
        .split(',')
        .map((x) => x.trim())
    : [t];
}

/** What the generated ruleset does to a NEW connection. */
export interface NftOutcome {
  /** accept, drop or reject. */
  verdict: string;
  /** The mark set, if any. */
  mark: number | null;
  /** The comment of the rule that gave the verdict. */
  comment: string | null;
  /** The NFLOG prefixes logged on the way (`pal block r1 `…), with their group. */
  logs: { prefix: string; group: number }[];
  /** The base chains that decided (a verdict other than the hook's policy, or a log): prerouting, forward. */
  decidedIn: string[];
}

/**
 * The verdict of the generated ruleset for a NEW connection, read from its text like nft would: the base
 * chains `prerouting` (hook prerouting) then `forward` (hook forward, unless addressed to the gateway itself),
 * each from its first line, with `jump` into regular chains (returning at their end), interval sets and
 * interval verdict maps (`ip daddr vmap @m`: no element, no verdict). An accept ends a base chain (the packet
 * goes on to the next hook); drop and reject end the packet.
 */
export function nftDecide(text: string, p: Packet): NftOutcome {
  const sets = new Map<string, string[]>();
  const maps = new Map<string, { key: string; verdict: string }[]>();
  const chains = new Map<string, string[]>();
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const m = /^(set|map|chain) (\S+) \{$/.exec(lines[i]);
    if (!m) continue;
    const body: string[] = [];
    for (i++; lines[i] !== '}'; i++) {
      if (lines[i] === '' || lines[i].startsWith('#')) continue;
      body.push(lines[i]);
    }
    if (m[1] === 'chain') {
      chains.set(m[2], body);
      continue;
    }
    const elements = body
      .filter((l) => !/^(elements|typeof|type|flags)\b/.test(l))
      .flatMap((l) => l.split(','))
      .map((x) => x.trim())
      .filter(Boolean);
    if (m[1] === 'set') sets.set(m[2], elements);
    else {
      maps.set(
        m[2],
        elements.map((e) => {
          const [key, verdict] = e.split(' : ');
          return { key, verdict };
        }),
      );
    }
  }
  const inInterval = (e: string, ip: string) => {
    const iv = parseInterval(e)!;
    const a = parseAddress(ip);
    return a !== null && a.family === iv.family && a.value >= iv.first && a.value <= iv.last;
  };
  const inSet = (name: string, ip: string) => (sets.get(name) ?? []).some((e) => inInterval(e, ip));
  const day = DAY_NAMES[(((Math.floor(p.time / 86_400_000) + 4) % 7) + 7) % 7];
  const second = Math.floor((p.time % 86_400_000) / 1000);
  const srcFamily = parseAddress(p.src)?.family;
  const dstFamily = parseAddress(p.dst)?.family;
  /** A list inline (`{ a, b }` or one value) or a named set (`@name`). */
  const items = (token: string) => (token.startsWith('@') ? (sets.get(token.slice(1)) ?? []) : listOf(token));
  const unquoted = (list: string) => items(list).map((x) => x.replaceAll('"', ''));
  let mark: number | null = null;
  let comment: string | null = null;
  const logs: { prefix: string; group: number }[] = [];

  /** Runs a chain: a verdict (accept, drop, reject), or null when it falls off its end (return). */
  const run = (name: string, depth: number): string | null => {
    const body = chains.get(name);
    if (body === undefined) throw new Error(`jump to a missing chain ${name}`);
    if (depth > 16) throw new Error('chains nested too deep');
    for (const line of body) {
      if (/^type (filter|nat) hook /.test(line)) continue;
      let rest = line;
      let ok = true;
      let verdict: string | null = null;
      let lineComment: string | null = null;
      /** Each statement the generator writes, and what it does to this packet. */
      const statements: [RegExp, (m: RegExpExecArray) => void][] = [
        [/^ct state established,related ?/, () => (ok = false)],
        [/^ct state invalid ?/, () => (ok = false)],
        [/^iifname != (\{[^}]*\}) ?/, (m) => (ok &&= !unquoted(m[1]).includes(p.iif ?? ''))],
        [/^fib daddr type local ?/, () => (ok &&= p.local === true)],
        [/^ip saddr @(\S+) ?/, (m) => (ok &&= srcFamily === 4 && inSet(m[1], p.src))],
        [/^ip6 saddr @(\S+) ?/, (m) => (ok &&= srcFamily === 6 && inSet(m[1], p.src))],
        [/^ip daddr @(\S+) ?/, (m) => (ok &&= dstFamily === 4 && inSet(m[1], p.dst))],
        [/^ip daddr ([0-9][0-9./-]*) ?/, (m) => (ok &&= dstFamily === 4 && inInterval(m[1], p.dst))],
        [
          /^ip daddr vmap @(\S+) ?/,
          (m) => {
            if (!ok) return;
            const hit =
              dstFamily === 4 ? (maps.get(m[1]) ?? []).find((e) => inInterval(e.key, p.dst)) : undefined;
            if (hit === undefined) ok = false;
            else verdict = hit.verdict;
          },
        ],
        [/^meta l4proto (\{[^}]*\}|@\w+|\w+) ?/, (m) => (ok &&= items(m[1]).includes(p.proto))],
        [
          /^th dport (\{[^}]*\}|\S+) ?/,
          (m) => {
            const port = p.port;
            ok &&=
              port !== undefined &&
              items(m[1]).some((x) => {
                const [a, b] = x.split('-').map(Number);
                return port >= a && port <= (b ?? a);
              });
          },
        ],
        [/^meta day (\{[^}]*\}|@\w+|"\w+") ?/, (m) => (ok &&= unquoted(m[1]).includes(day))],
        [
          /^meta hour (\{[^}]*\}|@\w+|"[^"]*"-"[^"]*") ?/,
          (m) => {
            ok &&= items(m[1]).some((x) => {
              const [a, b] = x.replaceAll('"', '').split('-');
              return second >= seconds(a) && second <= seconds(b);
            });
          },
        ],
        [/^counter ?/, () => {}],
        [
          /^log prefix "([^"]*)" group (\d+) ?/,
          (m) => {
            if (ok) logs.push({ prefix: m[1], group: Number(m[2]) });
          },
        ],
        [
          /^meta mark set (0x[0-9a-f]+) ?/,
          (m) => {
            if (ok) mark = Number(m[1]);
          },
        ],
        [/^(jump \S+) ?/, (m) => (verdict = m[1])],
        [/^(accept|drop|reject with icmpx type admin-prohibited) ?/, (m) => (verdict = m[1].split(' ')[0])],
        [/^comment "([^"]*)"$/, (m) => (lineComment = m[1])],
      ];
      while (rest.length > 0) {
        const hit = statements.find(([re]) => re.test(rest));
        if (!hit) throw new Error(`unexpected nft text: ${rest}`);
        const m = hit[0].exec(rest)!;
        rest = rest.slice(m[0].length);
        hit[1](m);
      }
      if (verdict === null && ok) throw new Error(`rule without verdict: ${line}`);
      if (!ok || verdict === null) continue;
      const v: string = verdict;
      if (v.startsWith('jump ')) {
        const result = run(v.slice(5), depth + 1);
        if (result !== null) return result;
        continue;
      }
      comment = lineComment;
      return v;
    }
    return null;
  };

  const decidedIn: string[] = [];
  const hooks = p.local === true ? ['prerouting'] : ['prerouting', 'forward'];
  /** The comment of the rule that decided (not of a later base chain's pass-through). */
  let decidedBy: string | null = null;
  for (const hook of hooks) {
    if (!chains.has(hook)) continue;
    const before = logs.length;
    comment = null;
    const verdict = run(hook, 0) ?? 'accept';
    if (logs.length > before || verdict !== 'accept') {
      decidedIn.push(hook);
      decidedBy ??= comment;
    }
    if (verdict !== 'accept') return { verdict, mark, comment: decidedBy, logs, decidedIn };
  }
  return { verdict: 'accept', mark, comment: decidedBy, logs, decidedIn };
}

export interface HttpRequest {
  src: string;
  /** Host as in the URL (a name or an IPv4 address). */
  host: string;
  /** Path with query. */
  path: string;
  port: number;
  time: number;
}

const SQUID_DAYS = 'SMTWHFA';

/** squid's first match over the include's `http_access` lines. */
export function squidDecide(text: string, req: HttpRequest): 'allow' | 'deny' {
  const acls = new Map<string, { type: string; flags: string[]; values: string[] }[]>();
  const minute = Math.floor((req.time % 86_400_000) / 60_000);
  const day = SQUID_DAYS[(((Math.floor(req.time / 86_400_000) + 4) % 7) + 7) % 7];
  const host = req.host.toLowerCase();
  const matches = (name: string): boolean =>
    (acls.get(name) ?? []).some(({ type, flags, values }) => {
      const icase = flags.includes('-i');
      switch (type) {
        case 'src':
          return values.some((v) => {
            const iv = parseInterval(v)!;
            const a = parseAddress(req.src);
            return a !== null && a.family === iv.family && a.value >= iv.first && a.value <= iv.last;
          });
        case 'dstdomain':
          return values.some((v) =>
            v.startsWith('.') ? host === v.slice(1) || host.endsWith(v) : host === v,
          );
        case 'dstdom_regex':
          return values.some((v) => new RegExp(v, icase ? 'i' : '').test(host));
        case 'urlpath_regex':
          return values.some((v) => new RegExp(v, icase ? 'i' : '').test(req.path));
        case 'port':
          return values.some((v) => {
            const [a, b] = v.split('-').map(Number);
            return req.port >= a && req.port <= (b ?? a);
          });
        case 'time': {
          const [days, span] = values;
          const [a, b] = span.split('-').map((x) => {
            const [h, m] = x.split(':').map(Number);
            return h * 60 + m;
          });
          return days.includes(day) && minute >= a && minute <= b;
        }
        // The rule's annotation (last on its line) always matches; the block-page port is the gateway's.
        case 'annotate_transaction':
          return true;
        case 'myportname':
          return false;
        default:
          throw new Error(`unexpected acl type ${type}`);
      }
    });
  for (const line of text.split('\n')) {
    if (line.startsWith('acl ')) {
      const [, name, type, ...rest] = line.split(' ');
      const flags = rest.filter((x) => x === '-i' || x === '-n');
      const values = rest.filter((x) => x !== '-i' && x !== '-n');
      const list = acls.get(name) ?? [];
      list.push({ type, flags, values });
      acls.set(name, list);
    } else if (line.startsWith('http_access ')) {
      const [, verb, ...names] = line.split(' ');
      const hit = names.every((n) =>
        n === 'all' ? true : n.startsWith('!') ? !matches(n.slice(1)) : matches(n),
      );
      if (hit) return verb as 'allow' | 'deny';
    }
  }
  return 'deny';
}
