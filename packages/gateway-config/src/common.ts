/**
 * What the generators share: the typed error, the `skipped` report, the rules of a layer in the engine's
 * evaluation order (taken from the engine's own `compile`, so both read the matchers the same way), subjects,
 * schedules as minute intervals, and the checks that keep user text out of the syntax of a config file.
 */
import type { Layer } from '@palisade/contracts';
import { type CompiledRule, compile, type EngineInput, type Schedule } from '@palisade/policy-engine';

/** Bad input the caller must fix (a malformed key, address or option): nothing is generated. */
export class GatewayConfigError extends Error {
  override readonly name = 'GatewayConfigError';
  constructor(
    /** Machine-readable: `invalid-key`, `invalid-address`, `invalid-port`, `invalid-option`, `duplicate-peer`… */
    readonly code: string,
    /** The input field at fault, e.g. `peers[2].publicKey`. */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Why an item or a rule is not in an artefact. */
export type SkipReason =
  /** Not a host name a DNS zone or squid can carry (characters, label or name length). */
  | 'invalid-domain'
  /** Not an IPv4 address or CIDR block (the engine ignores it as well). */
  | 'invalid-address'
  /** An IPv6 address or block: the engine decides IPv4 destinations only. */
  | 'ipv6'
  /** Not an ISO 3166 alpha-2 country code. */
  | 'invalid-country'
  /** A GEO rule with no address ranges for a country (no `lookupCountryRanges`, or none returned). */
  | 'no-country-ranges'
  /** A rewrite whose target is neither an IPv4 address nor a host name: answered as if allowed. */
  | 'invalid-target'
  /** A URL path, keyword or file extension with characters the tool cannot match safely. */
  | 'unsafe-text'
  /** The policy applies to some users, groups or devices, which this artefact cannot tell apart. */
  | 'subject-not-expressible'
  /** The policy applies to some users, groups or devices, and none of them has an address on this gateway. */
  | 'no-subject-addresses'
  /** A condition (ports, locations, schedule) this artefact cannot express: the rule is left out. */
  | 'condition-not-expressible'
  /** The rule can never match (empty schedule window, no valid port, no valid item left). */
  | 'never-matches';

export interface Skipped {
  policyId: string;
  /** '' when the entry is about the policy (its subjects). */
  ruleId: string;
  /** The item left out ('' for the whole rule; `ports`, `locations`, `schedule` for a condition). */
  item: string;
  reason: SkipReason;
}

/** What every text generator returns. */
export interface Generated {
  text: string;
  skipped: Skipped[];
}

/** Collects skip entries once each, in a stable order. */
export class SkipList {
  private readonly seen = new Set<string>();
  readonly list: Skipped[] = [];
  add(policyId: string, ruleId: string, rawItem: string, reason: SkipReason) {
    // The item as the user wrote it (this list is data, never written into a config), cut to a sane length.
    const item = rawItem.length > 200 ? `${rawItem.slice(0, 200)}…` : rawItem;
    const key = JSON.stringify([policyId, ruleId, item, reason]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ policyId, ruleId, item, reason });
  }
}

/** Who a request comes from, as the engine's requests name them. */
export interface Subject {
  userId?: string | null;
  groups?: readonly string[];
  deviceId?: string | null;
}

/** The engine's compile of each input, so the artefacts of one bundle compile it once, not once each. */
const compiledInputs = new WeakMap<EngineInput, ReturnType<typeof compile>>();

/** The active rules evaluated in `layer`, in evaluation order (policy precedence, then rule position). */
export function rulesOf(input: EngineInput, layer: Exclude<Layer, 'qos'>): CompiledRule[] {
  let compiled = compiledInputs.get(input);
  if (!compiled) {
    compiled = compile(input);
    compiledInputs.set(input, compiled);
  }
  return compiled.rules.filter((r) => r.active && r.layers.includes(layer));
}

/** Whether the rule's policy applies to `subject` (the engine's subject test). */
export function appliesTo(r: CompiledRule, subject: Subject): boolean {
  const p = r.policy;
  if (p.everyone) return true;
  if (subject.userId != null && p.users.has(subject.userId)) return true;
  if (subject.deviceId != null && p.devices.has(subject.deviceId)) return true;
  return (subject.groups ?? []).some((g) => p.groups.has(g));
}

/** Minute-of-day intervals [from, to) where the engine's schedule window holds; empty when never. */
export function windowMinutes(s: Schedule): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let m = 0; m <= 1440; m++) {
    const inside =
      m < 1440 && (s.from < s.to ? m >= s.from && m < s.to : s.from > s.to ? m >= s.from || m < s.to : false);
    if (inside && start < 0) start = m;
    else if (!inside && start >= 0) {
      out.push([start, m]);
      start = -1;
    }
  }
  return out;
}

/** Weekdays (0 = Sunday) of a schedule. */
export function scheduleDays(s: Schedule): number[] {
  return [0, 1, 2, 3, 4, 5, 6].filter((d) => (s.days & (1 << d)) !== 0);
}

/** Whether a schedule holds at `time` (epoch ms, UTC), as the engine decides it. */
export function scheduleHolds(s: Schedule, time: number): boolean {
  const days = Math.floor(time / 86_400_000);
  const day = (((days + 4) % 7) + 7) % 7;
  const minute = Math.floor((time - days * 86_400_000) / 60_000);
  if ((s.days & (1 << day)) === 0) return false;
  return windowMinutes(s).some(([a, b]) => minute >= a && minute < b);
}

/** HH:MM of a minute of the day. */
export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

const LABEL = /^[a-z0-9_-]{1,63}$/;
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Whether a normalised domain (normalizeDomainItem's output, not `*`) can be written into a zone or a squid
 * ACL as it is: labels of letters, digits, `-` and `_`, 63 characters at most, 253 in all. With `hostname`,
 * the stricter host name syntax (RFC 1123: no `_`, no `-` at either end of a label) that BIND's check-names
 * applies to the owners of address records.
 */
export function isSafeDomain(domain: string, hostname = false): boolean {
  if (domain.length === 0 || domain.length > 253) return false;
  const re = hostname ? HOST_LABEL : LABEL;
  return domain.split('.').every((l) => re.test(l));
}

/**
 * Text for a comment: ids and names of policies and rules are the user's, so everything but a small safe set
 * becomes `_` (no newline, quote or comment character can end the comment), at most 80 characters.
 */
export function commentText(s: string): string {
  return s.replace(/[^A-Za-z0-9._:@/+=-]/g, '_').slice(0, 80);
}

/** `policyId/ruleId` for comments. */
export function ruleLabel(r: CompiledRule): string {
  return `${commentText(r.policy.id)}/${commentText(r.ref.ruleId)}`;
}
