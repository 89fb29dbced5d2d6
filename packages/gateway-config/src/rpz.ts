/**
 * The DNS layer as a response policy zone (RPZ, loaded by BIND or unbound on the gateway's resolver).
 *
 * The engine decides a host by the FIRST rule (in evaluation order) whose domain is a label suffix of it; a
 * resolver decides by the most specific record (the exact name, else the wildcard with the longest suffix). So
 * each domain `d` any rule names gets the engine's decision for `d` itself — the first rule among those on `d`
 * and on its suffixes — as two records, `d` and `*.d`: a host then meets the records of its longest listed
 * suffix, which carry exactly the engine's decision for it. A record with the same outcome as its nearest
 * listed parent adds nothing and is left out; an allow that overrides a later block of a parent becomes
 * `rpz-passthru.`. Under DNS wildcard rules a name between a listed domain and a listed subdomain exists (an
 * empty non-terminal) and so escapes the parent's wildcard: it gets the records it inherits, so the zone
 * decides alike whether the resolver follows those rules (unbound does) or takes the longest wildcard.
 */

import { isIpv4 } from '@palisade/contracts';
import type { EngineInput } from '@palisade/policy-engine';
import { normalizeHost } from '@palisade/policy-engine';
import {
  appliesTo,
  GatewayConfigError,
  type Generated,
  isSafeDomain,
  ruleLabel,
  rulesOf,
  SkipList,
  type Subject,
  scheduleHolds,
} from './common';

export interface RpzOptions {
  /** The zone's name, ending with a dot. Default `rpz.palisade.`. */
  origin?: string;
  /** SOA serial (0 … 2^32-1): bump it on every change so secondaries and `rndc reload` pick it up. */
  serial: number;
  /** TTL of every record (seconds, default 60): how long clients may keep a rewritten answer. */
  ttl?: number;
  /**
   * The zone as one subject sees it: policies for everyone plus those applying to this user, groups or device.
   * Without it, only policies for everyone are in the zone and the others are reported as skipped.
   */
  subject?: Subject;
  /**
   * Epoch milliseconds: rules with a schedule are in the zone when it holds at this time (UTC), so the zone is
   * right until the next schedule boundary, when the server must build it again. Without it, scheduled rules
   * are left out and reported.
   */
  at?: number;
  /**
   * An IPv4 address where a block of a policy with the block page (`EnginePolicy.blockPage`) answers `A` instead
   * of NXDOMAIN: the server writes BLOCK_PAGE_ADDRESS_PLACEHOLDER, each gateway its own tunnel address, where its
   * squid answers plain HTTP with the redirect to the console's block page. Without it every block is NXDOMAIN.
   */
  blockPageAddress?: string;
}

type Effect =
  | { kind: 'nxdomain' }
  | { kind: 'passthru' }
  | { kind: 'a'; value: string }
  | { kind: 'cname'; value: string }
  /** A block answered with the block page's address. */
  | { kind: 'page'; value: string };

interface Entry {
  ordinal: number;
  policyId: string;
  ruleId: string;
  effect: Effect;
  label: string;
}

const PASSTHRU: Effect = { kind: 'passthru' };
const ORIGIN = /^(?:[a-z0-9_-]{1,63}\.)+$/;

function same(a: Effect, b: Effect): boolean {
  return (
    a.kind === b.kind && (a.kind === 'nxdomain' || a.kind === 'passthru' || a.value === (b as typeof a).value)
  );
}

function rdata(e: Effect): string {
  switch (e.kind) {
    case 'nxdomain':
      return 'CNAME .';
    case 'passthru':
      return 'CNAME rpz-passthru.';
    case 'a':
    case 'page':
      return `A ${e.value}`;
    case 'cname':
      return `CNAME ${e.value}.`;
  }
}

/** The parent of a domain (one label less), or null for a single label. */
function parentOf(d: string): string | null {
  const dot = d.indexOf('.');
  return dot < 0 ? null : d.slice(dot + 1);
}

/** Reversed labels, for an order that keeps a domain's subdomains after it. */
function sortKey(d: string): string {
  return d.split('.').reverse().join('\u0001');
}

/**
 * An RPZ zone for the DNS layer (`dmn` with its categories' and feeds' domains, `DNS_REWRITE`, the domains of
 * `app` rules): block → NXDOMAIN (`CNAME .`), rewrite to an IPv4 address → `A`, to a host → `CNAME host.`,
 * allow (and an app's route) → `rpz-passthru.` where it overrides a block or rewrite of a parent domain; `*` →
 * the zone's wildcard. Left out and reported: domains no zone can carry, rules for some subjects only (see
 * `subject`), rules with ports or locations (a resolver sees neither), scheduled rules unless `at` is given.
 */
export function rpzZone(input: EngineInput, options: RpzOptions): Generated {
  const origin = options.origin ?? 'rpz.palisade.';
  if (!ORIGIN.test(origin) || origin.length > 200) {
    throw new GatewayConfigError(
      'invalid-option',
      'origin',
      'origin: a lower-case zone name ending with a dot',
    );
  }
  const { serial } = options;
  if (!Number.isInteger(serial) || serial < 0 || serial > 0xffffffff) {
    throw new GatewayConfigError('invalid-option', 'serial', 'serial: an integer 0 … 4294967295');
  }
  const ttl = options.ttl ?? 60;
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > 0x7fffffff) {
    throw new GatewayConfigError('invalid-option', 'ttl', 'ttl: an integer 0 … 2147483647');
  }
  const page = options.blockPageAddress;
  // IPv4 only: the block page is answered as an `A` record.
  if (page !== undefined && !isIpv4(page)) {
    throw new GatewayConfigError('invalid-option', 'blockPageAddress', 'blockPageAddress: an IPv4 address');
  }
  // Room for `*.` and the origin: a name has at most 253 characters in presentation form.
  const maxDomain = 253 - 2 - origin.length;

  const skipped = new SkipList();
  const exact = new Map<string, Entry>();
  let any: Entry | null = null;

  for (const r of rulesOf(input, 'dns')) {
    const pid = r.policy.id;
    const rid = r.ref.ruleId;
    if (!r.policy.everyone) {
      if (options.subject === undefined) {
        skipped.add(pid, rid, '', 'subject-not-expressible');
        continue;
      }
      if (!appliesTo(r, options.subject)) continue;
    }
    let expressible = true;
    if (r.locationNets !== null) {
      skipped.add(pid, rid, 'locations', 'condition-not-expressible');
      expressible = false;
    }
    if (r.ports !== null) {
      skipped.add(pid, rid, 'ports', 'condition-not-expressible');
      expressible = false;
    }
    if (r.schedule !== null && options.at === undefined) {
      skipped.add(pid, rid, 'schedule', 'condition-not-expressible');
      expressible = false;
    }
    if (!expressible) continue;
    if (r.schedule !== null && options.at !== undefined && !scheduleHolds(r.schedule, options.at)) continue;

    let effect: Effect = PASSTHRU;
    if (r.action === 'block') {
      effect =
        page !== undefined && r.policy.blockPage ? { kind: 'page', value: page } : { kind: 'nxdomain' };
    } else if (r.action === 'rewrite') {
      const target = r.target.trim();
      const host = normalizeHost(target);
      if (r.targetIp >= 0) effect = { kind: 'a', value: target };
      else if (host !== null && isSafeTarget(host)) effect = { kind: 'cname', value: host };
      else skipped.add(pid, rid, target, 'invalid-target');
    }
    const entry = (): Entry => ({
      ordinal: r.ordinal,
      policyId: pid,
      ruleId: rid,
      effect,
      label: `${ruleLabel(r)} ${r.type} ${r.action}`,
    });
    const domains = r.type === 'app' ? r.appDomains : r.domains;
    if (r.type !== 'app' && r.anyHost && any === null) any = entry();
    for (const d of domains) {
      const ownerOk = isSafeDomain(d, effect.kind === 'a' || effect.kind === 'page');
      if (!ownerOk || d.length > maxDomain) {
        skipped.add(pid, rid, d, 'invalid-domain');
        continue;
      }
      if (!exact.has(d)) exact.set(d, entry());
    }
  }

  // The engine's decision for a listed domain: the first rule on it, on one of its suffixes, or on `*`.
  const decisionOf = (d: string): Entry | null => {
    let best = any;
    for (let s: string | null = d; s !== null; s = parentOf(s)) {
      const e = exact.get(s);
      if (e !== undefined && (best === null || e.ordinal < best.ordinal)) best = e;
    }
    return best;
  };

  const names = [...exact.keys()].sort((a, b) => {
    const la = a.split('.').length;
    const lb = b.split('.').length;
    if (la !== lb) return la - lb;
    return sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0;
  });
  const written = new Map<string, Entry>();
  for (const d of names) {
    const decision = decisionOf(d)!;
    let parent: Effect = any?.effect ?? PASSTHRU;
    for (let s = parentOf(d); s !== null; s = parentOf(s)) {
      const w = written.get(s);
      if (w !== undefined) {
        parent = w.effect;
        break;
      }
    }
    if (!same(decision.effect, parent)) written.set(d, decision);
  }

  const lines = [
    "; Palisade response policy zone: the DNS layer of the tenant's policy. Generated: do not edit.",
    '; Each name carries the first matching rule (policy precedence, then rule order) for it and its subdomains.',
    `$ORIGIN ${origin}`,
    `$TTL ${ttl}`,
    `@ IN SOA localhost. hostmaster.localhost. ( ${serial} 3600 600 86400 ${ttl} )`,
    '@ IN NS localhost.',
  ];
  if (any !== null && any.effect.kind !== 'passthru') {
    lines.push('', `; ${any.label} (every host)`, `* IN ${rdata(any.effect)}`);
  }
  // A resolver follows DNS wildcard rules: a name above a listed one exists (an "empty non-terminal"), so the
  // wildcard of a parent no longer covers it or what is under it. Such names repeat the decision they inherit.
  const between = new Map<string, Entry | null>();
  for (const d of written.keys()) {
    for (let s = parentOf(d); s !== null && !written.has(s) && !between.has(s); s = parentOf(s)) {
      let inherited = any;
      for (let a = parentOf(s); a !== null; a = parentOf(a)) {
        const w = written.get(a);
        if (w !== undefined) {
          inherited = w;
          break;
        }
      }
      if (inherited === null || inherited.effect.kind === 'passthru') between.set(s, null);
      else if (
        (inherited.effect.kind === 'a' || inherited.effect.kind === 'page') &&
        !isSafeDomain(s, true)
      ) {
        skipped.add(inherited.policyId, inherited.ruleId, s, 'invalid-domain');
        between.set(s, null);
      } else between.set(s, { ...inherited, label: `${inherited.label} (inherited)` });
    }
  }
  const entries = new Map([...written, ...[...between].filter((e): e is [string, Entry] => e[1] !== null)]);
  const order = [...entries.keys()].sort((a, b) =>
    sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0,
  );
  for (const d of order) {
    const e = entries.get(d)!;
    lines.push('', `; ${e.label}`, `${d} IN ${rdata(e.effect)}`, `*.${d} IN ${rdata(e.effect)}`);
  }
  return { text: `${lines.join('\n')}\n`, skipped: skipped.list };
}

/** A rewrite target host: a host name, and not one of RPZ's special names (`rpz-passthru.`, `rpz-drop.`…). */
function isSafeTarget(host: string): boolean {
  return isSafeDomain(host, true) && !host.startsWith('rpz-') && host.length <= 253;
}
