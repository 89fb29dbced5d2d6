/**
 * The slow path: walks every rule of every layer in evaluation order and records a trace step for each.
 * It uses the same predicates as decide() (the matcher item by item instead of the indexes), so the two
 * agree — the property tests hold them to it.
 */
import { DEFAULT_SESSION_QOS, type Layer, type RuleRef, type TraceStep } from '@palisade/contracts';
import type { CompiledPolicy, CompiledRule } from './compile';
import { LAYER_ORDER, matchLayersOf } from './compile';
import {
  type Ctx,
  countryOf,
  extOf,
  failedCondition,
  matchItem,
  newCtx,
  prepare,
  rewriteIp,
  subjectOk,
} from './context';
import { normalizeDomainItem } from './domain';
import { formatIp } from './ip';
import type { EngineRequest, Explanation } from './types';

/** Translation keys of trace reasons (the web app translates them; `values` fill the placeholders). */
export const TRACE_REASONS = {
  matched: 'policy.trace.matched',
  policyDisabled: 'policy.trace.policyDisabled',
  ruleDisabled: 'policy.trace.ruleDisabled',
  notForSubject: 'policy.trace.notForSubject',
  decidedEarlier: 'policy.trace.decidedEarlier',
  layerNotReached: 'policy.trace.layerNotReached',
  notHttp: 'policy.trace.notHttp',
  noHost: 'policy.trace.noHost',
  hostNoMatch: 'policy.trace.hostNoMatch',
  noIp: 'policy.trace.noIp',
  ipNoMatch: 'policy.trace.ipNoMatch',
  countryNoMatch: 'policy.trace.countryNoMatch',
  urlNoMatch: 'policy.trace.urlNoMatch',
  keywordNoMatch: 'policy.trace.keywordNoMatch',
  extNoMatch: 'policy.trace.extNoMatch',
  appNoMatch: 'policy.trace.appNoMatch',
  location: 'policy.trace.location',
  port: 'policy.trace.port',
  schedule: 'policy.trace.schedule',
  layerDefault: 'policy.trace.layerDefault',
  qosDefault: 'policy.trace.qosDefault',
} as const;

/** Why a rule's matcher did not hit, as a translation key with its values. */
function noMatchReason(
  r: CompiledRule,
  layer: Layer,
  ctx: Ctx,
): { reason: string; values: Record<string, string> } {
  const host = ctx.host ?? '';
  const ip = ctx.ip >= 0 ? formatIp(ctx.ip) : '';
  const matchLayers = matchLayersOf(r.type, layer);
  if (matchLayers.length > 1) return { reason: TRACE_REASONS.appNoMatch, values: { host, ip } };
  const ml = matchLayers[0];
  if (ml === 'http' && ctx.path === null) return { reason: TRACE_REASONS.notHttp, values: {} };
  switch (r.type) {
    case 'dmn':
    case 'DNS_REWRITE':
    case 'SQUID_DMN':
      return ctx.host === null
        ? { reason: TRACE_REASONS.noHost, values: {} }
        : { reason: TRACE_REASONS.hostNoMatch, values: { host } };
    case 'app':
      if (ml === 'dns') {
        return ctx.host === null
          ? { reason: TRACE_REASONS.noHost, values: {} }
          : { reason: TRACE_REASONS.hostNoMatch, values: { host } };
      }
      return ctx.ip < 0
        ? { reason: TRACE_REASONS.noIp, values: {} }
        : { reason: TRACE_REASONS.ipNoMatch, values: { ip } };
    case 'ROUTE':
      return ctx.ip < 0
        ? { reason: TRACE_REASONS.noIp, values: {} }
        : { reason: TRACE_REASONS.ipNoMatch, values: { ip } };
    case 'GEO':
      return { reason: TRACE_REASONS.countryNoMatch, values: { country: countryOf(ctx) ?? '' } };
    case 'url':
      return ctx.host === null
        ? { reason: TRACE_REASONS.noHost, values: {} }
        : { reason: TRACE_REASONS.urlNoMatch, values: { host, path: ctx.path ?? '' } };
    case 'SQUID_KEYWORD':
      return { reason: TRACE_REASONS.keywordNoMatch, values: { path: ctx.path ?? '' } };
    case 'SQUID_FILEEXT':
      return { reason: TRACE_REASONS.extNoMatch, values: { ext: extOf(ctx) ?? '' } };
  }
  return { reason: TRACE_REASONS.hostNoMatch, values: { host } };
}

function membership(c: CompiledPolicy, host: string | null): { categories: string[]; apps: string[] } {
  if (host === null) return { categories: [], apps: [] };
  let index = c.memo.membership;
  if (index === undefined) {
    index = new Map();
    const entry = (d: string) => {
      let e = index?.get(d);
      if (e === undefined) {
        e = { categories: [], apps: [] };
        index?.set(d, e);
      }
      return e;
    };
    for (const cat of c.objects.categories) {
      for (const raw of cat.domains) {
        const d = normalizeDomainItem(raw);
        if (d !== null && d !== '*') entry(d).categories.push(cat.name);
      }
    }
    for (const app of c.objects.apps) {
      for (const raw of app.domains) {
        const d = normalizeDomainItem(raw);
        if (d !== null && d !== '*') entry(d).apps.push(app.appname);
      }
    }
    c.memo.membership = index;
  }
  const categories = new Set<string>();
  const apps = new Set<string>();
  let s = host;
  let i = -1;
  for (;;) {
    const e = index.get(s);
    if (e) {
      for (const x of e.categories) categories.add(x);
      for (const x of e.apps) apps.add(x);
    }
    i = host.indexOf('.', i + 1);
    if (i < 0) break;
    s = host.substring(i + 1);
  }
  return { categories: [...categories].sort(), apps: [...apps].sort() };
}

/**
 * Decides a request like {@link decide} and explains it: one trace step per rule per layer it belongs to,
 * plus a `default` step for every reached layer nothing matched in.
 */
export function explain(c: CompiledPolicy, request: EngineRequest): Explanation {
  const ctx = prepare(c, request, newCtx());
  // One instant for the whole explanation (schedules, and the time the trace reports).
  if (!Number.isFinite(ctx.time)) ctx.time = Date.now();
  const trace: TraceStep[] = [];
  let decision: 'allow' | 'block' = 'allow';
  let rule: RuleRef | null = null;
  let decidingLayer: Layer | null = null;
  let rewrite: string | null = null;
  let gateway: string | null = null;
  let qos = DEFAULT_SESSION_QOS;
  const byLayer: CompiledRule[][] = LAYER_ORDER.map(() => []);
  for (const r of c.rules) for (const l of r.layers) byLayer[LAYER_ORDER.indexOf(l)].push(r);

  for (let li = 0; li < LAYER_ORDER.length; li++) {
    const layer = LAYER_ORDER[li];
    const reached = decision === 'allow';
    const httpSkipped = layer === 'http' && ctx.path === null;
    let winner: CompiledRule | null = null;
    for (const r of byLayer[li]) {
      const step = (outcome: TraceStep['outcome'], reason: string, values: Record<string, string> = {}) =>
        trace.push({ layer, rule: r.ref, outcome, reason, values });
      if (!reached) step('skipped', TRACE_REASONS.layerNotReached);
      else if (httpSkipped) step('skipped', TRACE_REASONS.notHttp);
      else if (!r.policy.enabled) step('skipped', TRACE_REASONS.policyDisabled);
      else if (!r.rule.enabled) step('skipped', TRACE_REASONS.ruleDisabled);
      else if (winner !== null) step('skipped', TRACE_REASONS.decidedEarlier, { rule: winner.ref.ruleName });
      else if (!subjectOk(r.policy, ctx)) step('skipped', TRACE_REASONS.notForSubject);
      else if (r.httpOnly && ctx.path === null) step('no-match', TRACE_REASONS.notHttp);
      else {
        const item = matchItem(r, li, ctx);
        if (item === null) {
          const { reason, values } = noMatchReason(r, layer, ctx);
          step('no-match', reason, values);
          continue;
        }
        const failed = failedCondition(r, ctx);
        if (failed !== null) {
          step('no-match', TRACE_REASONS[failed], conditionValues(failed, ctx));
          continue;
        }
        winner = r;
        step('matched', TRACE_REASONS.matched, { item, action: r.action, target: r.target });
      }
    }
    if (!reached || httpSkipped) continue;
    if (winner === null) {
      trace.push({
        layer,
        rule: null,
        outcome: 'default',
        reason: layer === 'qos' ? TRACE_REASONS.qosDefault : TRACE_REASONS.layerDefault,
        values: layer === 'qos' ? { qos: DEFAULT_SESSION_QOS } : {},
      });
      continue;
    }
    if (layer === 'qos') {
      qos = winner.target || DEFAULT_SESSION_QOS;
      continue;
    }
    rule = winner.ref;
    decidingLayer = layer;
    if (winner.action === 'block') {
      decision = 'block';
      rewrite = null;
      gateway = null;
    } else if (winner.action === 'rewrite') {
      rewrite = winner.target;
      if (layer === 'dns' && winner.targetIp >= 0) rewriteIp(ctx, winner.targetIp, winner.target.trim());
    } else if (winner.action === 'route') gateway = winner.target;
  }
  const { categories, apps } = membership(c, ctx.host);
  let sourceCountry: string | null = request.sourceCountry ?? null;
  const sourceText = request.sourceIp ?? null;
  if (sourceCountry === null && sourceText !== null && c.lookupCountry !== null) {
    sourceCountry = c.lookupCountry(sourceText);
  }
  return {
    decision,
    rule,
    layer: decidingLayer,
    rewrite,
    gateway,
    qos,
    categories,
    apps,
    sourceCountry: sourceCountry ? sourceCountry.toUpperCase() : null,
    destinationCountry: countryOf(ctx),
    trace,
  };
}

function conditionValues(failed: 'location' | 'port' | 'schedule', ctx: Ctx): Record<string, string> {
  if (failed === 'location') return { sourceIp: ctx.sourceText ?? '' };
  if (failed === 'port') return { port: ctx.port >= 0 ? String(ctx.port) : '' };
  return { time: new Date(ctx.time).toISOString() };
}
