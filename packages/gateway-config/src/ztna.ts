/**
 * The ZTNA firewall of a site gateway as an nftables ruleset (`nft -f`): `table inet palisade_ztna`, whose
 * `forward` chain guards the internal hosts that private services publish and ZTNA rules name. A connection to
 * a guarded host is accepted only when one entry allows its source (the tunnel addresses of the users' and
 * groups' devices), protocol and port; every other connection to a guarded host is refused (TCP reset, ICMP
 * administratively prohibited otherwise). Connections to hosts no entry names pass this table untouched (the
 * policy's own table decides them). Decided on a connection's first packet, like the policy table.
 */
import { isValidPortList } from '@palisade/contracts';
import { commentText, GatewayConfigError, type Generated, SkipList } from './common';
import { formatInterval, type Interval, mergeIntervals, parseBlock, parseInterval } from './net';

export const ZTNA_PROTOCOLS = ['tcp', 'udp', 'any'] as const;

/** One allow: who (source addresses) reaches which host or network, over which protocol and ports. */
export interface ZtnaEntry {
  /** A private service's or ZTNA rule's id, named in the rule's comment. */
  id: string;
  /** An IPv4 address or block. */
  destination: string;
  protocol: (typeof ZTNA_PROTOCOLS)[number];
  /** Spec §5 port list (`443`, `8000-8080`, `80,443`); null: every port (`any` protocol needs null). */
  ports: string | null;
  /** IPv4 tunnel addresses or blocks of the devices allowed; none: the host is guarded and nobody reaches it. */
  sources: readonly string[];
}

export interface ZtnaOptions {
  gatewayId?: string;
  /** Guard only connections entering through these interfaces (the WireGuard one); default all. */
  interfaces?: readonly string[];
  /** Guard only connections from these IPv4 networks (the devices' tunnel network); default all. */
  guardFrom?: readonly string[];
}

const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;

function v4Intervals(items: readonly string[]): Interval[] | null {
  const out: Interval[] = [];
  for (const item of items) {
    const block = parseBlock(item);
    if (block?.family !== 4) return null;
    const interval = parseInterval(item);
    if (!interval) return null;
    out.push(interval);
  }
  return mergeIntervals(out);
}

const portSet = (ports: string) =>
  `{ ${ports
    .split(',')
    .map((p) => p.trim())
    .join(', ')} }`;

/**
 * The ruleset for a gateway's entries, in the order given (all are allows: the order changes nothing). An entry
 * with a bad destination or source (`invalid-address`) or port list (`never-matches`) is reported in `skipped`
 * and left out;
 * its destination then stays unguarded only if no other entry guards it.
 */
export function ztnaRuleset(entries: readonly ZtnaEntry[], options: ZtnaOptions = {}): Generated {
  const interfaces = options.interfaces ?? [];
  for (const name of interfaces) {
    if (!IFNAME.test(name))
      throw new GatewayConfigError('invalid-option', 'interfaces', 'interfaces: bad name');
  }
  const guardFrom = v4Intervals(options.guardFrom ?? []);
  if (!guardFrom) throw new GatewayConfigError('invalid-address', 'guardFrom', 'guardFrom: not IPv4 blocks');
  const skipped = new SkipList();
  const guarded: Interval[] = [];
  const rules: string[] = [];
  for (const entry of entries) {
    const destination = v4Intervals([entry.destination]);
    if (!destination) {
      skipped.add('ztna', entry.id, entry.destination, 'invalid-address');
      continue;
    }
    if (entry.ports !== null && (entry.protocol === 'any' || !isValidPortList(entry.ports))) {
      skipped.add('ztna', entry.id, entry.ports, 'never-matches');
      continue;
    }
    const sources = v4Intervals(entry.sources);
    if (!sources) {
      skipped.add('ztna', entry.id, entry.sources.join(' '), 'invalid-address');
      continue;
    }
    guarded.push(...destination);
    if (sources.length === 0) continue;
    const match = [
      `ip saddr { ${sources.map(formatInterval).join(', ')} }`,
      `ip daddr { ${destination.map(formatInterval).join(', ')} }`,
      entry.protocol === 'any' ? '' : entry.ports === null ? `meta l4proto ${entry.protocol}` : '',
      entry.ports === null || entry.protocol === 'any'
        ? ''
        : `${entry.protocol} dport ${portSet(entry.ports)}`,
    ].filter(Boolean);
    rules.push(`\t\t${match.join(' ')} accept comment "ztna ${commentText(entry.id)}"`);
  }
  const hosts = mergeIntervals(guarded);
  const out = [
    `# Palisade ZTNA firewall${options.gatewayId ? ` for gateway ${commentText(options.gatewayId)}` : ''}: ${hosts.length} guarded host range(s), ${rules.length} allow rule(s).`,
    'table inet palisade_ztna {}',
    'delete table inet palisade_ztna',
    'table inet palisade_ztna {',
  ];
  if (hosts.length > 0) {
    out.push('\tset guarded {', '\t\ttype ipv4_addr', '\t\tflags interval');
    out.push(`\t\telements = { ${hosts.map(formatInterval).join(', ')} }`, '\t}');
  }
  out.push('\tchain forward {');
  // Before the policy table (priority filter): a refused connection never reaches it.
  out.push('\t\ttype filter hook forward priority filter - 10; policy accept;');
  if (hosts.length === 0) {
    out.push('\t\t# nothing guarded', '\t}', '}');
    return { text: `${out.join('\n')}\n`, skipped: skipped.list };
  }
  out.push('\t\tct state established,related accept');
  if (interfaces.length > 0) {
    out.push(`\t\tiifname != { ${interfaces.map((i) => `"${i}"`).join(', ')} } accept`);
  }
  if (guardFrom.length > 0) {
    out.push(`\t\tip saddr != { ${guardFrom.map(formatInterval).join(', ')} } accept`);
  }
  out.push('\t\tip daddr != @guarded accept');
  out.push(...rules);
  out.push('\t\tmeta l4proto tcp reject with tcp reset comment "ztna: not allowed"');
  out.push('\t\treject with icmpx type admin-prohibited comment "ztna: not allowed"');
  out.push('\t}', '}');
  return { text: `${out.join('\n')}\n`, skipped: skipped.list };
}
