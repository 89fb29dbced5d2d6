/**
 * The per-request context both paths share, and the rule predicates on it. `decide` reuses one scratch
 * context (decisions are synchronous), `explain` makes its own.
 */
import type { CompiledPolicy, CompiledPolicyEntry, CompiledRule } from './compile';
import { DNS, HTTP, LAYER_ORDER, matchLayersOf, NETWORK } from './compile';
import { labelSuffixMatch } from './domain';
import { MAX_LABELS } from './host-index';
import { inNet, parseIp } from './ip';
import type { EngineRequest } from './types';

export interface Ctx {
  userId: string | null;
  groups: readonly string[] | null;
  deviceId: string | null;
  host: string | null;
  path: string | null;
  /** Destination address (after a DNS rewrite to an address), -1 when unknown. */
  ip: number;
  ipText: string | null;
  port: number;
  source: number;
  sourceText: string | null;
  time: number;
  /** Lazily computed: weekday (0 = Sunday) and minute of the day, UTC; -1 before. */
  day: number;
  minute: number;
  /** Lazily computed destination country; `countryDone` says whether it was. */
  country: string | null;
  countryDone: boolean;
  countryOverride: string | null | undefined;
  lookup: ((ip: string) => string | null) | null;
  /** Lazily computed: path lower-cased, last path segment lower-cased, its extension. */
  pathLower: string | null;
  segment: string | null;
  ext: string | null;
  pathDone: boolean;
  /** Host index entries of the host's label suffixes, collected once per decision. */
  hits: Int32Array;
  hitCount: number;
}

export function newCtx(): Ctx {
  return {
    userId: null,
    groups: null,
    deviceId: null,
    host: null,
    path: null,
    ip: -1,
    ipText: null,
    port: -1,
    source: -1,
    sourceText: null,
    time: 0,
    day: -1,
    minute: -1,
    country: null,
    countryDone: false,
    countryOverride: undefined,
    lookup: null,
    pathLower: null,
    segment: null,
    ext: null,
    pathDone: false,
    hits: new Int32Array(MAX_LABELS),
    hitCount: 0,
  };
}

/** Fills `ctx` from a request: normalises the host (lower case, no trailing dot; an IPv4 host is an address). */
export function prepare(c: CompiledPolicy, req: EngineRequest, ctx: Ctx): Ctx {
  ctx.userId = req.userId ?? null;
  ctx.groups = req.groups ?? null;
  ctx.deviceId = req.deviceId ?? null;
  let host = req.host ?? null;
  let ipText = req.ip ?? null;
  let ip = ipText === null ? -1 : parseIp(ipText);
  if (host !== null) {
    const n = host.length;
    if (n > 0 && host.charCodeAt(n - 1) === 46) host = host.slice(0, -1);
    if (host.length === 0) host = null;
    else {
      const last = host.charCodeAt(host.length - 1);
      if (last >= 48 && last <= 57) {
        const hostIp = parseIp(host);
        if (hostIp >= 0) {
          if (ip < 0) {
            ip = hostIp;
            ipText = host;
          }
          host = null;
        }
      }
    }
  }
  ctx.host = host;
  ctx.path = req.path ?? null;
  ctx.ip = ip;
  ctx.ipText = ip < 0 ? null : ipText;
  const port = req.port;
  ctx.port = typeof port === 'number' && port >= 0 ? port : -1;
  if (c.needsSource) {
    ctx.sourceText = req.sourceIp ?? null;
    ctx.source = parseIp(ctx.sourceText);
  } else {
    ctx.sourceText = req.sourceIp ?? null;
    ctx.source = -1;
  }
  ctx.time = req.time ?? Number.NaN;
  ctx.day = -1;
  ctx.minute = -1;
  ctx.countryOverride = req.destinationCountry;
  ctx.country = null;
  ctx.countryDone = false;
  ctx.lookup = c.lookupCountry;
  ctx.pathDone = false;
  ctx.pathLower = null;
  ctx.segment = null;
  ctx.ext = null;
  ctx.hitCount = 0;
  if (host !== null) {
    if (c.hosts.size > 0) {
      // A host has at most (length + 1) / 2 labels; names beyond the DNS limit get a scratch of their own.
      if (host.length >= ctx.hits.length * 2) ctx.hits = new Int32Array((host.length >> 1) + 1);
      // collect() also finds out whether the host needs lower-casing (rare: parseDestination already does).
      let count = c.hosts.collect(host, ctx.hits, false);
      if (count < 0) {
        host = host.toLowerCase();
        count = c.hosts.collect(host, ctx.hits, true);
      }
      ctx.hitCount = count;
    } else host = lower(host);
    ctx.host = host;
  }
  return ctx;
}

/** Lower-cases a host, without calling toLowerCase() for the usual already-lower-case name. */
function lower(host: string): string {
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return host.toLowerCase();
  }
  return host;
}

/** Sets the destination address after a DNS rewrite to an address; the country follows the new address. */
export function rewriteIp(ctx: Ctx, ip: number, text: string) {
  ctx.ip = ip;
  ctx.ipText = text;
  ctx.countryDone = false;
}

/** The destination country: the request's override, else the GeoIP look-up of the address; upper case. */
export function countryOf(ctx: Ctx): string | null {
  if (ctx.countryDone) return ctx.country;
  let cc: string | null = null;
  if (ctx.countryOverride !== undefined && ctx.countryOverride !== null) cc = ctx.countryOverride;
  else if (ctx.ipText !== null && ctx.lookup !== null) cc = ctx.lookup(ctx.ipText);
  ctx.country = cc ? cc.toUpperCase() : null;
  ctx.countryDone = true;
  return ctx.country;
}

function preparePath(ctx: Ctx) {
  ctx.pathDone = true;
  const path = ctx.path;
  if (path === null) return;
  ctx.pathLower = path.toLowerCase();
  let end = path.length;
  const q = path.indexOf('?');
  if (q >= 0) end = q;
  const h = path.indexOf('#');
  if (h >= 0 && h < end) end = h;
  const slash = path.lastIndexOf('/', end - 1);
  const segment = path.slice(slash + 1, end).toLowerCase();
  ctx.segment = segment;
  const dot = segment.lastIndexOf('.');
  ctx.ext = dot >= 0 && dot < segment.length - 1 ? segment.slice(dot + 1) : null;
}

/** The extension of the last path segment before `?`/`#`, lower-cased; null when none. */
export function extOf(ctx: Ctx): string | null {
  if (!ctx.pathDone) preparePath(ctx);
  return ctx.ext;
}
export function pathLowerOf(ctx: Ctx): string | null {
  if (!ctx.pathDone) preparePath(ctx);
  return ctx.pathLower;
}
export function segmentOf(ctx: Ctx): string | null {
  if (!ctx.pathDone) preparePath(ctx);
  return ctx.segment;
}

function ensureTime(ctx: Ctx) {
  const t = Number.isFinite(ctx.time) ? ctx.time : Date.now();
  const days = Math.floor(t / 86_400_000);
  ctx.day = (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  ctx.minute = Math.floor((t - days * 86_400_000) / 60_000);
}

/** Whether the policy applies to the request's subject: everyone, or the user, one of the groups, the device. */
export function subjectOk(p: CompiledPolicyEntry, ctx: Ctx): boolean {
  if (p.everyone) return true;
  if (ctx.userId !== null && p.users.has(ctx.userId)) return true;
  if (ctx.deviceId !== null && p.devices.has(ctx.deviceId)) return true;
  const g = ctx.groups;
  if (g !== null) for (let i = 0; i < g.length; i++) if (p.groups.has(g[i])) return true;
  return false;
}

/** The first condition that fails (`location`, `port`, `schedule`), or null when all pass. */
export function failedCondition(r: CompiledRule, ctx: Ctx): 'location' | 'port' | 'schedule' | null {
  const nets = r.locationNets;
  if (nets !== null) {
    const src = ctx.source >= 0 ? ctx.source : parseIp(ctx.sourceText);
    let ok = false;
    if (src >= 0) {
      for (let i = 0; i < nets.length; i++) {
        if (inNet(src, nets[i])) {
          ok = true;
          break;
        }
      }
    }
    if (!ok) return 'location';
  }
  const ports = r.ports;
  if (ports !== null) {
    const port = ctx.port;
    let ok = false;
    if (port >= 0) {
      for (let i = 0; i < ports.length; i += 2) {
        if (port >= ports[i] && port <= ports[i + 1]) {
          ok = true;
          break;
        }
      }
    }
    if (!ok) return 'port';
  }
  const s = r.schedule;
  if (s !== null) {
    if (ctx.day < 0) ensureTime(ctx);
    if ((s.days & (1 << ctx.day)) === 0) return 'schedule';
    const m = ctx.minute;
    const inWindow =
      s.from < s.to ? m >= s.from && m < s.to : s.from > s.to ? m >= s.from || m < s.to : false;
    if (!inWindow) return 'schedule';
  }
  return null;
}

/** Subject, HTTP-only and conditions of a rule whose matcher already matched. */
export function passes(r: CompiledRule, ctx: Ctx): boolean {
  if (!r.policy.everyone && !subjectOk(r.policy, ctx)) return false;
  if (r.httpOnly && ctx.path === null) return false;
  return !r.hasConditions || failedCondition(r, ctx) === null;
}

function firstDomain(host: string, domains: readonly string[], origins: readonly string[]): string | null {
  for (let i = 0; i < domains.length; i++) {
    if (labelSuffixMatch(host, domains[i])) return origins[i] ? `${domains[i]} (${origins[i]})` : domains[i];
  }
  return null;
}

/**
 * The matcher of a rule in one layer, item by item: returns the matched item (for the trace), or null.
 * This is the reference the indexes must agree with; decide() uses it for the scan lists only.
 */
export function matchItem(r: CompiledRule, layer: number, ctx: Ctx): string | null {
  const matchLayers = matchLayersOf(r.type, LAYER_ORDER[layer]);
  for (let i = 0; i < matchLayers.length; i++) {
    const found = matchIn(r, LAYER_ORDER.indexOf(matchLayers[i]), ctx);
    if (found !== null) return found;
  }
  return null;
}

function matchIn(r: CompiledRule, layer: number, ctx: Ctx): string | null {
  const host = ctx.host;
  switch (r.type) {
    case 'dmn':
    case 'DNS_REWRITE':
    case 'SQUID_DMN':
      if (host === null || (layer === HTTP && ctx.path === null)) return null;
      if (r.anyHost) return '*';
      return firstDomain(host, r.domains, r.domainOrigins);
    case 'app':
      if (layer === DNS) return host === null ? null : firstDomain(host, r.appDomains, r.appDomainOrigins);
      if (layer === NETWORK && ctx.ip >= 0) {
        for (let i = 0; i < r.appNets.length; i++) {
          if (inNet(ctx.ip, r.appNets[i])) return `${r.appNets[i].text} (${r.appNetOrigins[i]})`;
        }
      }
      return null;
    case 'ROUTE':
      if (r.anyIp) return '*';
      if (ctx.ip < 0) return null;
      for (let i = 0; i < r.nets.length; i++) {
        if (inNet(ctx.ip, r.nets[i]))
          return r.netOrigins[i] ? `${r.nets[i].text} (${r.netOrigins[i]})` : r.nets[i].text;
      }
      return null;
    case 'GEO': {
      if (r.anyCountry) return '*';
      const cc = countryOf(ctx);
      return cc !== null && r.countries.includes(cc) ? cc : null;
    }
    case 'url': {
      const path = ctx.path;
      if (host === null || path === null) return null;
      for (const u of r.urls) {
        if ((u.host === '*' || labelSuffixMatch(host, u.host)) && path.startsWith(u.prefix)) return u.text;
      }
      return null;
    }
    case 'SQUID_KEYWORD': {
      const p = pathLowerOf(ctx);
      if (p === null) return null;
      for (const k of r.keywords) if (p.includes(k)) return k;
      return null;
    }
    case 'SQUID_FILEEXT': {
      const seg = segmentOf(ctx);
      if (seg === null) return null;
      const ext = extOf(ctx);
      for (const e of r.exts) {
        if (e.includes('.') ? seg.endsWith(`.${e}`) && seg.length > e.length + 1 : e === ext) return e;
      }
      return null;
    }
  }
  return null;
}
