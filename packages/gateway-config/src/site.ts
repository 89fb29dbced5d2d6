/**
 * A site gateway's own configuration (the contracts' `SiteConfig`: LANs, VLANs, WAN, port forwards, traffic
 * flows) as two artefacts of its bundle:
 * - `nftables`: `table inet palisade_site`, replaced atomically like the policy's `table inet palisade` — port
 *   forwards as DNAT on the WAN interface, masquerading of the LAN and VLAN networks out of the WAN, the LAN
 *   management port ({@link LAN_PORT}) from the LAN and VLAN networks only, connections from the WAN only where a
 *   port forward lets them in, and the traffic flows as packet marks (first matching flow decides) for the
 *   gateway's policy routing, with tunnel-bound traffic never leaving by the WAN;
 * - `interfaces`: a `/bin/sh` script of `ip` commands bringing up the LAN, VLAN and WAN interfaces. It can run
 *   again on every bundle: VLAN links are added only when missing, addresses and the default route are
 *   `replace`d (an address or VLAN no longer configured is not removed).
 *
 * Deterministic: LANs by id, VLANs by VLAN id, forwards and flows in their order; addresses parsed and printed
 * canonically, port lists merged; names reach the text only through {@link commentText}. Bad input (a malformed
 * address, a VLAN or flow on a LAN that does not exist, a bad interface name) throws {@link GatewayConfigError}.
 */

import {
  formatIpv4,
  ipv4BlockEnd,
  ipv4Mask,
  LAN_PORT,
  parseIpv4,
  type SiteConfig,
} from '@palisade/contracts';
import { commentText, GatewayConfigError } from './common';
import { formatInterval, type Interval, mergeIntervals } from './net';

/** The packet marks traffic flows set: the gateway routes `tunnel` through its tunnel to the cybernode. */
export const SITE_FLOW_MARKS = { wan: 0x5a01, tunnel: 0x5a02 } as const;

export interface SiteOptions {
  /** Named in the header comments. */
  gatewayId?: string;
  /** The WAN interface; default `wan0`. */
  wanInterface?: string;
  /** The interface of each LAN row by its id; default `lan<id - 1>` (LAN 1 is `lan0`). */
  lanInterfaces?: Readonly<Record<number, string>>;
  /** The marks of the traffic flows (1 … 2^32-1); default {@link SITE_FLOW_MARKS}. */
  marks?: { wan?: number; tunnel?: number };
}

export interface SiteArtefacts {
  nftables: string;
  interfaces: string;
}

const IFNAME = /^[A-Za-z0-9_-]{1,15}$/;
const PORT = /^[1-9]\d{0,4}$/;

/** A strict IPv4 address (the contracts' helper; trimmed) as a number. IPv4 only: the site table is IPv4. */
function ipv4(text: string | undefined, field: string): number {
  const value = typeof text === 'string' ? parseIpv4(text.trim()) : null;
  if (value !== null) return value;
  throw new GatewayConfigError('invalid-address', field, `${field}: not an IPv4 address`);
}

function prefixOf(value: number, field: string): number {
  if (Number.isInteger(value) && value >= 0 && value <= 32) return value;
  throw new GatewayConfigError('invalid-address', field, `${field}: a prefix length 0 … 32`);
}

/** An address in its network: the address, the network `a.b.c.d/p` and the network as an interval. */
function addressIn(address: string, prefix: number, field: string) {
  const ip = ipv4(address, `${field}.address`);
  const bits = prefixOf(prefix, `${field}.prefix`);
  const network = (ip & ipv4Mask(bits)) >>> 0;
  return {
    address: `${formatIpv4(ip)}/${bits}`,
    network: `${formatIpv4(network)}/${bits}`,
    interval: {
      family: 4,
      first: BigInt(network),
      last: BigInt(ipv4BlockEnd({ network, prefix: bits })),
    } as Interval,
  };
}

/** `any` (null: no match), or a block printed canonically. */
function blockOrAny(text: string, field: string): string | null {
  const s = text.trim();
  if (s === 'any') return null;
  const slash = s.indexOf('/');
  if (slash < 0) throw new GatewayConfigError('invalid-address', field, `${field}: a CIDR block or any`);
  const bits = Number(s.slice(slash + 1));
  if (!/^(?:0|[1-9]\d?)$/.test(s.slice(slash + 1))) {
    throw new GatewayConfigError('invalid-address', field, `${field}: a CIDR block or any`);
  }
  const prefix = prefixOf(bits, field);
  const network = (ipv4(s.slice(0, slash), field) & ipv4Mask(prefix)) >>> 0;
  return prefix === 0 ? null : prefix === 32 ? formatIpv4(network) : `${formatIpv4(network)}/${prefix}`;
}

function port(value: string | number, field: string): number {
  const text = String(value).trim();
  const n = Number(text);
  if (PORT.test(text) && n <= 65535) return n;
  throw new GatewayConfigError('invalid-port', field, `${field}: ports 1 … 65535`);
}

/** A port list (`80, 443, 8000-8080`) merged: `443` or `{ 80, 443, 8000-8080 }`. */
function portMatch(ports: string, field: string): string {
  const intervals: Interval[] = ports.split(',').map((item) => {
    const [from, to, extra] = item.split('-');
    const a = port(from, field);
    const b = to === undefined ? a : port(to, field);
    if (extra !== undefined || b < a)
      throw new GatewayConfigError('invalid-port', field, `${field}: a-b, a < b`);
    return { family: 4, first: BigInt(a), last: BigInt(b) };
  });
  const list = mergeIntervals(intervals).map((i) =>
    i.first === i.last ? `${i.first}` : `${i.first}-${i.last}`,
  );
  return list.length === 1 ? list[0] : `{ ${list.join(', ')} }`;
}

function ifname(name: string, field: string): string {
  if (IFNAME.test(name)) return name;
  throw new GatewayConfigError(
    'invalid-option',
    field,
    `${field}: an interface name of 1 … 15 [A-Za-z0-9_-]`,
  );
}

/** `<lan>.<vlan id>`, within the kernel's 15 characters. */
function vlanIfname(lan: string, vlanId: number, field: string): string {
  const name = `${lan}.${vlanId}`;
  if (name.length <= 15) return name;
  throw new GatewayConfigError('invalid-option', field, `${field}: ${name} is longer than 15 characters`);
}

function mark(value: number | undefined, fallback: number, field: string): string {
  const m = value ?? fallback;
  if (!Number.isInteger(m) || m < 1 || m > 0xffffffff) {
    throw new GatewayConfigError('invalid-option', field, `${field}: an integer 1 … 2^32-1`);
  }
  return `0x${m.toString(16).padStart(8, '0')}`;
}

const quoted = (names: readonly string[]) =>
  names.length === 1 ? `"${names[0]}"` : `{ ${names.map((n) => `"${n}"`).join(', ')} }`;

/** The `nftables` ruleset and the `interfaces` script of a site gateway's configuration. */
export function siteArtefacts(config: SiteConfig, options: SiteOptions = {}): SiteArtefacts {
  const wan = ifname(options.wanInterface ?? 'wan0', 'wanInterface');
  const wanMark = mark(options.marks?.wan, SITE_FLOW_MARKS.wan, 'marks.wan');
  const tunnelMark = mark(options.marks?.tunnel, SITE_FLOW_MARKS.tunnel, 'marks.tunnel');
  const gateway = commentText(options.gatewayId ?? '');

  const lans = [...config.lans]
    .map((lan, i) => ({ lan, field: `lans[${i}]` }))
    .sort((a, b) => a.lan.id - b.lan.id)
    .map(({ lan, field }) => ({
      ...lan,
      field,
      ifname: ifname(options.lanInterfaces?.[lan.id] ?? `lan${lan.id - 1}`, `lanInterfaces.${lan.id}`),
      net: addressIn(lan.address, lan.prefix, field),
    }));
  const lanById = new Map(lans.map((lan) => [lan.id, lan]));
  const vlans = [...config.vlans]
    .map((vlan, i) => ({ vlan, field: `vlans[${i}]` }))
    .sort((a, b) => a.vlan.vlanId - b.vlan.vlanId)
    .map(({ vlan, field }) => {
      const parent = lanById.get(vlan.lanId);
      if (!parent) throw new GatewayConfigError('invalid-option', `${field}.lanId`, `${field}: no such LAN`);
      if (!Number.isInteger(vlan.vlanId) || vlan.vlanId < 1 || vlan.vlanId > 4094) {
        throw new GatewayConfigError('invalid-option', `${field}.vlanId`, `${field}: VLAN ids 1 … 4094`);
      }
      return {
        ...vlan,
        parent,
        ifname: vlanIfname(parent.ifname, vlan.vlanId, `${field}.vlanId`),
        net: addressIn(vlan.address, vlan.prefix, field),
      };
    });
  const siteIfnames = [...lans.map((l) => l.ifname), ...vlans.map((v) => v.ifname)].sort();
  const siteNets = mergeIntervals([...lans, ...vlans].map((n) => n.net.interval)).map(formatInterval);

  // ─── nftables ───
  const nft: string[] = [
    '#!/usr/sbin/nft -f',
    `# Palisade site gateway ${gateway}: port forwards, masquerading, the LAN port and traffic flows.`,
    '# Generated: do not edit. Loading it again replaces the table atomically.',
    'table inet palisade_site {}',
    'delete table inet palisade_site',
    'table inet palisade_site {',
  ];
  if (siteNets.length > 0) {
    nft.push(
      '\t# the LAN and VLAN networks',
      '\tset site_nets {',
      '\t\ttype ipv4_addr',
      '\t\tflags interval',
      `\t\telements = { ${siteNets.join(', ')} }`,
      '\t}',
    );
  }

  nft.push(
    '\tchain flows {',
    '\t\ttype filter hook prerouting priority mangle; policy accept;',
    `\t\t# the first matching flow decides: ${wanMark} straight out of the WAN, ${tunnelMark} through the tunnel`,
  );
  config.trafficFlows.forEach((flow, i) => {
    const field = `trafficFlows[${i}]`;
    const lan = lanById.get(flow.lanId);
    if (!lan) throw new GatewayConfigError('invalid-option', `${field}.lanId`, `${field}: no such LAN`);
    if (flow.via !== 'wan' && flow.via !== 'tunnel') {
      throw new GatewayConfigError('invalid-option', `${field}.via`, `${field}: wan or tunnel`);
    }
    const destination = blockOrAny(flow.destination, `${field}.destination`);
    const label = `flow ${i + 1} ${commentText(flow.name)}`.slice(0, 100);
    nft.push(
      `\t\t${[
        `iifname "${lan.ifname}" ip saddr ${lan.net.network}`,
        destination ? `ip daddr ${destination}` : null,
        `meta mark set ${flow.via === 'wan' ? wanMark : tunnelMark} accept comment "${label}"`,
      ]
        .filter(Boolean)
        .join(' ')}`,
    );
  });
  nft.push('\t}');

  nft.push('\tchain port_forwards {', '\t\ttype nat hook prerouting priority dstnat; policy accept;');
  config.portForwards.forEach((forward, i) => {
    const field = `portForwards[${i}]`;
    if (forward.protocol !== 'tcp' && forward.protocol !== 'udp') {
      throw new GatewayConfigError('invalid-option', `${field}.protocol`, `${field}: tcp or udp`);
    }
    const source = blockOrAny(forward.source, `${field}.source`);
    const host = formatIpv4(ipv4(forward.ip, `${field}.ip`));
    const to = forward.toPort === undefined ? host : `${host}:${port(forward.toPort, `${field}.toPort`)}`;
    const label = `forward ${i + 1} ${commentText(forward.name)}`.slice(0, 100);
    nft.push(
      `\t\t${[
        `iifname "${wan}"`,
        source ? `ip saddr ${source}` : null,
        `${forward.protocol} dport ${portMatch(forward.ports, `${field}.ports`)}`,
        `dnat ip to ${to} comment "${label}"`,
      ]
        .filter(Boolean)
        .join(' ')}`,
    );
  });
  nft.push('\t}');

  nft.push('\tchain nat_out {', '\t\ttype nat hook postrouting priority srcnat; policy accept;');
  if (siteNets.length > 0) nft.push(`\t\toifname "${wan}" ip saddr @site_nets masquerade`);
  nft.push('\t}');

  nft.push(
    '\tchain input {',
    '\t\ttype filter hook input priority filter; policy accept;',
    `\t\t# the LAN management port ${LAN_PORT}: from the LAN and VLAN networks only`,
  );
  if (siteNets.length > 0) {
    nft.push(
      `\t\tmeta l4proto { tcp, udp } th dport ${LAN_PORT} iifname ${quoted(siteIfnames)} ip saddr @site_nets accept`,
    );
  }
  nft.push(`\t\tmeta l4proto { tcp, udp } th dport ${LAN_PORT} drop`, '\t}');

  nft.push(
    '\tchain forward {',
    '\t\ttype filter hook forward priority filter; policy accept;',
    '\t\tct state established,related accept',
    '\t\t# from the WAN: only what a port forward lets in',
    `\t\tiifname "${wan}" ct status dnat accept`,
    `\t\tiifname "${wan}" drop`,
    '\t\t# traffic for the tunnel never leaves by the WAN',
    `\t\toifname "${wan}" meta mark ${tunnelMark} drop`,
    '\t}',
    '}',
  );

  // ─── interfaces ───
  const sh: string[] = [
    '#!/bin/sh',
    `# Palisade site gateway ${gateway}: its LAN, VLAN and WAN interfaces (iproute2).`,
    '# Generated: do not edit. Run as root; running it again changes nothing.',
    'set -e',
  ];
  for (const lan of lans) {
    let dhcp = '';
    if (lan.lanDhcp && lan.dhcpStart !== undefined && lan.dhcpEnd !== undefined) {
      const start = formatIpv4(ipv4(lan.dhcpStart, `${lan.field}.dhcpStart`));
      const end = formatIpv4(ipv4(lan.dhcpEnd, `${lan.field}.dhcpEnd`));
      dhcp = `, DHCP ${start}-${end}`;
    }
    sh.push(
      `# LAN ${lan.id} ${commentText(lan.name)}: ${lan.net.network}${dhcp}`,
      `ip link set dev ${lan.ifname} up`,
      `ip addr replace ${lan.net.address} dev ${lan.ifname}`,
    );
  }
  for (const vlan of vlans) {
    sh.push(
      `# VLAN ${vlan.vlanId} ${commentText(vlan.name)} on LAN ${vlan.parent.id}: ${vlan.net.network}`,
      `ip link show dev ${vlan.ifname} >/dev/null 2>&1 || ip link add link ${vlan.parent.ifname} name ${vlan.ifname} type vlan id ${vlan.vlanId}`,
      `ip link set dev ${vlan.ifname} up`,
      `ip addr replace ${vlan.net.address} dev ${vlan.ifname}`,
    );
  }
  const dns = config.wan.dns.map((server, i) => formatIpv4(ipv4(server, `wan.dns[${i}]`)));
  const dnsText = dns.length > 0 ? `, DNS ${dns.join(' ')}` : '';
  if (config.wan.mode === 'static' && config.wan.ips.length > 0) {
    const net = addressIn(config.wan.ips[0].address, config.wan.ips[0].prefix, 'wan.ips[0]');
    const via = config.wan.gateway === undefined ? null : formatIpv4(ipv4(config.wan.gateway, 'wan.gateway'));
    sh.push(
      `# WAN: static ${net.address}${via ? ` via ${via}` : ''}${dnsText}`,
      `ip link set dev ${wan} up`,
      `ip addr replace ${net.address} dev ${wan}`,
    );
    if (via) sh.push(`ip route replace default via ${via} dev ${wan}`);
  } else {
    sh.push(
      `# WAN: DHCP (the gateway's DHCP client configures ${wan})${dnsText}`,
      `ip link set dev ${wan} up`,
    );
  }
  return { nftables: `${nft.join('\n')}\n`, interfaces: `${sh.join('\n')}\n` };
}
