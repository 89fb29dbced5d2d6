import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DecisionEventData } from '@palisade/contracts';
import type { Attribution } from './attribution';
import { isLoopback } from './unbound-log';

/**
 * Network decisions from NFLOG: every policy rule of the gateway's nftables ruleset logs the first packet of a
 * new flow with `log prefix "pal <block|allow|route> <ruleId> " group 7` (the default accept names rule `-`);
 * ulogd2 reads the group and writes one JSON object a line (`ulogd_output_JSON`), e.g.
 *
 *   {"timestamp": "…", "oob.prefix": "pal block r-1 ", "oob.time.sec": 1796227154, "oob.time.usec": 656940,
 *    "ip.protocol": 6, "src_port": 58606, "dest_port": 9, "src_ip": "10.7.0.2", "dest_ip": "192.0.2.9", …}
 *
 * Logging only new flows costs one netlink message per connection, not per packet: cheaper than per-rule
 * counters read and diffed every second, and it names the device's address, which a counter cannot.
 */

/** The NFLOG group the ruleset logs to (gateway-config nftables.ts `NFLOG_GROUP`). */
export const DECISION_NFLOG_GROUP = 7;

/** Where Debian installs ulogd2's plugins. */
export const ULOGD_PLUGIN_DIR = '/usr/lib/x86_64-linux-gnu/ulogd';
const PLUGINS = [
  'ulogd_inppkt_NFLOG.so',
  'ulogd_raw2packet_BASE.so',
  'ulogd_filter_IFINDEX.so',
  'ulogd_filter_IP2STR.so',
  'ulogd_output_JSON.so',
];

/** The plugin directory of this machine (Debian's multiarch path, else `/usr/lib/ulogd`). */
export function ulogdPluginDir(): string {
  for (const dir of [ULOGD_PLUGIN_DIR, '/usr/lib/aarch64-linux-gnu/ulogd', '/usr/lib/ulogd']) {
    if (existsSync(join(dir, 'ulogd_output_JSON.so'))) return dir;
  }
  return ULOGD_PLUGIN_DIR;
}

/** ulogd.conf: NFLOG group {@link DECISION_NFLOG_GROUP} → JSON lines in `jsonPath`, its own log in `logPath`. */
export function ulogdConfText(options: {
  jsonPath: string;
  logPath: string;
  group?: number;
  pluginDir?: string;
}): string {
  const dir = options.pluginDir ?? ulogdPluginDir();
  return [
    '# Written by the Palisade gateway: rewritten on every start.',
    '[global]',
    `logfile="${options.logPath}"`,
    'loglevel=5',
    ...PLUGINS.map((plugin) => `plugin="${join(dir, plugin)}"`),
    'stack=log1:NFLOG,base1:BASE,ifi1:IFINDEX,ip2str1:IP2STR,json1:JSON',
    '',
    '[log1]',
    `group=${options.group ?? DECISION_NFLOG_GROUP}`,
    // Hand each packet over at once (a decision is due within seconds, not when a buffer fills).
    'qthreshold=1',
    '',
    '[json1]',
    'sync=1',
    `file="${options.jsonPath}"`,
    '',
  ].join('\n');
}

export interface NflogDecision {
  at: number;
  verdict: 'block' | 'allow' | 'route';
  ruleId: string | null;
  source: string;
  destination: string;
  port: number | null;
  protocol: 'tcp' | 'udp' | 'icmp' | null;
}

const PROTOCOLS: Record<number, NflogDecision['protocol']> = { 1: 'icmp', 6: 'tcp', 17: 'udp' };

/** One JSON line of ulogd's output, or null when it is not one of the ruleset's decisions. */
export function parseUlogdLine(line: string): NflogDecision | null {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof o !== 'object' || o === null) return null;
  const prefix = typeof o['oob.prefix'] === 'string' ? (o['oob.prefix'] as string) : '';
  const m = /^pal (block|allow|route) (\S+) ?$/.exec(prefix);
  const source = o.src_ip;
  const destination = o.dest_ip;
  if (!m || typeof source !== 'string' || typeof destination !== 'string') return null;
  const sec = Number(o['oob.time.sec']);
  const usec = Number(o['oob.time.usec'] ?? 0);
  const port = Number(o.dest_port);
  return {
    at: Number.isFinite(sec) && sec > 0 ? Math.round(sec * 1000 + usec / 1000) : Date.now(),
    verdict: m[1] as NflogDecision['verdict'],
    ruleId: m[2] === '-' ? null : m[2],
    source,
    destination,
    port: Number.isInteger(port) && port >= 1 && port <= 65535 ? port : null,
    protocol: PROTOCOLS[Number(o['ip.protocol'])] ?? null,
  };
}

/** The decision events of ulogd's lines (the gateway's own traffic, from loopback, left out). */
export function nflogDecisions(
  lines: readonly string[],
  attribution: Attribution,
): ({ at: number } & DecisionEventData)[] {
  const out: ({ at: number } & DecisionEventData)[] = [];
  for (const line of lines) {
    const d = parseUlogdLine(line);
    if (d === null || isLoopback(d.source) || attribution.isOwn(d.source)) continue;
    out.push({
      at: d.at,
      layer: 'network',
      decision: d.verdict === 'block' ? 'block' : 'allow',
      destination: d.destination,
      port: d.port,
      protocol: d.protocol,
      ...attribution.who(d.source),
      ruleId: d.ruleId,
      ruleName: attribution.ruleNameOf(d.ruleId),
      source: 'gateway',
    });
  }
  return out;
}
