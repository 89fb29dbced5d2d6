/**
 * Policy engine benchmark: Palisade `decide()` against AdGuard tsurlfilter on the same rules and requests,
 * with a bare `Set.has` over the host's label suffixes as the floor.
 *
 * For 100, 10 000 and 100 000 rules: deterministic domain rules (`dmn`, ~70 % block / 30 % allow, on random
 * but realistic domains) and URL rules (`url`, `host/path-prefix`, block) — ~80 / 20 — and the same rules for
 * tsurlfilter (`||domain^`, `@@||domain^`, `||host/path`). 100 000 deterministic requests: ~30 % hits on
 * subdomains of rule domains (or under a URL rule's path), ~70 % misses.
 *
 * Fairness: both engines get their requests pre-parsed outside the timed loop — Palisade an
 * `EngineRequest` (`host`, `path`, `port`), tsurlfilter a `Request` object (its constructor parses the URL
 * and computes the hostname and domain). Rows "from URL" include the parsing (`parseDestination()` /
 * `new Request()`) in the loop for both. tsurlfilter keeps its own 500-entry LRU result cache on (its normal
 * behaviour); the request set has 100 000 distinct URLs walked in order, so it barely hits.
 *
 * Each case warms up with one pass over the requests, then loops over them for at least 1 s
 * (process.hrtime.bigint); the CPU column divides the process's CPU time instead of wall time, which is
 * steadier on a shared machine. Compile times are the median of three compiles; heap sizes are the
 * retained heap of one compiled engine after a forced GC (V8 flag set at run time).
 *
 * Run alone: `node --import tsx bench/policy-engine.ts` (BENCH_RULES=100,10000 to pick sizes).
 */

import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as T from '@adguard/tsurlfilter';
import type { PolicyRule } from '@palisade/contracts';
import {
  compile,
  decide,
  type EnginePolicy,
  type EngineRequest,
  parseDestination,
} from '@palisade/policy-engine';

const REQUESTS = 100_000;
const MIN_NS = 1_000_000_000n;

/** mulberry32: a tiny deterministic PRNG, so every run benches the same rules and requests. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = (
  'ka ro mi te lu na so vi de pa ri go ne ba mo zu fi la co ta ve ni pu sa li do me ru ho ke ' +
  'tra ble stor clou net web shop blog news mail data soft tech link hub media game play'
).split(' ');
const TLDS = [
  'com',
  'com',
  'com',
  'net',
  'org',
  'io',
  'de',
  'co.uk',
  'info',
  'app',
  'xyz',
  'fr',
  'ru',
  'com.br',
];
const SUBDOMAINS = ['www', 'api', 'cdn', 'm', 'img', 'static', 'eu.edge', 'a1.b2.c3', 'login', 'assets'];
const PATHS = ['ads', 'track', 'banner', 'promo', 'pixel', 'collect', 'beacon', 'popup', 'analytics', 'tag'];

function domainFactory(random: () => number) {
  const pick = <X>(xs: readonly X[]) => xs[Math.floor(random() * xs.length)];
  return () => {
    const n = 2 + Math.floor(random() * 3);
    let name = '';
    for (let i = 0; i < n; i++) name += pick(SYLLABLES);
    if (random() < 0.15) name += `-${pick(SYLLABLES)}`;
    if (random() < 0.1) name += Math.floor(random() * 100);
    return `${name}.${pick(TLDS)}`;
  };
}

interface Dataset {
  policies: EnginePolicy[];
  filterText: string;
  ruleDomains: string[];
  urls: string[];
  /** Whether request i only concerns domain rules or no rule (the agreement check uses those). */
  domainOnly: boolean[];
}

export function makeDataset(ruleCount: number): Dataset {
  const random = prng(0xc0ffee + ruleCount);
  const nextDomain = domainFactory(random);
  const pick = <X>(xs: readonly X[]) => xs[Math.floor(random() * xs.length)];
  const used = new Set<string>();
  const fresh = () => {
    for (;;) {
      const d = nextDomain();
      if (!used.has(d)) {
        used.add(d);
        return d;
      }
    }
  };
  const rules: PolicyRule[] = [];
  const lines: string[] = [];
  const domainRules: { domain: string; block: boolean }[] = [];
  const urlRules: { host: string; prefix: string }[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const base = {
      id: `r${i}`,
      name: `Rule ${i}`,
      target: '',
      ports: '',
      categories: [],
      feeds: [],
      locations: [],
      schedule: null,
      enabled: true,
      issysgen: false,
    };
    if (random() < 0.8) {
      const domain = fresh();
      const block = random() < 0.7;
      domainRules.push({ domain, block });
      rules.push({ ...base, type: 'dmn', url: domain, action: block ? 'block' : 'allow' });
      lines.push(block ? `||${domain}^` : `@@||${domain}^`);
    } else {
      const host = random() < 0.5 ? fresh() : `${pick(SUBDOMAINS)}.${fresh()}`;
      const prefix = `/${pick(PATHS)}/${pick(PATHS)}`;
      urlRules.push({ host, prefix });
      rules.push({ ...base, type: 'url', url: `${host}${prefix}`, action: 'block' });
      lines.push(`||${host}${prefix}`);
    }
  }
  // Policies of at most 500 rules (the per-policy limit), in precedence order.
  const policies: EnginePolicy[] = [];
  for (let i = 0; i < rules.length; i += 500) {
    policies.push({
      id: `policy-${String(i / 500).padStart(4, '0')}`,
      name: `Policy ${i / 500}`,
      type: 'other',
      enabled: true,
      precedence: i / 500,
      appliesTo: null,
      rules: rules.slice(i, i + 500),
    });
  }
  const urls: string[] = [];
  const domainOnly: boolean[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const path = `/${pick(PATHS)}${Math.floor(random() * 1000)}/page?id=${i}`;
    if (random() < 0.3 && rules.length > 0) {
      if (urlRules.length > 0 && random() < 0.2) {
        const u = pick(urlRules);
        urls.push(`https://${u.host}${u.prefix}/${i}.js`);
        domainOnly.push(false);
      } else {
        const d = pick(domainRules);
        urls.push(`https://${random() < 0.85 ? `${pick(SUBDOMAINS)}.` : ''}${d.domain}${path}`);
        domainOnly.push(true);
      }
    } else {
      urls.push(`https://${random() < 0.6 ? `${pick(SUBDOMAINS)}.` : ''}${fresh()}${path}`);
      domainOnly.push(true);
    }
  }
  return {
    policies,
    filterText: lines.join('\n'),
    ruleDomains: [...domainRules.map((d) => d.domain), ...urlRules.map((u) => u.host)],
    urls,
    domainOnly,
  };
}

let gc: (() => void) | null = null;
function heapUsed() {
  if (gc === null) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Median wall time of three runs of `fn` (the first run of each size also pays for fresh heap pages). */
function medianMs(fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[1];
}

/**
 * Calls `fn(i)` over all requests once to warm up, then for at least 1 s of wall time; returns decisions/s
 * and ns each by wall time, and ns each by the process's CPU time (steadier when the machine is shared).
 */
function measure(n: number, fn: (i: number) => number) {
  let sink = 0;
  for (let i = 0; i < n; i++) sink += fn(i);
  let count = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    for (let i = 0; i < n; i++) sink += fn(i);
    count += n;
    elapsed = process.hrtime.bigint() - start;
  } while (elapsed < MIN_NS);
  const cpu = process.cpuUsage(cpuStart);
  const ns = Number(elapsed) / count;
  return { perSecond: 1e9 / ns, ns, cpuNs: ((cpu.user + cpu.system) * 1000) / count, sink };
}

function suffixHas(set: Set<string>, host: string): boolean {
  if (set.has(host)) return true;
  let i = host.indexOf('.');
  while (i >= 0) {
    if (set.has(host.substring(i + 1))) return true;
    i = host.indexOf('.', i + 1);
  }
  return false;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function benchPolicyEngine(): Promise<void> {
  const sizes = (process.env.BENCH_RULES ?? '100,10000,100000').split(',').map(Number);
  const rows: Record<string, string>[] = [];
  const agreement: string[] = [];
  for (const size of sizes) {
    const data = makeDataset(size);

    // --- Palisade
    const input = {
      policies: data.policies,
      objects: { apps: [], categories: [], feeds: [], locations: [] },
    };
    let before = heapUsed();
    const compiled = compile(input);
    const palisadeHeap = heapUsed() - before;
    const palisadeCompileMs = medianMs(() => compile(input));
    const requests: EngineRequest[] = data.urls.map((u) => {
      const d = parseDestination(u);
      return { host: d.host, path: d.path, ip: d.ip, port: d.port };
    });

    // --- tsurlfilter
    const tsCompile = () => {
      const pre = T.FilterListPreprocessor.preprocess(data.filterText);
      const list = new T.BufferRuleList(1, pre.filterList, false, false, false, pre.sourceMap);
      return new T.Engine(new T.RuleStorage([list]));
    };
    before = heapUsed();
    const engine = tsCompile();
    const tsHeap = heapUsed() - before;
    const tsCompileMs = medianMs(tsCompile);
    const tsRequests = data.urls.map((u) => new T.Request(u, null, T.RequestType.Document));

    // --- floor
    const set = new Set(data.ruleDomains);
    const hosts = requests.map((r) => r.host ?? '');

    // Sanity: the two engines agree on domain-only requests.
    let same = 0;
    let compared = 0;
    let palisadeBlocks = 0;
    let tsBlocks = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const p = decide(compiled, requests[i]).decision === 'block';
      const basic = engine.matchRequest(tsRequests[i]).getBasicResult();
      const t = basic !== null && !basic.isAllowlist();
      if (p) palisadeBlocks++;
      if (t) tsBlocks++;
      if (!data.domainOnly[i]) continue;
      compared++;
      if (p === t) same++;
    }
    agreement.push(
      `${fmt(size)} rules: Palisade and tsurlfilter agree on ${fmt((100 * same) / compared, 2)} % of ${fmt(compared)} domain-only requests (blocked overall: Palisade ${fmt(palisadeBlocks)}, tsurlfilter ${fmt(tsBlocks)} of ${fmt(REQUESTS)})`,
    );

    const cases: [string, string, string, (i: number) => number][] = [
      [
        'Palisade decide()',
        fmt(palisadeCompileMs, 1),
        fmt(palisadeHeap / 1048576, 1),
        (i) => (decide(compiled, requests[i]).decision === 'block' ? 1 : 0),
      ],
      [
        'tsurlfilter matchRequest()',
        fmt(tsCompileMs, 1),
        fmt(tsHeap / 1048576, 1),
        (i) => (engine.matchRequest(tsRequests[i]).getBasicResult() === null ? 0 : 1),
      ],
      ['floor: Set.has over label suffixes', '', '', (i) => (suffixHas(set, hosts[i]) ? 1 : 0)],
      [
        'Palisade from URL (parseDestination + decide)',
        '',
        '',
        (i) => (decide(compiled, parseDestination(data.urls[i])).decision === 'block' ? 1 : 0),
      ],
      [
        'tsurlfilter from URL (new Request + matchRequest)',
        '',
        '',
        (i) =>
          engine.matchRequest(new T.Request(data.urls[i], null, T.RequestType.Document)).getBasicResult() ===
          null
            ? 0
            : 1,
      ],
    ];
    for (const [name, compileMs, heapMb, fn] of cases) {
      const r = measure(REQUESTS, fn);
      rows.push({
        rules: fmt(size),
        engine: name,
        'decisions/s': fmt(r.perSecond),
        'ns/decision': fmt(r.ns, 0),
        'CPU ns/decision': fmt(r.cpuNs, 0),
        'compile ms (median of 3)': compileMs,
        'heap MB': heapMb,
      });
    }
  }
  console.info(`\nPolicy engine: ${fmt(REQUESTS)} requests (~30 % hits), one core, ≥ 1 s per case`);
  console.table(rows);
  for (const line of agreement) console.info(line);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchPolicyEngine();
}
