/**
 * The fast path: per layer, the smallest ordinal among the rules whose matcher hits (found through the
 * layer's indexes) and whose subject and conditions pass. No trace; the only allocation is the result.
 */
import { DEFAULT_SESSION_QOS, type Layer, type RuleRef } from '@palisade/contracts';
import type { CompiledPolicy, LayerIndex, Ordinals } from './compile';
import { ACTION_CODES, DNS, HTTP, NETWORK, QOS } from './compile';
import { type Ctx, countryOf, extOf, matchItem, newCtx, passes, prepare, rewriteIp } from './context';
import { FLAG_MORE, FLAG_URL, SLOT_FIRST, SLOT_FLAGS, SLOT_KEY } from './host-index';
import type { EngineDecision, EngineRequest } from './types';

const NONE = 0x7fffffff;
const SCRATCH = newCtx();
let busy = false;

/** The best (smallest passing) ordinal under one index entry, or `best` when none is smaller. */
function bestOf(c: CompiledPolicy, ords: Ordinals, best: number, ctx: Ctx): number {
  const simple = c.simple;
  if (typeof ords === 'number') {
    return ords < best && (simple[ords] === 1 || passes(c.rules[ords], ctx)) ? ords : best;
  }
  for (let i = 0; i < ords.length; i++) {
    const o = ords[i];
    if (o >= best) return best;
    if (simple[o] === 1 || passes(c.rules[o], ctx)) return o;
  }
  return best;
}

/** The ordinal of the rule deciding `layer`, or -1. */
export function bestInLayer(c: CompiledPolicy, layer: number, ctx: Ctx): number {
  const li: LayerIndex = c.layers[layer];
  let best = NONE;
  const hitCount = ctx.hitCount;
  if (hitCount > 0) {
    const hits = ctx.hits;
    const hosts = c.hosts;
    const slots = hosts.slots;
    const path = ctx.path;
    for (let h = 0; h < hitCount; h++) {
      const base = hits[h];
      const first = slots[base + SLOT_FIRST + layer];
      const flags = slots[base + SLOT_FLAGS];
      if (first >= 0 && first >> 1 < best) {
        if ((first & 1) === 1) best = first >> 1;
        else if ((flags & (FLAG_MORE << layer)) === 0) {
          if (passes(c.rules[first >> 1], ctx)) best = first >> 1;
        } else {
          const at = (slots[base + SLOT_KEY] - 1) * 4 + layer;
          const ordinals = hosts.domainOrdinals;
          for (let j = hosts.domainStart[at], end = hosts.domainStart[at + 1]; j < end; j++) {
            const o = ordinals[j];
            if (o >= best) break;
            if (c.simple[o] === 1 || passes(c.rules[o], ctx)) {
              best = o;
              break;
            }
          }
        }
      }
      if ((flags & (FLAG_URL << layer)) === 0 || path === null) continue;
      const at = (slots[base + SLOT_KEY] - 1) * 4 + layer;
      for (let j = hosts.urlStart[at], end = hosts.urlStart[at + 1]; j < end; j++) {
        const o = hosts.urlOrdinals[j];
        if (o >= best) break;
        if (path.startsWith(hosts.urlPrefixes[j]) && (c.simple[o] === 1 || passes(c.rules[o], ctx))) {
          best = o;
          break;
        }
      }
    }
  }
  const lengths = li.netLengths;
  if (lengths.length > 0 && ctx.ip >= 0) {
    const ip = ctx.ip;
    for (let k = 0; k < lengths.length; k++) {
      const p = lengths[k];
      const ords = li.nets[p]?.get(p === 0 ? 0 : ip >>> (32 - p));
      if (ords !== undefined) best = bestOf(c, ords, best, ctx);
    }
  }
  if (li.countries.size > 0) {
    const cc = countryOf(ctx);
    if (cc !== null) {
      const ords = li.countries.get(cc);
      if (ords !== undefined) best = bestOf(c, ords, best, ctx);
    }
  }
  if (li.exts.size > 0 && ctx.path !== null) {
    const ext = extOf(ctx);
    if (ext !== null) {
      const ords = li.exts.get(ext);
      if (ords !== undefined) best = bestOf(c, ords, best, ctx);
    }
  }
  const scan = li.scan;
  for (let k = 0; k < scan.length; k++) {
    const o = scan[k];
    if (o >= best) break;
    const r = c.rules[o];
    if (matchItem(r, layer, ctx) !== null && passes(r, ctx)) {
      best = o;
      break;
    }
  }
  return best === NONE ? -1 : best;
}

/**
 * Decides a request: DNS → network → HTTP, then QoS. See index.ts for the semantics.
 */
export function decide(c: CompiledPolicy, request: EngineRequest): EngineDecision {
  // The scratch context is reused; only a lookupCountry callback calling decide() again could re-enter, and
  // then gets a context of its own. (No try/finally: if the callback throws, `busy` stays set and later
  // decisions just allocate their context.)
  if (busy) return run(c, prepare(c, request, newCtx()));
  busy = true;
  const result = run(c, prepare(c, request, SCRATCH));
  busy = false;
  return result;
}

const BLOCK = ACTION_CODES.block;
const REWRITE = ACTION_CODES.rewrite;
const ROUTE = ACTION_CODES.route;

function run(c: CompiledPolicy, ctx: Ctx): EngineDecision {
  let rule: RuleRef | null = null;
  let layer: Layer | null = null;
  let rewrite: string | null = null;
  let gateway: string | null = null;
  const layers = c.layers;
  const actions = c.actions;

  if (layers[DNS].size > 0 && ctx.host !== null) {
    const o = bestInLayer(c, DNS, ctx);
    if (o >= 0) {
      rule = c.refs[o];
      layer = 'dns';
      const action = actions[o];
      if (action === BLOCK) return blocked(rule, layer);
      if (action === REWRITE) {
        const r = c.rules[o];
        rewrite = r.target;
        if (r.targetIp >= 0) rewriteIp(ctx, r.targetIp, r.target.trim());
      } else if (action === ROUTE) gateway = c.rules[o].target;
    }
  }
  if (layers[NETWORK].size > 0) {
    const o = bestInLayer(c, NETWORK, ctx);
    if (o >= 0) {
      rule = c.refs[o];
      layer = 'network';
      const action = actions[o];
      if (action === BLOCK) return blocked(rule, layer);
      if (action === ROUTE) gateway = c.rules[o].target;
      else if (action === REWRITE) rewrite = c.rules[o].target;
    }
  }
  if (layers[HTTP].size > 0 && ctx.path !== null) {
    const o = bestInLayer(c, HTTP, ctx);
    if (o >= 0) {
      rule = c.refs[o];
      layer = 'http';
      const action = actions[o];
      if (action === BLOCK) return blocked(rule, layer);
      if (action === ROUTE) gateway = c.rules[o].target;
      else if (action === REWRITE) rewrite = c.rules[o].target;
    }
  }
  let qos = DEFAULT_SESSION_QOS;
  if (layers[QOS].size > 0) {
    const o = bestInLayer(c, QOS, ctx);
    if (o >= 0) qos = c.rules[o].target || DEFAULT_SESSION_QOS;
  }
  return { decision: 'allow', rule, layer, rewrite, gateway, qos };
}

function blocked(rule: RuleRef, layer: Layer): EngineDecision {
  return { decision: 'block', rule, layer, rewrite: null, gateway: null, qos: DEFAULT_SESSION_QOS };
}
