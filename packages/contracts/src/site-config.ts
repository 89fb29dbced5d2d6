import { z } from 'zod';
import { NonEmpty, Uuid } from './common';
import {
  MAX_GATEWAY_VLAN_IDS,
  MAX_GATEWAY_WAN_IPS,
  MAX_LAN_IDS,
  MAX_TRAFFIC_FLOW_LIST,
  PORT_MAX,
  PORT_MIN,
} from './constants';
import { endpoint } from './endpoint';
import { GATEWAY_STATUSES, SITE_GATEWAY_KINDS } from './gateways';
import {
  formatIpv4,
  ipv4BlockEnd,
  ipv4Mask,
  isAllowedPrivateRange,
  isIpv4,
  parseIpv4,
  parseIpv4Cidr,
} from './ip';
import { TenantParams } from './tenants';
import { findIpSourceConflicts, isValidPort, isValidPortList } from './validators';

/**
 * A site gateway's own configuration (gateways of kind `cgw`, `cgwr`, `lgw`): its LANs and their VLANs, the WAN,
 * port forwards and traffic flows. An administrator edits it; the server compiles it
 * (`@palisade/gateway-config` `siteArtefacts`) into the `site` artefacts of that gateway's bundle.
 *
 * The row schemas check each field; {@link SiteConfigInput} adds the checks across rows (private LAN networks, no
 * overlaps, DHCP ranges, parents of VLANs and flows, forward hosts inside a LAN or VLAN). Two port forwards that
 * clash — the same internal ip for overlapping sources (the spec's ip/source duplicate, which names the ip and both
 * sources), or the same protocol and external port — are {@link portForwardConflicts}: their messages carry
 * values, so the server answers them with `details[].values` after the schema passed, and a form uses
 * {@link SiteConfigForm}, which has both.
 */

/** The most port forwards one gateway holds (the spec sets none; this bounds a request). */
export const MAX_PORT_FORWARDS = 100;
/** The most DNS servers the WAN names. */
export const MAX_WAN_DNS = 4;
/** Prefix lengths of a LAN, a VLAN and the static WAN network. */
export const SITE_PREFIX_MIN = 8;
export const SITE_PREFIX_MAX = 30;
export const VLAN_ID_MAX = 4094;

// A site's LANs, VLANs, WAN and forwards are IPv4 by design (its nftables table and `ip` script are IPv4), so
// these fields take IPv4 only, through the one address helper (./ip).
const Ipv4Address = z.string().trim().refine(isIpv4, { message: 'validation.ip' });
const SiteName = NonEmpty(64);
const Prefix = z
  .number()
  .int({ message: 'validation.prefix' })
  .min(SITE_PREFIX_MIN, { message: 'validation.prefix' })
  .max(SITE_PREFIX_MAX, { message: 'validation.prefix' });
const LanId = z
  .number()
  .int({ message: 'validation.lanId' })
  .min(1, { message: 'validation.lanId' })
  .max(MAX_LAN_IDS, { message: 'validation.lanId' });
/** `any`, or an IPv4 block `a.b.c.d/p` (IPv4 only, as above). */
const CidrOrAny = z
  .string()
  .trim()
  .refine((s) => s === 'any' || parseIpv4Cidr(s) !== null, { message: 'validation.cidrOrAny' });

/** A LAN port of the gateway: its address in the LAN network and, optionally, a DHCP range it serves. */
export const SiteLan = z.object({
  /** 1 … {@link MAX_LAN_IDS}: the LAN port (LAN 1 is the gateway's first LAN interface). */
  id: LanId,
  name: SiteName,
  /** The gateway's own address in the LAN; with `prefix` it names the LAN network (a private range). */
  address: Ipv4Address,
  prefix: Prefix,
  lanDhcp: z.boolean(),
  /** Required with `lanDhcp`: inside the network, start ≤ end, not containing `address`. */
  dhcpStart: Ipv4Address.optional(),
  dhcpEnd: Ipv4Address.optional(),
});
export type SiteLan = z.infer<typeof SiteLan>;

/** A VLAN on a LAN port (802.1Q tag `vlanId`), with the gateway's address in it. */
export const SiteVlan = z.object({
  vlanId: z
    .number()
    .int({ message: 'validation.vlanId' })
    .min(1, { message: 'validation.vlanId' })
    .max(VLAN_ID_MAX, { message: 'validation.vlanId' }),
  name: SiteName,
  /** The LAN row it is tagged on. */
  lanId: LanId,
  address: Ipv4Address,
  prefix: Prefix,
});
export type SiteVlan = z.infer<typeof SiteVlan>;

export const SiteWanIp = z.object({ address: Ipv4Address, prefix: Prefix });

/** The WAN port: DHCP, or a static address with its default gateway; the DNS servers the gateway uses. */
export const SiteWan = z.object({
  mode: z.enum(['dhcp', 'static']),
  /** At most {@link MAX_GATEWAY_WAN_IPS}; required when static (ignored with DHCP). */
  ips: z.array(SiteWanIp).max(MAX_GATEWAY_WAN_IPS, { message: 'validation.maxWanIps' }).default([]),
  /** Required when static: an address of the WAN network (ignored with DHCP). */
  gateway: Ipv4Address.optional(),
  dns: z.array(Ipv4Address).max(MAX_WAN_DNS, { message: 'validation.maxDns' }).default([]),
});
export type SiteWan = z.infer<typeof SiteWan>;

export const PORT_FORWARD_PROTOCOLS = ['tcp', 'udp'] as const;

/** Connections to the WAN on `ports` (spec §5 port list) from `source` go to `ip` (on `toPort`, else the same port). */
export const SitePortForward = z.object({
  name: SiteName,
  protocol: z.enum(PORT_FORWARD_PROTOCOLS),
  /** `443`, `8000-8080` or a comma list of them. */
  ports: z.string().trim().refine(isValidPortList, { message: 'validation.portList' }),
  /** The internal host: an address of a LAN or VLAN network. */
  ip: Ipv4Address,
  /** One port on the host; without it each external port is kept. */
  toPort: z
    .number()
    .int({ message: 'validation.port' })
    .min(PORT_MIN, { message: 'validation.port' })
    .max(PORT_MAX, { message: 'validation.port' })
    .optional(),
  /** Who may connect: a CIDR block or `any`. */
  source: CidrOrAny,
});
export type SitePortForward = z.infer<typeof SitePortForward>;

/** Where a LAN's traffic to `destination` goes: straight out of the WAN, or through the tunnel to the cybernode. */
export const SiteTrafficFlow = z.object({
  name: SiteName,
  lanId: LanId,
  via: z.enum(['wan', 'tunnel']),
  destination: CidrOrAny,
});
export type SiteTrafficFlow = z.infer<typeof SiteTrafficFlow>;

/** The configuration as stored and answered (each row checked on its own). */
export const SiteConfig = z.object({
  lans: z.array(SiteLan).max(MAX_LAN_IDS, { message: 'validation.maxLans' }).default([]),
  vlans: z.array(SiteVlan).max(MAX_GATEWAY_VLAN_IDS, { message: 'validation.maxVlans' }).default([]),
  wan: SiteWan.default({ mode: 'dhcp', ips: [], dns: [] }),
  portForwards: z
    .array(SitePortForward)
    .max(MAX_PORT_FORWARDS, { message: 'validation.maxPortForwards' })
    .default([]),
  trafficFlows: z
    .array(SiteTrafficFlow)
    .max(MAX_TRAFFIC_FLOW_LIST, { message: 'validation.maxTrafficFlows' })
    .default([]),
});
export type SiteConfig = z.infer<typeof SiteConfig>;

/** What a gateway has before an administrator saves anything: DHCP on the WAN, nothing else. */
export const EMPTY_SITE_CONFIG: SiteConfig = {
  lans: [],
  vlans: [],
  wan: { mode: 'dhcp', ips: [], dns: [] },
  portForwards: [],
  trafficFlows: [],
};

// ─── Checks across rows ─────────────────────────────────────────────────────────────────────────────────────

/** One problem of a configuration: the field (`['portForwards', 2, 'ip']`), a translation key, its values. */
export interface SiteConfigProblem {
  path: (string | number)[];
  message: string;
  values?: Record<string, string>;
}

/** An address with its prefix as a block: the network, the first and last address. */
function blockOf(address: string, prefix: number) {
  const ip = parseIpv4(address) ?? 0;
  const network = (ip & ipv4Mask(prefix)) >>> 0;
  return { ip, network, prefix, first: network, last: ipv4BlockEnd({ network, prefix }) };
}
type Block = ReturnType<typeof blockOf>;

const overlaps = (a: { first: number; last: number }, b: { first: number; last: number }) =>
  a.first <= b.last && b.first <= a.last;
/** Neither the network nor the broadcast address of its block. */
const isHost = (ip: number, b: Block) => ip > b.first && ip < b.last;
const cidrText = (b: Block) => `${formatIpv4(b.network)}/${b.prefix}`;

/** A source (`any` or a CIDR block) as an address range. */
function sourceRange(source: string) {
  if (source.trim() === 'any') return { first: 0, last: 0xffffffff };
  const block = parseIpv4Cidr(source.trim());
  if (!block) return { first: 0, last: 0xffffffff };
  return { first: block.network, last: ipv4BlockEnd(block) };
}

/** A port list (already valid) as ranges. */
function portRanges(ports: string) {
  return ports
    .split(',')
    .map((item) => item.trim())
    .filter(isValidPort)
    .map((item) => {
      const [from, to = from] = item.split('-').map(Number);
      return { first: from, last: to };
    });
}

/**
 * The problems across rows of a configuration whose rows are each valid: LAN ids and VLAN ids unique, networks
 * private and apart from each other, addresses hosts of their networks, DHCP ranges, parents, the static WAN,
 * forward hosts inside a LAN or VLAN, flows' LANs. The port forwards' clashes are {@link portForwardConflicts}.
 */
export function siteConfigIssues(config: SiteConfig): SiteConfigProblem[] {
  const problems: SiteConfigProblem[] = [];
  const add = (path: (string | number)[], message: string) => problems.push({ path, message });

  const networks: { block: Block; path: (string | number)[] }[] = [];
  const seenLans = new Set<number>();
  config.lans.forEach((lan, i) => {
    if (seenLans.has(lan.id)) add(['lans', i, 'id'], 'validation.duplicate');
    seenLans.add(lan.id);
    const block = blockOf(lan.address, lan.prefix);
    if (!isAllowedPrivateRange(cidrText(block))) add(['lans', i, 'address'], 'validation.privateRange');
    else if (!isHost(block.ip, block)) add(['lans', i, 'address'], 'validation.hostAddress');
    networks.push({ block, path: ['lans', i, 'address'] });
    if (lan.lanDhcp) {
      if (lan.dhcpStart === undefined) add(['lans', i, 'dhcpStart'], 'validation.required');
      if (lan.dhcpEnd === undefined) add(['lans', i, 'dhcpEnd'], 'validation.required');
    }
    const start = lan.dhcpStart === undefined ? null : parseIpv4(lan.dhcpStart);
    const end = lan.dhcpEnd === undefined ? null : parseIpv4(lan.dhcpEnd);
    if (start !== null && !isHost(start, block)) add(['lans', i, 'dhcpStart'], 'validation.dhcpOutside');
    if (end !== null && !isHost(end, block)) add(['lans', i, 'dhcpEnd'], 'validation.dhcpOutside');
    if (start !== null && end !== null && isHost(start, block) && isHost(end, block)) {
      if (start > end) add(['lans', i, 'dhcpEnd'], 'validation.dhcpOrder');
      else if (block.ip >= start && block.ip <= end) {
        add(['lans', i, 'dhcpStart'], 'validation.dhcpIncludesAddress');
      }
    }
  });

  const seenVlans = new Set<number>();
  config.vlans.forEach((vlan, i) => {
    if (seenVlans.has(vlan.vlanId)) add(['vlans', i, 'vlanId'], 'validation.duplicate');
    seenVlans.add(vlan.vlanId);
    if (!seenLans.has(vlan.lanId)) add(['vlans', i, 'lanId'], 'validation.unknownLan');
    const block = blockOf(vlan.address, vlan.prefix);
    if (!isAllowedPrivateRange(cidrText(block))) add(['vlans', i, 'address'], 'validation.privateRange');
    else if (!isHost(block.ip, block)) add(['vlans', i, 'address'], 'validation.hostAddress');
    networks.push({ block, path: ['vlans', i, 'address'] });
  });

  // Each network that overlaps an earlier one is reported once.
  networks.forEach((network, i) => {
    if (networks.slice(0, i).some((earlier) => overlaps(earlier.block, network.block))) {
      add(network.path, 'validation.networkOverlap');
    }
  });

  const { wan } = config;
  if (wan.mode === 'static') {
    const ip = wan.ips[0];
    if (!ip) add(['wan', 'ips'], 'validation.required');
    else {
      const block = blockOf(ip.address, ip.prefix);
      if (!isHost(block.ip, block)) add(['wan', 'ips', 0, 'address'], 'validation.hostAddress');
      if (wan.gateway === undefined) add(['wan', 'gateway'], 'validation.required');
      else {
        const gateway = parseIpv4(wan.gateway) ?? 0;
        if (!isHost(gateway, block) || gateway === block.ip)
          add(['wan', 'gateway'], 'validation.gatewayOutside');
      }
    }
  }
  const seenDns = new Set<string>();
  wan.dns.forEach((server, i) => {
    if (seenDns.has(server)) add(['wan', 'dns', i], 'validation.duplicate');
    seenDns.add(server);
  });

  config.portForwards.forEach((forward, i) => {
    const ip = parseIpv4(forward.ip) ?? 0;
    if (!networks.some(({ block }) => isHost(ip, block))) {
      add(['portForwards', i, 'ip'], 'validation.forwardOutsideLan');
    }
  });

  const seenFlows = new Set<string>();
  config.trafficFlows.forEach((flow, i) => {
    if (!seenLans.has(flow.lanId)) add(['trafficFlows', i, 'lanId'], 'validation.unknownLan');
    const range = sourceRange(flow.destination);
    const key = `${flow.lanId}|${range.first}-${range.last}`;
    if (seenFlows.has(key)) add(['trafficFlows', i, 'destination'], 'validation.duplicate');
    seenFlows.add(key);
  });
  return problems;
}

/**
 * Port forwards that clash with an earlier one, each reported once on its own row:
 * - the same internal ip for overlapping sources (`any` overlaps every source): the spec's ip/source duplicate,
 *   `validation.ipSourceConflict` on `portForwards.<n>.ip` with `{ ip, source, otherSource }` — the earlier
 *   forward's source first, as {@link findIpSourceConflicts} reports it;
 * - else an external port of the same protocol an earlier forward already claims (whatever the source):
 *   `validation.portForwarded` on `portForwards.<n>.ports` with `{ name }` of the earlier forward.
 */
export function portForwardConflicts(forwards: readonly SitePortForward[]): SiteConfigProblem[] {
  const problems: SiteConfigProblem[] = [];
  forwards.forEach((forward, i) => {
    const earlier = forwards.slice(0, i);
    const source = sourceRange(forward.source);
    const sameHost = earlier.find(
      (other) => other.ip.trim() === forward.ip.trim() && overlaps(sourceRange(other.source), source),
    );
    if (sameHost) {
      const [conflict] = findIpSourceConflicts([
        { ip: sameHost.ip, source: sameHost.source.trim() },
        { ip: forward.ip, source: forward.source.trim() },
      ]);
      problems.push({
        path: ['portForwards', i, 'ip'],
        message: 'validation.ipSourceConflict',
        values: { ip: conflict.ip, source: conflict.sources[0], otherSource: conflict.sources[1] },
      });
      return;
    }
    const ports = portRanges(forward.ports);
    const claimed = earlier.find(
      (other) =>
        other.protocol === forward.protocol &&
        portRanges(other.ports).some((a) => ports.some((b) => overlaps(a, b))),
    );
    if (claimed) {
      problems.push({
        path: ['portForwards', i, 'ports'],
        message: 'validation.portForwarded',
        values: { name: claimed.name },
      });
    }
  });
  return problems;
}

/** What the PUT takes: {@link SiteConfig} with the checks across rows (the port forwards' clashes aside). */
export const SiteConfigInput = SiteConfig.superRefine((config, ctx) => {
  for (const problem of siteConfigIssues(config)) {
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }
});
export type SiteConfigInput = z.input<typeof SiteConfigInput>;

/** For a form: every check, the port forwards' clashes with their values as the issue's `params`. */
export const SiteConfigForm = SiteConfigInput.superRefine((config, ctx) => {
  for (const problem of portForwardConflicts(config.portForwards)) {
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: problem.values });
  }
});

/**
 * The configuration of one site gateway with what the screens show beside it: whether the gateway enforces it
 * (the version of its bundle that carries it against the version it reports enforcing).
 */
export const SiteConfigView = SiteConfig.extend({
  gatewayId: z.string(),
  kind: z.enum(SITE_GATEWAY_KINDS),
  name: z.string(),
  status: z.enum(GATEWAY_STATUSES),
  /** When it was last saved; null while the gateway has the empty configuration. */
  updatedAt: z.string().nullable(),
  /** The version of the gateway's bundle that carries this configuration (also its ETag). */
  currentVersion: z.string().nullable(),
  /** The bundle version the gateway last reported enforcing; null before its first. */
  appliedVersion: z.string().nullable(),
  /** The gateway enforces the current bundle, this configuration included. */
  isApplied: z.boolean(),
});
export type SiteConfigView = z.infer<typeof SiteConfigView>;

const SiteConfigParams = TenantParams.extend({ id: Uuid });

/** A site gateway's configuration; a cybernode, a virtual cybernode or another tenant's gateway is not found. */
export const siteConfigEndpoints = {
  getSiteConfig: endpoint({
    method: 'GET',
    path: '/devices/:tenant/:id/site-config',
    access: 'gateways:view',
    summary:
      "A site gateway's LANs, VLANs, WAN, port forwards and traffic flows, and whether it enforces them",
    tags: ['gateways'],
    params: SiteConfigParams,
    response: SiteConfigView,
  }),
  putSiteConfig: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/:id/site-config',
    access: 'gateways:update',
    summary: "Replace a site gateway's configuration; the gateway receives it in its next bundle at once",
    tags: ['gateways'],
    params: SiteConfigParams,
    body: SiteConfigInput,
    response: SiteConfigView,
  }),
};
