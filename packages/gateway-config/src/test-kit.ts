/**
 * For the tests: small evaluators that read the generated TEXT (not the generators' internals) the way the
 * tools do — an RPZ resolver (exact name, else the longest wildcard), nftables' first match over the forward
 * chain, squid's first match over `http_access` — so a test can compare the artefacts' decisions with
 * `decide()`. They understand only what the generators write.
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

/** The verdict of the generated forward chain for a NEW connection: accept, drop, reject; and the mark set. */
export function nftDecide(
  text: string,
  p: Packet,
): { verdict: string; mark: number | null; comment: string | null } {
  const sets = new Map<string, string[]>();
  const lines = text.split('\n').map((l) => l.trim());
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^set (\S+) \{$/.exec(lines[i]);
    if (!m) {
      if (lines[i] === 'chain forward {') break;
      continue;
    }
    const elements: string[] = [];
    for (i++; lines[i] !== '}'; i++) {
      if (lines[i].startsWith('elements') || lines[i].startsWith('type') || lines[i].startsWith('flags'))
        continue;
      elements.push(
        ...lines[i]
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
    }
    sets.set(m[1], elements);
  }
  const inSet = (name: string, ip: string) =>
    (sets.get(name) ?? []).some((e) => {
      const iv = parseInterval(e)!;
      const a = parseAddress(ip);
      return a !== null && a.family === iv.family && a.value >= iv.first && a.value <= iv.last;
    });
  const day = DAY_NAMES[(((Math.floor(p.time / 86_400_000) + 4) % 7) + 7) % 7];
  const second = Math.floor((p.time % 86_400_000) / 1000);
  const srcFamily = parseAddress(p.src)?.family;
  for (i++; i < lines.length && lines[i] !== '}'; i++) {
    const line = lines[i];
    if (line.startsWith('#') || line.startsWith('type filter') || line.startsWith('ct state')) continue;
    let rest = line;
    let ok = true;
    let verdict: string | null = null;
    let mark: number | null = null;
    let comment: string | null = null;
    const unquoted = (list: string) => listOf(list).map((x) => x.replaceAll('"', ''));
    /** Each statement the generator writes, and what it does to this packet. */
    const statements: [RegExp, (m: RegExpExecArray) => void][] = [
      [/^iifname != (\{[^}]*\}) ?/, (m) => (ok &&= !unquoted(m[1]).includes(p.iif ?? ''))],
      [/^ip saddr @(\S+) ?/, (m) => (ok &&= srcFamily === 4 && inSet(m[1], p.src))],
      [/^ip6 saddr @(\S+) ?/, (m) => (ok &&= srcFamily === 6 && inSet(m[1], p.src))],
      [/^ip daddr @(\S+) ?/, (m) => (ok &&= inSet(m[1], p.dst))],
      [/^meta l4proto (\{[^}]*\}) ?/, (m) => (ok &&= listOf(m[1]).includes(p.proto))],
      [
        /^th dport (\{[^}]*\}|\S+) ?/,
        (m) => {
          const port = p.port;
          ok &&=
            port !== undefined &&
            listOf(m[1]).some((x) => {
              const [a, b] = x.split('-').map(Number);
              return port >= a && port <= (b ?? a);
            });
        },
      ],
      [/^meta day (\{[^}]*\}|"\w+") ?/, (m) => (ok &&= unquoted(m[1]).includes(day))],
      [
        /^meta hour (\{[^}]*\}|"[^"]*"-"[^"]*") ?/,
        (m) => {
          ok &&= listOf(m[1]).some((x) => {
            const [a, b] = x.replaceAll('"', '').split('-');
            return second >= seconds(a) && second <= seconds(b);
          });
        },
      ],
      [/^counter ?/, () => {}],
      [/^meta mark set (0x[0-9a-f]+) ?/, (m) => (mark = Number(m[1]))],
      [/^(accept|drop|reject with icmpx type admin-prohibited) ?/, (m) => (verdict = m[1].split(' ')[0])],
      [/^comment "([^"]*)"$/, (m) => (comment = m[1])],
    ];
    while (rest.length > 0) {
      const hit = statements.find(([re]) => re.test(rest));
      if (!hit) throw new Error(`unexpected nft text: ${rest}`);
      const m = hit[0].exec(rest)!;
      rest = rest.slice(m[0].length);
      hit[1](m);
    }
    if (verdict === null) throw new Error(`rule without verdict: ${line}`);
    if (ok) return { verdict, mark, comment };
  }
  return { verdict: 'accept', mark: null, comment: null };
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
