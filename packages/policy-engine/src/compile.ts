/**
 * Compilation: turns an {@link EngineInput} into an immutable {@link CompiledPolicy} whose indexes make a
 * decision a few hash probes instead of a scan over the rules (see index.ts for the semantics).
 */
import {
  type Layer,
  type PolicyRule,
  type PolicyType,
  RULE_LAYERS,
  type RuleAction,
  type RuleRef,
  type RuleType,
  SYSTEM_RULE_PREFIXES,
  splitMatcher,
} from '@palisade/contracts';
import { normalizeDomainItem } from './domain';
import { HostIndex, type HostRows } from './host-index';
import { type Net, parseIp, parseNet } from './ip';
import type { CompileOptions, EngineInput, EngineObjects } from './types';

/** Compact codes of the actions (CompiledPolicy.actions). */
export const ACTION_CODES: Record<RuleAction, number> = { allow: 0, block: 1, rewrite: 2, route: 3, qos: 4 };

const EMPTY: readonly never[] = Object.freeze([]);

/** Evaluation order of the layers; the index of a layer in this list is used throughout the engine. */
export const LAYER_ORDER: readonly Layer[] = Object.freeze(['dns', 'network', 'http', 'qos'] as const);
export const DNS = 0;
export const NETWORK = 1;
export const HTTP = 2;
export const QOS = 3;

/**
 * The layers a rule is evaluated in: the QoS layer for every rule of a `qos` policy (and for a rule whose
 * action is `qos`), else the layers of its type (`RULE_LAYERS`: `app` is in DNS and network).
 */
export function layerOf(
  rule: { type: RuleType; action: RuleAction },
  policyType: PolicyType,
): readonly Layer[] {
  if (policyType === 'qos' || rule.action === 'qos') return QOS_ONLY;
  return RULE_LAYERS[rule.type] ?? [];
}

const QOS_ONLY: readonly Layer[] = Object.freeze(['qos'] as const);

/** What a rule matches on, per layer it can match in: the QoS layer matches on every layer of the type. */
export function matchLayersOf(type: RuleType, layer: Layer): readonly Layer[] {
  return layer === 'qos' ? (RULE_LAYERS[type] ?? []) : [layer];
}

/** A policy with its subject sets. */
export interface CompiledPolicyEntry {
  readonly id: string;
  readonly name: string;
  readonly type: PolicyType;
  readonly enabled: boolean;
  readonly system: boolean;
  readonly precedence: number;
  /** appliesTo null: everyone in the tenant. */
  readonly everyone: boolean;
  /** Whether its blocks show the block page (EnginePolicy.blockPage, default true). */
  readonly blockPage: boolean;
  /** Whether the devices it applies to use a full tunnel (EnginePolicy.fullTunnel, default false). */
  readonly fullTunnel: boolean;
  readonly users: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
  readonly devices: ReadonlySet<string>;
}

/** A URL matcher item: `host[/path-prefix]`; host `*` is any host, prefix '' any path. */
export interface UrlItem {
  readonly host: string;
  readonly prefix: string;
  readonly text: string;
}

export interface Schedule {
  /** Bit d set: weekday d (0 = Sunday) is in the schedule. */
  readonly days: number;
  /** Minutes after midnight UTC; the window is [from, to), wrapping midnight when from > to. */
  readonly from: number;
  readonly to: number;
}

/** One rule, compiled. `ordinal` is its position in evaluation order over all policies. */
export interface CompiledRule {
  readonly ordinal: number;
  readonly ref: RuleRef;
  readonly rule: PolicyRule;
  readonly policy: CompiledPolicyEntry;
  /** Policy enabled and rule enabled. */
  readonly active: boolean;
  readonly layers: readonly Layer[];
  readonly type: RuleType;
  readonly action: RuleAction;
  readonly target: string;
  /** The target as an IPv4 address (rewrite to an address), else -1. */
  readonly targetIp: number;
  /** Domains of dmn / SQUID_DMN / DNS_REWRITE (items, then the rule's categories' and feeds' domains). */
  readonly domains: readonly string[];
  /** Where each of `domains` comes from: '' for the matcher itself, else `category:Name` / `feed:Name`. */
  readonly domainOrigins: readonly string[];
  readonly anyHost: boolean;
  /** For `app` rules: the apps' domains (with the app name as origin) and addresses. */
  readonly appDomains: readonly string[];
  readonly appDomainOrigins: readonly string[];
  readonly appNets: readonly Net[];
  readonly appNetOrigins: readonly string[];
  /** ROUTE: networks of the matcher and of the rule's feeds. */
  readonly nets: readonly Net[];
  readonly netOrigins: readonly string[];
  readonly anyIp: boolean;
  /** GEO: upper-case ISO codes. */
  readonly countries: readonly string[];
  readonly anyCountry: boolean;
  readonly urls: readonly UrlItem[];
  /** SQUID_KEYWORD, lower-cased. */
  readonly keywords: readonly string[];
  /** SQUID_FILEEXT, lower-cased without the leading dot. */
  readonly exts: readonly string[];
  /** Source networks of the rule's locations; null when the rule has no location condition. */
  readonly locationNets: readonly Net[] | null;
  /** Port ranges as [from, to] pairs; null when any port. */
  readonly ports: Int32Array | null;
  readonly schedule: Schedule | null;
  readonly hasConditions: boolean;
  /** In the QoS layer: matches only HTTP requests (all its match layers are `http`). */
  readonly httpOnly: boolean;
}

/** Ordinals under one key: a single number when there is one (the common case), else a sorted Int32Array. */
export type Ordinals = number | Int32Array;

/**
 * The indexes of one layer, over the active rules evaluated in it. Domain and URL rules of every layer live
 * in the shared {@link CompiledPolicy.hosts} table, so a host's suffixes are looked up once per decision.
 */
export interface LayerIndex {
  readonly size: number;
  /** Prefix lengths present in `nets`. */
  readonly netLengths: Int32Array;
  /** Per prefix length: (address >>> (32 - p)) → rules. */
  readonly nets: readonly (ReadonlyMap<number, Ordinals> | undefined)[];
  readonly countries: ReadonlyMap<string, Ordinals>;
  readonly exts: ReadonlyMap<string, Ordinals>;
  /** Rules that cannot be indexed (`*`, keywords, dotted extensions): checked one by one. */
  readonly scan: Int32Array;
}

export interface CompiledPolicy {
  readonly rules: readonly CompiledRule[];
  readonly policies: readonly CompiledPolicyEntry[];
  readonly layers: readonly LayerIndex[];
  /** Domain and URL rules of every layer by domain, walked over the host's label suffixes. */
  readonly hosts: HostIndex;
  /**
   * Per ordinal: 1 when the rule is active, applies to everyone, has no conditions and is not HTTP-only —
   * a matcher hit then decides without looking at the rule object.
   */
  readonly simple: Uint8Array;
  /** Per ordinal: the rule reference and action code (ACTION_CODES), so a decision need not load the rule. */
  readonly refs: readonly RuleRef[];
  readonly actions: Uint8Array;
  readonly objects: EngineObjects;
  readonly lookupCountry: ((ip: string) => string | null) | null;
  /** Some active rule has a location condition (the source address must be parsed). */
  readonly needsSource: boolean;
  readonly stats: {
    readonly policies: number;
    readonly rules: number;
    readonly activeRules: number;
    readonly indexKeys: number;
    readonly scanRules: number;
  };
  /** Lazily built look-up for explain (categories and apps of a host); not part of the decision structure. */
  readonly memo: { membership?: Map<string, { categories: string[]; apps: string[] }> };
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

function parseMinutes(s: string): number {
  const m = HHMM.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : -1;
}

/** Parses a port list (`80, 443, 8000-8080`) into [from, to] pairs; invalid entries are dropped. */
export function parsePorts(text: string): Int32Array | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const out: number[] = [];
  for (const raw of trimmed.split(',')) {
    const item = raw.trim();
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(item);
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > 65535 || from > to) continue;
    out.push(from, to);
  }
  return Int32Array.from(out);
}

/** Parses a URL matcher item: scheme stripped, host normalised, the rest is the case-sensitive path prefix. */
export function parseUrlItem(item: string): UrlItem | null {
  const text = item.trim();
  const s = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const slash = s.indexOf('/');
  const hostPart = slash < 0 ? s : s.slice(0, slash);
  let prefix = slash < 0 ? '' : s.slice(slash);
  if (prefix === '/') prefix = '';
  // A port in the item is not part of the host name.
  const host = normalizeDomainItem(hostPart.replace(/:\d+$/, ''));
  if (host === null) return null;
  return { host, prefix, text };
}

/** Normalises a file extension item (`.EXE` → `exe`). */
export function normalizeExt(item: string): string | null {
  const s = item
    .trim()
    .toLowerCase()
    .replace(/^\*?\.+/, '');
  return s.length > 0 ? s : null;
}

class Builder {
  private readonly temp = new Map<string, number[]>();
  add(key: string, ordinal: number) {
    const list = this.temp.get(key);
    if (list === undefined) this.temp.set(key, [ordinal]);
    else if (list[list.length - 1] !== ordinal) list.push(ordinal);
  }
  build<K>(mapKey: (k: string) => K): Map<K, Ordinals> {
    const out = new Map<K, Ordinals>();
    for (const [k, list] of this.temp)
      out.set(mapKey(k), list.length === 1 ? list[0] : Int32Array.from(list));
    return out;
  }
  get size() {
    return this.temp.size;
  }
}

class LayerBuilder {
  size = 0;
  readonly nets: (Builder | undefined)[] = [];
  readonly countries = new Builder();
  readonly exts = new Builder();
  readonly scan: number[] = [];

  addScan(ordinal: number) {
    if (this.scan[this.scan.length - 1] !== ordinal) this.scan.push(ordinal);
  }
  addNet(net: Net, ordinal: number) {
    let b = this.nets[net.prefix];
    if (b === undefined) {
      b = new Builder();
      this.nets[net.prefix] = b;
    }
    b.add(String(net.prefix === 0 ? 0 : net.network >>> (32 - net.prefix)), ordinal);
  }
  build(): LayerIndex {
    const lengths: number[] = [];
    const nets: (ReadonlyMap<number, Ordinals> | undefined)[] = [];
    for (let p = 32; p >= 0; p--) {
      const b = this.nets[p];
      if (b !== undefined) {
        lengths.push(p);
        nets[p] = b.build(Number);
      }
    }
    return {
      size: this.size,
      netLengths: Int32Array.from(lengths),
      nets,
      countries: this.countries.build((k) => k),
      exts: this.exts.build((k) => k),
      scan: Int32Array.from(this.scan),
    };
  }
  get keys() {
    let n = this.countries.size + this.exts.size;
    for (const b of this.nets) if (b) n += b.size;
    return n;
  }
}

/**
 * Decisions read host names character by character (`charCodeAt`, `startsWith`), and V8 looks those methods
 * up on String.prototype. A `class … extends String` anywhere in the process (ioredis has one, so the server
 * does) normalises String.prototype into dictionary mode for good, which makes each such call a hash lookup:
 * decisions measured 2-3x slower. Enumerating its keys (there are no enumerable ones, so the loop body
 * never runs) rebuilds it as a fast object; it changes nothing observable. Done at every compile, so a
 * library loaded after this module cannot leave it slow for long.
 */
function keepStringPrototypeFast() {
  for (const key in String.prototype) void key;
}

/**
 * Compiles policies and objects into the immutable structure {@link decide} and {@link explain} run on.
 * Disabled policies and rules are kept (explain traces them) but are not indexed.
 */
export function compile(input: EngineInput, options: CompileOptions = {}): CompiledPolicy {
  keepStringPrototypeFast();
  const objects = input.objects;
  const categories = new Map(objects.categories.map((c) => [c.id, c]));
  const feeds = new Map(objects.feeds.map((f) => [f.id, f]));
  const apps = new Map(objects.apps.map((a) => [a.appid, a]));
  const locations = new Map(objects.locations.map((l) => [l.id, l]));
  const maps: ObjectMaps = { categories, feeds, apps, locations };

  const sortedPolicies = [...input.policies].sort((a, b) =>
    a.precedence !== b.precedence ? a.precedence - b.precedence : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const policies: CompiledPolicyEntry[] = [];
  const rules: CompiledRule[] = [];
  const layerBuilders = LAYER_ORDER.map(() => new LayerBuilder());
  const hostRows = new Map<string, HostRows>();
  const hostFilers = LAYER_ORDER.map((_, index) => new HostFiler(hostRows, index));
  let needsSource = false;
  let activeRules = 0;

  for (const p of sortedPolicies) {
    const policy: CompiledPolicyEntry = Object.freeze({
      id: p.id,
      name: p.name,
      type: p.type,
      enabled: p.enabled,
      system: p.system === true,
      precedence: p.precedence,
      everyone: p.appliesTo == null,
      blockPage: p.blockPage !== false,
      fullTunnel: p.fullTunnel === true,
      users: new Set(p.appliesTo?.users ?? []),
      groups: new Set(p.appliesTo?.groups ?? []),
      devices: new Set(p.appliesTo?.devices ?? []),
    });
    policies.push(policy);
    for (const rule of p.rules) {
      const compiled = compileRule(rule, policy, rules.length, maps);
      rules.push(compiled);
      if (!compiled.active) continue;
      activeRules++;
      if (compiled.locationNets !== null) needsSource = true;
      for (const layer of compiled.layers) {
        const index = LAYER_ORDER.indexOf(layer);
        indexRule(compiled, layer, layerBuilders[index], hostFilers[index]);
      }
    }
  }
  const layers = layerBuilders.map((b) => Object.freeze(b.build()));
  const simple = Uint8Array.from(rules, (r) =>
    r.active && r.policy.everyone && !r.hasConditions && !r.httpOnly ? 1 : 0,
  );
  return Object.freeze({
    rules: Object.freeze(rules),
    policies: Object.freeze(policies),
    layers: Object.freeze(layers),
    hosts: new HostIndex(hostRows, simple),
    simple,
    refs: Object.freeze(rules.map((r) => r.ref)),
    actions: Uint8Array.from(rules, (r) => ACTION_CODES[r.action]),
    objects,
    lookupCountry: options.lookupCountry ?? null,
    needsSource,
    stats: Object.freeze({
      policies: policies.length,
      rules: rules.length,
      activeRules,
      indexKeys: hostRows.size + layerBuilders.reduce((n, b) => n + b.keys, 0),
      scanRules: layerBuilders.reduce((n, b) => n + b.scan.length, 0),
    }),
    memo: {},
  });
}

interface ObjectMaps {
  categories: Map<string, EngineObjects['categories'][number]>;
  feeds: Map<string, EngineObjects['feeds'][number]>;
  apps: Map<string, EngineObjects['apps'][number]>;
  locations: Map<string, EngineObjects['locations'][number]>;
}

/** `splitMatcher` of the contracts, without its three array passes for the usual single item. */
function matcherItems(value: string): string[] {
  if (!/[;,\n]/.test(value)) {
    const item = value.trim();
    return item === '' ? [] : [item];
  }
  return splitMatcher(value);
}

const SYSTEM_PREFIXES = SYSTEM_RULE_PREFIXES.map((p) => p.toLowerCase());
/** `isSystemRule` of the contracts, with the prefixes lower-cased once. */
function isSystem(rule: PolicyRule): boolean {
  if (rule.issysgen === true) return true;
  const name = rule.name.trim().toLowerCase();
  for (const p of SYSTEM_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

/** Appends to a list that may still be the shared empty one (most rules use two or three of the lists). */
function push<T>(list: readonly T[], item: T): readonly T[] {
  if (list === EMPTY) return [item]; // an exact-size literal: most lists stay at one entry
  (list as T[]).push(item);
  return list;
}

function compileRule(
  rule: PolicyRule,
  policy: CompiledPolicyEntry,
  ordinal: number,
  maps: ObjectMaps,
): CompiledRule {
  const items = matcherItems(rule.url ?? '');
  let domains: readonly string[] = EMPTY;
  let domainOrigins: readonly string[] = EMPTY;
  let anyHost = false;
  let appDomains: readonly string[] = EMPTY;
  let appDomainOrigins: readonly string[] = EMPTY;
  let appNets: readonly Net[] = EMPTY;
  let appNetOrigins: readonly string[] = EMPTY;
  let nets: readonly Net[] = EMPTY;
  let netOrigins: readonly string[] = EMPTY;
  let anyIp = false;
  let countries: readonly string[] = EMPTY;
  let anyCountry = false;
  let urls: readonly UrlItem[] = EMPTY;
  let keywords: readonly string[] = EMPTY;
  let exts: readonly string[] = EMPTY;

  const type = rule.type;
  if (type === 'dmn' || type === 'SQUID_DMN' || type === 'DNS_REWRITE') {
    const sources: [readonly string[], string][] = [[items, '']];
    if (type !== 'DNS_REWRITE' && (rule.categories?.length || rule.feeds?.length)) {
      for (const id of rule.categories ?? []) {
        const c = maps.categories.get(id);
        if (c) sources.push([c.domains, `category:${c.name}`]);
      }
      for (const id of rule.feeds ?? []) {
        const f = maps.feeds.get(id);
        if (f) sources.push([f.domains, `feed:${f.name}`]);
      }
    }
    for (const [list, origin] of sources) {
      for (const raw of list) {
        const d = normalizeDomainItem(raw);
        if (d === null) continue;
        if (d === '*') anyHost = true;
        else {
          // Origins stay the shared empty list while every domain comes from the matcher itself ('').
          if (origin !== '' && domainOrigins.length < domains.length) {
            domainOrigins = domains.map(() => '');
          }
          domains = push(domains, d);
          if (domainOrigins.length > 0 || origin !== '') domainOrigins = push(domainOrigins, origin);
        }
      }
    }
  } else if (type === 'app') {
    for (const id of items) {
      const a = maps.apps.get(id);
      if (!a) continue;
      const origin = `app:${a.appname}`;
      for (const raw of a.domains) {
        const d = normalizeDomainItem(raw);
        // `*` as an app domain would make the app every host: not a meaningful app entry, ignored.
        if (d !== null && d !== '*') {
          appDomains = push(appDomains, d);
          appDomainOrigins = push(appDomainOrigins, origin);
        }
      }
      for (const raw of a.ips) {
        const n = parseNet(raw);
        if (n) {
          appNets = push(appNets, n);
          appNetOrigins = push(appNetOrigins, origin);
        }
      }
    }
  } else if (type === 'ROUTE') {
    const sources: [readonly string[], string][] = [[items, '']];
    for (const id of rule.feeds ?? []) {
      const f = maps.feeds.get(id);
      if (f) sources.push([f.ips, `feed:${f.name}`]);
    }
    for (const [list, origin] of sources) {
      for (const item of list) {
        const n = item === '*' ? null : parseNet(item);
        if (item === '*' || n?.prefix === 0) anyIp = true;
        else if (n) {
          nets = push(nets, n);
          netOrigins = push(netOrigins, origin);
        }
      }
    }
  } else if (type === 'GEO') {
    for (const item of items) {
      if (item === '*') anyCountry = true;
      else countries = push(countries, item.toUpperCase());
    }
  } else if (type === 'url') {
    for (const item of items) {
      const u = parseUrlItem(item);
      if (u) urls = push(urls, u);
    }
  } else if (type === 'SQUID_KEYWORD') {
    for (const item of items) keywords = push(keywords, item.toLowerCase());
  } else if (type === 'SQUID_FILEEXT') {
    for (const item of items) {
      const e = normalizeExt(item);
      if (e) exts = push(exts, e);
    }
  }

  let locationNets: Net[] | null = null;
  if ((rule.locations ?? []).length > 0) {
    locationNets = [];
    for (const id of rule.locations) {
      const l = maps.locations.get(id);
      if (!l) continue;
      for (const raw of l.networks) {
        const n = parseNet(raw);
        if (n) locationNets.push(n);
      }
    }
  }
  const ports = rule.ports ? parsePorts(rule.ports) : null;
  let schedule: Schedule | null = null;
  if (rule.schedule) {
    let days = 0;
    for (const d of rule.schedule.days) if (d >= 0 && d <= 6) days |= 1 << d;
    schedule = Object.freeze({
      days,
      from: parseMinutes(rule.schedule.from),
      to: parseMinutes(rule.schedule.to),
    });
  }
  const layers = layerOf(rule, policy.type);
  // Only the QoS layer mixes HTTP and non-HTTP matching; the HTTP layer itself runs only with a path.
  const typeLayers = RULE_LAYERS[type] ?? EMPTY;
  const httpOnly = layers === QOS_ONLY && typeLayers.length > 0 && typeLayers.every((l) => l === 'http');
  const ref: RuleRef = Object.freeze({
    policyId: policy.id,
    policyName: policy.name,
    ruleId: rule.id,
    ruleName: rule.name,
    type,
    action: rule.action,
    system: policy.system || isSystem(rule),
  });
  const target = rule.target ?? '';
  return {
    ordinal,
    ref,
    rule,
    policy,
    active: policy.enabled && rule.enabled,
    layers,
    type,
    action: rule.action,
    target,
    targetIp: target === '' ? -1 : parseIp(target.trim()),
    domains,
    domainOrigins,
    anyHost,
    appDomains,
    appDomainOrigins,
    appNets,
    appNetOrigins,
    nets,
    netOrigins,
    anyIp,
    countries,
    anyCountry,
    urls,
    keywords,
    exts,
    locationNets,
    ports,
    schedule,
    hasConditions: locationNets !== null || ports !== null || schedule !== null,
    httpOnly,
  };
}

/** Files domain and URL rules of one layer under their domains. */
class HostFiler {
  constructor(
    private readonly rows: Map<string, HostRows>,
    private readonly layer: number,
  ) {}
  private row(key: string) {
    let r = this.rows.get(key);
    if (r === undefined) {
      r = { domains: [], urls: null };
      this.rows.set(key, r);
    }
    return r;
  }
  domain(key: string, ordinal: number) {
    const entry = ordinal * 4 + this.layer;
    const r = this.rows.get(key);
    if (r === undefined) this.rows.set(key, { domains: [entry], urls: null });
    else if (r.domains[r.domains.length - 1] !== entry) r.domains.push(entry);
  }
  url(item: UrlItem, ordinal: number) {
    const row = this.row(item.host);
    row.urls ??= [];
    row.urls.push({ layer: this.layer, ordinal, prefix: item.prefix });
  }
}

/** Adds a rule's matcher items to the indexes of `layer` (for QoS: of every layer its type matches in). */
function indexRule(r: CompiledRule, layer: Layer, b: LayerBuilder, hosts: HostFiler) {
  b.size++;
  const o = r.ordinal;
  for (const ml of matchLayersOf(r.type, layer)) {
    switch (r.type) {
      case 'dmn':
      case 'DNS_REWRITE':
      case 'SQUID_DMN':
        if (r.anyHost) b.addScan(o);
        for (const d of r.domains) hosts.domain(d, o);
        break;
      case 'app':
        if (ml === 'dns') for (const d of r.appDomains) hosts.domain(d, o);
        else for (const n of r.appNets) b.addNet(n, o);
        break;
      case 'ROUTE':
        if (r.anyIp) b.addScan(o);
        for (const n of r.nets) b.addNet(n, o);
        break;
      case 'GEO':
        if (r.anyCountry) b.addScan(o);
        for (const c of r.countries) b.countries.add(c, o);
        break;
      case 'url':
        for (const u of r.urls) {
          if (u.host === '*') b.addScan(o);
          else hosts.url(u, o);
        }
        break;
      case 'SQUID_KEYWORD':
        if (r.keywords.length) b.addScan(o);
        break;
      case 'SQUID_FILEEXT':
        for (const e of r.exts) {
          if (e.includes('.')) b.addScan(o);
          else b.exts.add(e, o);
        }
        break;
    }
  }
}
