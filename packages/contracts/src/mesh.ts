import { z } from 'zod';
import { Uuid } from './common';
import { endpoint } from './endpoint';
import { GATEWAY_KINDS, GATEWAY_STATUSES } from './gateways';
import { TenantParams } from './tenants';

/**
 * The private-access mesh (issue 11, `/devices/spa/mesh`): which site gateways and which users form one mesh,
 * and through which cybernode (the hub) the users reach it — NetBird's routing peers and Firezone's sites, with
 * the WireGuard peers they make spelled out.
 * - **Sites** of the mesh reach each other's networks over gateway-to-gateway WireGuard tunnels: directly when
 *   one of the two has a public endpoint, through the hub when neither has.
 * - With a **hub**, the devices reach the mesh sites through it (the hub relays, keeping the device's address, so
 *   each site's ZTNA firewall still knows whose connection it is); the mesh sites then take no device peers.
 * - **Members** (users, and the users of groups) get the mesh sites' LAN and VLAN networks in their devices'
 *   AllowedIPs, and with a hub reach each other's devices through it. Everybody else keeps only what private
 *   services and ZTNA rules grant them.
 * A network two mesh sites both claim is routed to the first by name and reported as a conflict.
 */

export const MAX_MESH_SITES = 100;
export const MAX_MESH_MEMBERS = 500;

export const MeshSettingsInput = z.object({
  enabled: z.boolean(),
  /** A cybernode (kind cybernode or virtual) the devices reach the mesh sites through; null: directly. */
  hubId: Uuid.nullable().default(null),
  siteIds: z.array(Uuid).max(MAX_MESH_SITES, { message: 'validation.tooMany' }).default([]),
  userIds: z.array(Uuid).max(MAX_MESH_MEMBERS, { message: 'validation.tooMany' }).default([]),
  groupIds: z.array(Uuid).max(MAX_MESH_MEMBERS, { message: 'validation.tooMany' }).default([]),
});
export type MeshSettingsInput = z.input<typeof MeshSettingsInput>;

const Named = z.object({ id: z.string(), name: z.string() });

/** One WireGuard peer a mesh gateway gets: another gateway, with what is routed to it. */
export const MeshPeer = z.object({
  gatewayId: z.string(),
  name: z.string(),
  publicKey: z.string(),
  /** Where it is reached; null: it reaches out (keepalive 25 s from the other side). */
  endpoint: z.string().nullable(),
  allowedIps: z.array(z.string()),
});
export type MeshPeer = z.infer<typeof MeshPeer>;

/** A gateway of the mesh, with its tunnel and the peers its bundle carries for the mesh. */
export const MeshNode = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(GATEWAY_KINDS),
  status: z.enum(GATEWAY_STATUSES),
  /** Its tunnel address (`100.100.3.1/24`); null until it enrols. */
  address: z.string().nullable(),
  endpoint: z.string().nullable(),
  /** The networks the mesh reaches at this site (its LANs and VLANs, routed networks, private hosts). */
  networks: z.array(z.string()),
  peers: z.array(MeshPeer),
  /** Whether it takes the devices as peers itself (false: they reach it through the hub). */
  takesDevices: z.boolean(),
});
export type MeshNode = z.infer<typeof MeshNode>;

export const MESH_ISSUES = ['not-enrolled', 'conflict', 'unreachable'] as const;

/** Something that keeps the mesh from being whole, for the administrator to fix. */
export const MeshIssue = z.object({
  code: z.enum(MESH_ISSUES),
  /** The gateways concerned (for `conflict`: the one that keeps the network first). */
  gateways: z.array(Named),
  /** For `conflict`: the network both claim. */
  network: z.string().nullable(),
});
export type MeshIssue = z.infer<typeof MeshIssue>;

export const Mesh = z.object({
  enabled: z.boolean(),
  hub: Named.nullable(),
  sites: z.array(Named),
  users: z.array(Named),
  groups: z.array(Named),
  updatedAt: z.string().nullable(),
  /** What the bundles carry: the hub first, then the sites by name (empty while the mesh is off). */
  nodes: z.array(MeshNode),
  /** Member users' active devices with a tunnel, and what they get towards the hub or each site. */
  members: z.object({
    users: z.number().int(),
    devices: z.number().int(),
    /** The networks a member's device routes to each gateway of the mesh (gateway id → AllowedIPs). */
    allowedIps: z.array(
      z.object({ gatewayId: z.string(), name: z.string(), allowedIps: z.array(z.string()) }),
    ),
  }),
  issues: z.array(MeshIssue),
});
export type Mesh = z.infer<typeof Mesh>;

export const meshEndpoints = {
  getMesh: endpoint({
    method: 'GET',
    path: '/devices/:tenant/spa/mesh',
    access: 'gateways:view',
    summary: 'The private-access mesh: its sites, hub and members, and the WireGuard peers it makes',
    tags: ['private access'],
    params: TenantParams,
    response: Mesh,
  }),
  putMesh: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/spa/mesh',
    access: 'gateways:update',
    summary: 'Set which site gateways and users form the mesh, and its hub',
    tags: ['private access'],
    params: TenantParams,
    body: MeshSettingsInput,
    response: Mesh,
  }),
};
