import { join } from 'node:path';
import { type DecisionEventData, ipRange, unmapIpv4 } from '@palisade/contracts';
import type { Attribution } from './attribution';

/**
 * DNS decisions from Unbound's own log (1.17: `logfile:` with `log-replies`, `log-tag-queryreply` and, on each
 * `rpz:` clause, `rpz-log` with `rpz-log-name`). Two kinds of line matter, proven against a real unbound in
 * decisions.test.ts:
 *
 *   [1796227048] unbound[9296:0] info: rpz: applied [pal-all] blocked.example. rpz-nxdomain 10.7.0.2@58805 blocked.example. A IN
 *   [1796227048] unbound[9296:0] reply: 10.7.0.2 blocked.example. A IN NXDOMAIN 0.000000 1 44
 *
 * A zone's rewrite is logged (trigger name, action, client@port, query) before the answer; every answer is
 * logged once (client, query, rcode, time, cached, size). So an answer preceded by a rewrite other than
 * `rpz-passthru` for the same client and query was blocked (NXDOMAIN, NODATA, a block-page or CNAME answer),
 * every other one allowed; `rpz-drop` sends no answer and is reported at once. The log names the zone, not the
 * rule: the rule comes from the bundle's compiled policy (Attribution.dnsRuleOf).
 */

/** The `rpz:` clause lines that log its rewrites under `name` (a clause per audience zone). */
export function rpzLogLines(name: string): string[] {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new Error(`rpz-log-name: not a plain name: ${name}`);
  return ['  rpz-log: yes', `  rpz-log-name: "${name}"`];
}

/** The `server:` lines writing the log this module reads to `path`. */
export function unboundLogLines(path: string): string[] {
  return [
    '  use-syslog: no',
    `  logfile: "${path}"`,
    '  log-replies: yes',
    '  log-tag-queryreply: yes',
    '  log-time-ascii: no',
  ];
}

export type UnboundLine =
  | {
      kind: 'rpz';
      at: number;
      zone: string;
      trigger: string;
      action: string;
      client: string;
      qname: string;
      qtype: string;
    }
  | { kind: 'reply'; at: number; client: string; qname: string; qtype: string; rcode: string };

const PREFIX = /^\[(\d+)\] \S+ (info: rpz: applied|reply:) (.*)$/;
const RPZ = /^\[([^\]]*)\] (\S+) (\S+) ([0-9a-fA-F.:]+)@\d+ (\S+) (\S+) \S+$/;
const REPLY = /^([0-9a-fA-F.:]+) (\S+) (\S+) \S+ (\S+) [\d.]+ \d+ \d+$/;

const hostOf = (qname: string) => qname.replace(/\.$/, '').toLowerCase();

/** One line of Unbound's log, or null for every other line. */
export function parseUnboundLine(line: string): UnboundLine | null {
  const head = PREFIX.exec(line);
  if (!head) return null;
  const at = Number(head[1]) * 1000;
  if (head[2] === 'reply:') {
    const m = REPLY.exec(head[3]);
    if (!m) return null;
    return { kind: 'reply', at, client: m[1], qname: hostOf(m[2]), qtype: m[3], rcode: m[4] };
  }
  const m = RPZ.exec(head[3]);
  if (!m) return null;
  return {
    kind: 'rpz',
    at,
    zone: m[1],
    trigger: hostOf(m[2]),
    action: m[3],
    client: m[4],
    qname: hostOf(m[5]),
    qtype: m[6],
  };
}

/** Rewrites that do not block: the zone let the name through, or only forces TCP. */
const NOT_BLOCKING = new Set(['rpz-passthru', 'rpz-tcp-only', 'rpz-disabled']);
/** A name looked up again (A, AAAA, HTTPS of one visit) within this long with the same verdict is one decision. */
const SAME_LOOKUP_MS = 2000;

export type DnsDecision = { at: number } & DecisionEventData;

/**
 * Turns Unbound's log lines into DNS decisions of the devices (the gateway's own lookups, from loopback, are
 * not theirs and are left out).
 */
export class UnboundDecisions {
  private readonly rewrites = new Map<string, UnboundLine & { kind: 'rpz' }>();
  private readonly recent = new Map<string, number>();

  /** `skip`: clients whose queries are not the devices' (default: loopback and the gateway's own addresses). */
  constructor(
    private readonly attribution: () => Attribution,
    private readonly skip: (client: string) => boolean = (client) =>
      isLoopback(client) || attribution().isOwn(client),
  ) {}

  /** The decisions of these lines, in order. */
  take(lines: readonly string[]): DnsDecision[] {
    const out: DnsDecision[] = [];
    for (const line of lines) {
      const parsed = parseUnboundLine(line);
      if (parsed === null || this.skip(parsed.client)) continue;
      const key = `${parsed.client} ${parsed.qname} ${parsed.qtype}`;
      if (parsed.kind === 'rpz') {
        if (parsed.action === 'rpz-drop') this.emit(out, parsed.at, parsed.client, parsed.qname, 'block');
        else this.rewrites.set(key, parsed);
        continue;
      }
      const rewrite = this.rewrites.get(key);
      this.rewrites.delete(key);
      const verdict = rewrite && !NOT_BLOCKING.has(rewrite.action) ? 'block' : 'allow';
      this.emit(out, parsed.at, parsed.client, parsed.qname, verdict);
    }
    // A rewrite whose answer never came (a lost line) is not kept for ever.
    if (this.rewrites.size > 10_000) this.rewrites.clear();
    if (this.recent.size > 10_000) this.recent.clear();
    return out;
  }

  private emit(out: DnsDecision[], at: number, client: string, host: string, verdict: 'allow' | 'block') {
    if (host === '' || host.length > 253) return;
    const same = `${client} ${host} ${verdict}`;
    const last = this.recent.get(same);
    if (last !== undefined && at - last < SAME_LOOKUP_MS) return;
    this.recent.set(same, at);
    const attribution = this.attribution();
    const ruleId = attribution.dnsRuleOf(host, client, verdict);
    out.push({
      at,
      layer: 'dns',
      decision: verdict,
      destination: host,
      ...attribution.who(client),
      ruleId,
      ruleName: attribution.ruleNameOf(ruleId),
      source: 'gateway',
    });
  }
}

/** Whether a logged client is the gateway itself: 127.0.0.0/8 or ::1 (an IPv4-mapped one as its IPv4 address). */
export const isLoopback = (address: string) => {
  const ip = unmapIpv4(address);
  return ip !== null && ipRange(ip) === 'loopback';
};

/** Where the gateway's Unbound writes its log (in the state directory). */
export const unboundLogPath = (dir: string) => join(dir, 'unbound.log');
