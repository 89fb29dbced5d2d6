import {
  cidrsOverlap,
  DEVICE_TUNNEL_NETWORK,
  formatIpv4,
  type MeshIssue,
  type MeshPeer,
  normaliseCidr,
  parseIpOrCidr,
  parseIpv4OrCidr,
  SITE_GATEWAY_KINDS,
} from '@palisade/contracts';
import type { EngineInput } from '@palisade/policy-engine';
import type { Tx } from '../../db/client';
import type * as repo from './gateways.repository';
import * as meshRepo from './mesh.repository';
import * as accessRepo from './private-access.repository';
import { type PrivateAccess, siteNetworks } from './private-access.service';
import * as siteRepo from './site-config.repository';

/**
 * What the private-access mesh (contracts: mesh.ts) makes of the tenant's gateways: the gateway-to-gateway
 * WireGuard peers of the hub and the mesh sites, which gateways the devices reach through the hub, and the
 * AllowedIPs of a device towards each gateway. Pure but for {@link loadMeshPlan}.
 */

/** The gateways' tunnels: a /24 of 100.100.0.0/16 each (the gateway is its .1). */
const GATEWAY_TUNNELS = '100.100.0.0/16';

/** A gateway's tunnel network from its address (`100.100.3.1/24` → `100.100.3.0/24`). */
export function tunnelNetwork(address: string): string {
  return normaliseCidr(address) ?? address;
}

/** A gateway's own tunnel address as a host route (`100.100.3.1/24` → `100.100.3.1/32`). */
const tunnelHost = (address: string) => `${parseIpOrCidr(address)?.host ?? address}/32`;

// The mesh is IPv4 by design: the tunnels come from IPv4 pools and the engine's route rules are IPv4.
const isIpv4Network = (item: string) => parseIpOrCidr(item)?.family === 4;

/**
 * The networks the tenant's route rules send through each gateway (the rule's target names the gateway by its
 * host name or its name), in policy order: enabled route policies' enabled ROUTE rules with action route.
 */
export function routedNetworks(
  input: EngineInput,
  gateways: readonly repo.GatewayRow[],
): Map<string, string[]> {
  const byTarget = new Map<string, string>();
  for (const gateway of gateways) {
    byTarget.set(gateway.name.toLowerCase(), gateway.id);
    if (gateway.hostname) byTarget.set(gateway.hostname.toLowerCase(), gateway.id);
  }
  const routes = new Map<string, string[]>();
  for (const policy of input.policies) {
    if (!policy.enabled) continue;
    for (const rule of policy.rules) {
      if (!rule.enabled || rule.type !== 'ROUTE' || rule.action !== 'route') continue;
      const gatewayId = byTarget.get(rule.target.toLowerCase());
      if (!gatewayId) continue;
      const networks = rule.url
        .split(/[;,\s]+/)
        .map((item) => (item === '*' ? '0.0.0.0/0' : item))
        .filter(isIpv4Network);
      routes.set(gatewayId, [...(routes.get(gatewayId) ?? []), ...networks]);
    }
  }
  return routes;
}

interface Block {
  /** Canonical: `10.0.0.7/32`, `10.0.0.0/24`. */
  text: string;
  network: number;
  prefix: number;
}

/** An IPv4 address or block as a canonical block (`10.0.0.7` → `10.0.0.7/32`); null when malformed. */
function block(text: string): Block | null {
  const parsed = parseIpv4OrCidr(text);
  return parsed ? { text: `${formatIpv4(parsed.network)}/${parsed.prefix}`, ...parsed } : null;
}

/** Whether two blocks share an address (CIDR blocks nest or are disjoint). */
const overlaps = (a: Block, b: Block) => cidrsOverlap(a.text, b.text);

const RESERVED = [block(DEVICE_TUNNEL_NETWORK), block(GATEWAY_TUNNELS)].filter((b) => b !== null);

/** A gateway-to-gateway peer, as the gateway's WireGuard interface takes it. */
export interface MeshWireguardPeer extends MeshPeer {
  persistentKeepalive: number;
}

export interface MeshPlan {
  /** The enrolled hub while the mesh is on with one. */
  hub: repo.GatewayRow | null;
  /** The enrolled mesh sites while the mesh is on, by name. */
  sites: repo.GatewayRow[];
  /** Per gateway: the other gateways it peers with for the mesh. */
  peers: Map<string, MeshWireguardPeer[]>;
  /** The gateways the devices reach through the hub (they take no device peers themselves). */
  relayed: Set<string>;
  /** Per mesh site: the networks the mesh reaches there (LANs, VLANs, routed networks, private hosts). */
  networks: Map<string, string[]>;
  /** The tunnel hosts of the members' devices. */
  memberHosts: Set<number>;
  issues: MeshIssue[];
}

export const NO_MESH: MeshPlan = {
  hub: null,
  sites: [],
  peers: new Map(),
  relayed: new Set(),
  networks: new Map(),
  memberHosts: new Set(),
  issues: [],
};

export interface MeshPlanInput {
  settings: Pick<meshRepo.MeshRow, 'enabled' | 'hubId' | 'siteIds'> | null;
  /** The tenant's gateways that are not retired (pending ones too: they are reported as not enrolled). */
  gateways: readonly repo.GatewayRow[];
  /** Per site gateway: its LAN and VLAN networks. */
  lans: Map<string, string[]>;
  /** Per gateway: what route rules send through it. */
  routes: Map<string, string[]>;
  /** Private services and ZTNA rules: the hosts they name at each site. */
  access: Pick<PrivateAccess, 'entries'>;
  memberHosts: Set<number>;
}

const KEEPALIVE = 25;
const isSite = (gateway: repo.GatewayRow) => (SITE_GATEWAY_KINDS as readonly string[]).includes(gateway.kind);
const enrolled = (gateway: repo.GatewayRow | undefined): gateway is repo.GatewayRow =>
  !!gateway?.publicKey && !!gateway.wgAddress && !gateway.retiredAt;
const named = (gateway: repo.GatewayRow) => ({ id: gateway.id, name: gateway.name });

/**
 * The mesh's peers and routes. Sites reach each other directly when one of the two has an endpoint, through the
 * hub when neither has (unreachable without a hub); with a hub the devices reach every mesh site through it. A
 * network two sites claim (or that overlaps the tunnels' own ranges) stays with the first by name.
 */
export function meshPlan(input: MeshPlanInput): MeshPlan {
  const settings = input.settings;
  if (!settings?.enabled) return { ...NO_MESH, memberHosts: input.memberHosts };
  const byId = new Map(input.gateways.map((g) => [g.id, g]));
  const issues: MeshIssue[] = [];
  const notEnrolled = (id: string) => {
    const gateway = byId.get(id);
    if (gateway && !enrolled(gateway))
      issues.push({ code: 'not-enrolled', gateways: [named(gateway)], network: null });
  };
  const hubRow = settings.hubId ? byId.get(settings.hubId) : undefined;
  if (settings.hubId) notEnrolled(settings.hubId);
  const hub = enrolled(hubRow) && !isSite(hubRow) ? hubRow : null;
  for (const id of settings.siteIds) notEnrolled(id);
  const sites = settings.siteIds
    .map((id) => byId.get(id))
    .filter((g): g is repo.GatewayRow => enrolled(g) && isSite(g) && g.id !== hub?.id)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  // Each site's networks, the first site by name keeping one both claim.
  const claimed: { block: Block; site: repo.GatewayRow }[] = [];
  const networks = new Map<string, string[]>();
  for (const site of sites) {
    const own = [
      ...(input.lans.get(site.id) ?? []),
      ...(input.routes.get(site.id) ?? []),
      ...(input.access.entries.get(site.id) ?? []).map((entry) => entry.destination),
    ];
    // Widest first: a network inside another of the same site is routed with it.
    const blocks = own
      .map(block)
      .filter((b): b is Block => b !== null && b.prefix > 0)
      .sort((x, y) => x.prefix - y.prefix || x.network - y.network);
    const kept: string[] = [];
    const keptBlocks: Block[] = [];
    for (const b of blocks) {
      if (keptBlocks.some((k) => overlaps(k, b))) continue;
      const other = claimed.find((c) => c.site.id !== site.id && overlaps(c.block, b));
      if (other) {
        issues.push({ code: 'conflict', gateways: [named(other.site), named(site)], network: b.text });
        continue;
      }
      if (RESERVED.some((r) => overlaps(r, b))) {
        issues.push({ code: 'conflict', gateways: [named(site)], network: b.text });
        continue;
      }
      claimed.push({ block: b, site });
      keptBlocks.push(b);
      kept.push(b.text);
    }
    networks.set(site.id, kept);
  }
  const reach = (site: repo.GatewayRow) => [
    tunnelHost(site.wgAddress as string),
    ...(networks.get(site.id) ?? []),
  ];
  const peerOf = (gateway: repo.GatewayRow, allowedIps: string[]): MeshWireguardPeer => ({
    gatewayId: gateway.id,
    name: gateway.name,
    publicKey: gateway.publicKey as string,
    endpoint: gateway.endpoint,
    allowedIps,
    persistentKeepalive: KEEPALIVE,
  });

  const peers = new Map<string, MeshWireguardPeer[]>();
  if (hub)
    peers.set(
      hub.id,
      sites.map((site) => peerOf(site, reach(site))),
    );
  for (const site of sites) {
    const direct: MeshWireguardPeer[] = [];
    const throughHub: string[] = [];
    for (const other of sites) {
      if (other.id === site.id) continue;
      if (site.endpoint || other.endpoint) direct.push(peerOf(other, reach(other)));
      else if (hub) throughHub.push(...reach(other));
      else if (site.name.localeCompare(other.name) < 0 || (site.name === other.name && site.id < other.id))
        issues.push({ code: 'unreachable', gateways: [named(site), named(other)], network: null });
    }
    peers.set(site.id, [
      ...(hub
        ? [peerOf(hub, [tunnelHost(hub.wgAddress as string), DEVICE_TUNNEL_NETWORK, ...throughHub])]
        : []),
      ...direct,
    ]);
  }
  return {
    hub,
    sites,
    peers,
    relayed: new Set(hub ? sites.map((site) => site.id) : []),
    networks,
    memberHosts: input.memberHosts,
    issues,
  };
}

/**
 * A device's AllowedIPs towards each gateway it peers with (gateways in `gateways` order; a gateway the devices
 * reach through the hub is absent, what is routed there goes to the hub): each gateway's tunnel network, what
 * route rules send through it, what private services and ZTNA rules let the device reach there (`reachable`),
 * and for a member of the mesh the mesh sites' networks (and, with a hub, the other devices). A network goes to
 * the first gateway that claims it (WireGuard routes a block to one peer).
 */
export function deviceAllowedIps(
  gateways: readonly repo.GatewayRow[],
  routes: Map<string, string[]>,
  reachable: Map<string, string[]> | undefined,
  plan: MeshPlan,
  member: boolean,
): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  const add = (gatewayId: string, networks: readonly string[]) => {
    const to = plan.relayed.has(gatewayId) && plan.hub ? plan.hub.id : gatewayId;
    lists.set(to, [...(lists.get(to) ?? []), ...networks]);
  };
  for (const gateway of gateways) {
    const address = gateway.wgAddress as string;
    add(gateway.id, [plan.relayed.has(gateway.id) ? tunnelHost(address) : tunnelNetwork(address)]);
    add(gateway.id, routes.get(gateway.id) ?? []);
    add(gateway.id, reachable?.get(gateway.id) ?? []);
    if (member) add(gateway.id, plan.networks.get(gateway.id) ?? []);
  }
  if (member && plan.hub) add(plan.hub.id, [DEVICE_TUNNEL_NETWORK]);
  const taken = new Set<string>();
  const out = new Map<string, string[]>();
  for (const gateway of gateways) {
    if (plan.relayed.has(gateway.id)) continue;
    out.set(
      gateway.id,
      (lists.get(gateway.id) ?? []).filter((network) => !taken.has(network) && taken.add(network)),
    );
  }
  return out;
}

/** The tenant's mesh plan, from its settings, gateways, sites' networks, routes and private access. */
export async function loadMeshPlan(
  tx: Tx,
  tenantId: string,
  gateways: readonly repo.GatewayRow[],
  routes: Map<string, string[]>,
  access: Pick<PrivateAccess, 'entries'>,
): Promise<MeshPlan> {
  const settings = await meshRepo.meshOf(tx, tenantId);
  if (!settings?.enabled) return NO_MESH;
  const configs = await siteRepo.siteConfigsOf(tx, tenantId, settings.siteIds);
  const lans = new Map([...configs].map(([id, config]) => [id, siteNetworks(config)]));
  const memberHosts = await membersHosts(tx, tenantId, settings.userIds, settings.groupIds);
  return meshPlan({ settings, gateways, lans, routes, access, memberHosts });
}

/** The tunnel hosts of the active devices of some users and of the users of some groups. */
export async function membersHosts(
  tx: Tx,
  tenantId: string,
  userIds: readonly string[],
  groupIds: readonly string[],
): Promise<Set<number>> {
  if (userIds.length === 0 && groupIds.length === 0) return new Set();
  const { devices, members } = await accessRepo.audienceDevices(tx, tenantId);
  const users = new Set(userIds);
  const groups = new Set(groupIds);
  for (const member of members) if (groups.has(String(member.group_id))) users.add(String(member.user_id));
  return new Set(devices.filter((d) => users.has(String(d.user_id))).map((d) => Number(d.host)));
}

/** Whether a gateway is the hub or a site of the tenant's mesh while it is on (its changes change the mesh). */
export async function inMesh(tx: Tx, tenantId: string, gatewayId: string): Promise<boolean> {
  const settings = await meshRepo.meshOf(tx, tenantId);
  return !!settings?.enabled && (settings.hubId === gatewayId || settings.siteIds.includes(gatewayId));
}
