/**
 * Lint: findings about rules that can never matter and objects that are missing or unused.
 *
 * Within each layer, over the active rules in evaluation order, a later rule B is *covered* by an earlier
 * rule A when A matches at least every request B matches:
 * - subjects: A's policy applies to everyone, or B's assignment is a subset of A's (users, groups, devices);
 * - conditions: A has no narrowing B lacks (A's locations ⊇ B's, A's port ranges contain B's, A's schedule
 *   contains B's — same days or more, a window containing B's);
 * - matcher: every item of B is covered by an item of A: domain label suffix, CIDR containment, `*`, keyword
 *   substring (also of a URL path prefix), equal extension or country, and the same category/feed/app id.
 * Then: same effective action → `redundant` (info); same matcher items → `conflict` (error); otherwise
 * `shadowed` (warning). B is reported once, against the first A. Rules of system policies are not reported
 * as B (they cannot be edited), but they shadow user rules.
 *
 * Candidates for A come from an index of earlier rules keyed by their items (label suffixes of B's first
 * item, its CIDR's supernets, …), so a 10 000-rule policy is not compared pairwise.
 */
import { type Layer, type LintFinding, splitMatcher } from '@palisade/contracts';
import { type CompiledRule, compile, LAYER_ORDER, normalizeExt, parseUrlItem } from './compile';
import { labelSuffixMatch, normalizeDomainItem } from './domain';
import { maskOf, type Net, netContains, parseNet } from './ip';
import type { EngineInput } from './types';

/** Translation keys of the findings' messages. */
export const LINT_MESSAGES = {
  shadowed: 'policy.lint.shadowed',
  conflict: 'policy.lint.conflict',
  redundant: 'policy.lint.redundant',
  'missing-object': 'policy.lint.missingObject',
  'unused-object': 'policy.lint.unusedObject',
  'empty-matcher': 'policy.lint.emptyMatcher',
} as const;

/** A matcher item in a form the cover relation works on. */
type Item =
  | { k: 'any'; text: string } // matches every request of the layer (ROUTE `*`, GEO `*`)
  | { k: 'h'; text: string } // any host (domain `*`, url `*`)
  | { k: 'd'; d: string; text: string }
  | { k: 'u'; host: string; prefix: string; text: string }
  | { k: 'n'; net: Net; text: string }
  | { k: 'g'; cc: string; text: string }
  | { k: 'w'; kw: string; text: string }
  | { k: 'x'; ext: string; text: string }
  | { k: 'c' | 'f' | 'a'; id: string; text: string };

function keyOf(i: Item): string {
  switch (i.k) {
    case 'any':
    case 'h':
      return i.k;
    case 'd':
      return `d:${i.d}`;
    case 'u':
      return `u:${i.host}${i.prefix}`;
    case 'n':
      return `n:${i.net.prefix}:${i.net.network}`;
    case 'g':
      return `g:${i.cc}`;
    case 'w':
      return `w:${i.kw}`;
    case 'x':
      return `x:${i.ext}`;
    default:
      return `${i.k}:${i.id}`;
  }
}

/** The rule's matcher items (an `app` id needs a host in the DNS layer, an address in the network layer). */
function itemsOf(r: CompiledRule): Item[] {
  const rule = r.rule;
  const raw = splitMatcher(rule.url ?? '');
  const out: Item[] = [];
  switch (r.type) {
    case 'dmn':
    case 'SQUID_DMN':
    case 'DNS_REWRITE':
      for (const item of raw) {
        const d = normalizeDomainItem(item);
        if (d === '*') out.push({ k: 'h', text: item });
        else if (d !== null) out.push({ k: 'd', d, text: item });
      }
      if (r.type !== 'DNS_REWRITE') {
        for (const id of rule.categories ?? []) out.push({ k: 'c', id, text: id });
        for (const id of rule.feeds ?? []) out.push({ k: 'f', id, text: id });
      }
      break;
    case 'app':
      for (const id of raw) out.push({ k: 'a', id, text: id });
      break;
    case 'ROUTE':
      for (const item of raw) {
        const net = item === '*' ? null : parseNet(item);
        if (item === '*' || net?.prefix === 0) out.push({ k: 'any', text: item });
        else if (net) out.push({ k: 'n', net, text: item });
      }
      for (const id of rule.feeds ?? []) out.push({ k: 'f', id, text: id });
      break;
    case 'GEO':
      for (const item of raw) {
        out.push(item === '*' ? { k: 'any', text: item } : { k: 'g', cc: item.toUpperCase(), text: item });
      }
      break;
    case 'url':
      for (const item of raw) {
        const u = parseUrlItem(item);
        if (!u) continue;
        if (u.host === '*' && u.prefix === '') out.push({ k: 'h', text: item });
        else out.push({ k: 'u', host: u.host, prefix: u.prefix, text: item });
      }
      break;
    case 'SQUID_KEYWORD':
      for (const item of raw) out.push({ k: 'w', kw: item.toLowerCase(), text: item });
      break;
    case 'SQUID_FILEEXT':
      for (const item of raw) {
        const ext = normalizeExt(item);
        if (ext) out.push({ k: 'x', ext, text: item });
      }
      break;
  }
  return out;
}

/** Whether item `a` (of an earlier rule) matches every request item `b` matches, in `layer`. */
function itemCovers(a: Item, b: Item, layer: Layer): boolean {
  switch (a.k) {
    case 'any':
      return true;
    case 'h':
      // Any host: covers every item that itself needs the host to be known.
      return (
        b.k === 'h' ||
        b.k === 'd' ||
        b.k === 'c' ||
        b.k === 'f' ||
        (b.k === 'u' && b.host !== '*') ||
        (b.k === 'a' && layer === 'dns')
      );
    case 'd':
      return (
        (b.k === 'd' && labelSuffixMatch(b.d, a.d)) ||
        (b.k === 'u' && b.host !== '*' && labelSuffixMatch(b.host, a.d))
      );
    case 'u':
      return (
        b.k === 'u' &&
        (a.host === '*' || (b.host !== '*' && labelSuffixMatch(b.host, a.host))) &&
        b.prefix.startsWith(a.prefix)
      );
    case 'n':
      return b.k === 'n' && netContains(a.net, b.net);
    case 'g':
      return b.k === 'g' && b.cc === a.cc;
    case 'w':
      return (b.k === 'w' && b.kw.includes(a.kw)) || (b.k === 'u' && b.prefix.toLowerCase().includes(a.kw));
    case 'x':
      return b.k === 'x' && b.ext === a.ext;
    default:
      return b.k === a.k && b.id === a.id;
  }
}

/** Index keys under which an earlier rule covering `b` must have been filed. */
function candidateKeys(b: Item): string[] {
  const keys = ['any'];
  const suffixes = (d: string, prefix: string) => {
    let i = -1;
    let s = d;
    for (;;) {
      keys.push(prefix + s);
      i = d.indexOf('.', i + 1);
      if (i < 0) break;
      s = d.slice(i + 1);
    }
  };
  switch (b.k) {
    case 'h':
      keys.push('h');
      break;
    case 'd':
      keys.push('h');
      suffixes(b.d, 'd:');
      break;
    case 'u':
      keys.push('h', 'u*', 'w');
      if (b.host !== '*') {
        suffixes(b.host, 'd:');
        suffixes(b.host, 'u:');
      }
      break;
    case 'n':
      for (let p = 0; p <= b.net.prefix; p++) keys.push(`n:${p}:${(b.net.network & maskOf(p)) >>> 0}`);
      break;
    case 'g':
      keys.push(`g:${b.cc}`);
      break;
    case 'w':
      keys.push('w');
      break;
    case 'x':
      keys.push(`x:${b.ext}`);
      break;
    case 'c':
    case 'f':
    case 'a':
      keys.push('h', `${b.k}:${b.id}`);
      break;
  }
  return keys;
}

/** Key an earlier rule's item is filed under (see {@link candidateKeys}). */
function fileKey(a: Item): string {
  switch (a.k) {
    case 'd':
      return `d:${a.d}`;
    case 'u':
      return a.host === '*' ? 'u*' : `u:${a.host}`;
    case 'w':
      return 'w';
    default:
      return keyOf(a);
  }
}

function subsetOf(inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean {
  for (const x of inner) if (!outer.has(x)) return false;
  return true;
}

/** Whether A's conditions and subjects are no narrower than B's. */
function contextCovers(a: CompiledRule, b: CompiledRule): boolean {
  const pa = a.policy;
  const pb = b.policy;
  if (pa !== pb && !pa.everyone) {
    if (pb.everyone) return false;
    if (
      !subsetOf(pb.users, pa.users) ||
      !subsetOf(pb.groups, pa.groups) ||
      !subsetOf(pb.devices, pa.devices)
    ) {
      return false;
    }
  }
  // An HTTP-only rule (QoS layer) does not cover one that also matches other traffic.
  if (a.httpOnly && !b.httpOnly) return false;
  const la = a.rule.locations ?? [];
  if (la.length > 0) {
    const lb = b.rule.locations ?? [];
    if (lb.length === 0 || !lb.every((id) => la.includes(id))) return false;
  }
  if (a.ports !== null) {
    const pbr = b.ports;
    if (pbr === null) return false;
    for (let i = 0; i < pbr.length; i += 2) {
      let inside = false;
      for (let j = 0; j < a.ports.length; j += 2) {
        if (pbr[i] >= a.ports[j] && pbr[i + 1] <= a.ports[j + 1]) inside = true;
      }
      if (!inside) return false;
    }
  }
  const sa = a.schedule;
  if (sa !== null) {
    const sb = b.schedule;
    if (sb === null || (sb.days & ~sa.days) !== 0) return false;
    const same = sa.from === sb.from && sa.to === sb.to;
    const inside = sa.from < sa.to && sb.from < sb.to && sa.from <= sb.from && sb.to <= sa.to;
    if (!same && !inside) return false;
  }
  return true;
}

function actionKey(r: CompiledRule, layer: Layer): string {
  if (layer === 'qos') return `qos:${r.target}`;
  return r.action === 'rewrite' || r.action === 'route' ? `${r.action}:${r.target}` : r.action;
}

interface Entry {
  rule: CompiledRule;
  items: Item[];
  keys: Set<string>;
}

function lintLayer(rules: readonly CompiledRule[], layer: Layer, out: LintFinding[], seen: Set<string>) {
  const index = new Map<string, number[]>();
  const entries: Entry[] = [];
  for (const r of rules) {
    if (!r.active || !r.layers.includes(layer)) continue;
    const items = itemsOf(r);
    if (items.length === 0) continue;
    const entry: Entry = { rule: r, items, keys: new Set(items.map(keyOf)) };
    if (!r.policy.system) {
      const candidates = new Set<number>();
      for (const key of candidateKeys(items[0])) for (const e of index.get(key) ?? []) candidates.add(e);
      const sorted = [...candidates].sort((x, y) => x - y);
      for (const pos of sorted) {
        const a = entries[pos];
        if (!contextCovers(a.rule, r)) continue;
        const covering = items.map((b) => a.items.find((ai) => itemCovers(ai, b, layer)));
        if (covering.some((x) => x === undefined)) continue;
        const sameAction = actionKey(a.rule, layer) === actionKey(r, layer);
        const sameItems = a.keys.size === entry.keys.size && [...entry.keys].every((k) => a.keys.has(k));
        const kind = sameAction ? 'redundant' : sameItems ? 'conflict' : 'shadowed';
        const dedupe = `${kind}|${r.ordinal}|${a.rule.ordinal}`;
        if (!seen.has(dedupe)) {
          seen.add(dedupe);
          out.push({
            kind,
            severity: kind === 'conflict' ? 'error' : kind === 'shadowed' ? 'warning' : 'info',
            rule: r.ref,
            other: a.rule.ref,
            object: null,
            message: LINT_MESSAGES[kind],
            values: {
              rule: r.ref.ruleName,
              policy: r.ref.policyName,
              other: a.rule.ref.ruleName,
              otherPolicy: a.rule.ref.policyName,
              item: covering[0]?.text ?? '',
              layer,
            },
          });
        }
        break;
      }
    }
    const pos = entries.length;
    entries.push(entry);
    for (const key of new Set(items.map(fileKey))) {
      const list = index.get(key);
      if (list === undefined) index.set(key, [pos]);
      else list.push(pos);
    }
  }
}

/**
 * Lints a tenant's policies: shadowed / conflict / redundant rules per layer, rules referring to missing
 * objects, unused locations and custom categories, and rules with an empty matcher.
 */
export function lint(input: EngineInput): LintFinding[] {
  const compiled = compile(input);
  const out: LintFinding[] = [];
  const { objects } = input;
  const categories = new Map(objects.categories.map((c) => [c.id, c]));
  const feeds = new Set(objects.feeds.map((f) => f.id));
  const apps = new Set(objects.apps.map((a) => a.appid));
  const locations = new Map(objects.locations.map((l) => [l.id, l]));
  const usedCategories = new Set<string>();
  const usedLocations = new Set<string>();

  for (const r of compiled.rules) {
    const rule = r.rule;
    const items = splitMatcher(rule.url ?? '');
    for (const id of rule.categories ?? []) usedCategories.add(id);
    for (const id of rule.locations ?? []) usedLocations.add(id);
    if (items.length === 0 && (rule.categories ?? []).length === 0 && (rule.feeds ?? []).length === 0) {
      out.push({
        kind: 'empty-matcher',
        severity: 'error',
        rule: r.ref,
        other: null,
        object: null,
        message: LINT_MESSAGES['empty-matcher'],
        values: { rule: r.ref.ruleName, policy: r.ref.policyName },
      });
    }
    const missing = (kind: string, id: string) =>
      out.push({
        kind: 'missing-object',
        severity: 'error',
        rule: r.ref,
        other: null,
        object: { kind, id, name: id },
        message: LINT_MESSAGES['missing-object'],
        values: { rule: r.ref.ruleName, policy: r.ref.policyName, kind, id },
      });
    for (const id of rule.categories ?? []) if (!categories.has(id)) missing('category', id);
    for (const id of rule.feeds ?? []) if (!feeds.has(id)) missing('feed', id);
    for (const id of rule.locations ?? []) if (!locations.has(id)) missing('location', id);
    if (r.type === 'app') for (const id of items) if (!apps.has(id)) missing('app', id);
  }

  const seen = new Set<string>();
  for (const layer of LAYER_ORDER) lintLayer(compiled.rules, layer, out, seen);

  const unused = (kind: string, id: string, name: string) =>
    out.push({
      kind: 'unused-object',
      severity: 'info',
      rule: null,
      other: null,
      object: { kind, id, name },
      message: LINT_MESSAGES['unused-object'],
      values: { kind, id, name },
    });
  for (const l of objects.locations) if (!usedLocations.has(l.id)) unused('location', l.id, l.name);
  for (const c of objects.categories)
    if (c.custom === true && !usedCategories.has(c.id)) unused('category', c.id, c.name);
  return out;
}
