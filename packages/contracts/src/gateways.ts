import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, NonEmpty, Uuid } from './common';
import { endpoint } from './endpoint';
import { GwLan } from './internal-devices';
import { isIpv4 } from './ip';
import {
  MACHINE_BYTES_MAX,
  machineBytes,
  machineCount,
  machineInteger,
  machineNumber,
  machinePercent,
  machineTime,
} from './machine-values';
import { PolicyInput, RuleRef } from './policies';
import { TenantParams } from './tenants';

/**
 * Gateways: the cloud points of presence (cybernodes), a tenant's own instances of them (virtual cybernodes) and
 * site gateways (devices of OS type `cgw`, `cgwr` or `lgw`, spec §3). Every kind enrols the same way and
 * receives the tenant's compiled policy as a bundle (see the gateway protocol below).
 */
export const GATEWAY_KINDS = ['cybernode', 'virtual', 'cgw', 'cgwr', 'lgw'] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];
/** The kinds that are site gateways (a device at a customer site) rather than cybernodes. */
export const SITE_GATEWAY_KINDS = ['cgw', 'cgwr', 'lgw'] as const satisfies readonly GatewayKind[];

/**
 * - `pending`: created, waiting for its enrolment;
 * - `online`: heard from within {@link GATEWAY_OFFLINE_AFTER_MS};
 * - `offline`: enrolled, silent for 3 heartbeats;
 * - `retired`: taken out of service; its credential no longer works.
 */
export const GATEWAY_STATUSES = ['pending', 'online', 'offline', 'retired'] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

/** How often a gateway reports (`POST /gw/heartbeat`). */
export const GATEWAY_HEARTBEAT_MS = 5_000;
/** A gateway silent for 3 heartbeats is shown offline. */
export const GATEWAY_OFFLINE_AFTER_MS = 3 * GATEWAY_HEARTBEAT_MS;
/** The longest a bundle long-poll is held (`?wait=` seconds). */
export const GATEWAY_BUNDLE_MAX_WAIT_S = 60;
/** How long a gateway's enrolment token stays valid. */
export const GATEWAY_ENROLMENT_TTL_MS = 86_400_000;
/** How many bundle versions are kept per tenant for rollback. */
export const GATEWAY_BUNDLES_KEPT = 50;

/** Regions of the cloud points of presence (cybernodes); site gateways name their own. */
export const GATEWAY_REGIONS = [
  'eu-central',
  'eu-west',
  'eu-north',
  'us-east',
  'us-west',
  'ap-southeast',
  'ap-northeast',
  'sa-east',
  'af-south',
  'me-central',
] as const;

/** A WireGuard public key: base64 of 32 bytes. */
export const WireguardKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, { message: 'validation.wireguardKey' });

export const GatewayName = NonEmpty(64);

const ENDPOINT_HOST =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const ENDPOINT_PORT = /^(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3})$/;

/**
 * Whether `text` is `host:port`, the host a strict IPv4 address (./ip: `010.1.1.1` or `1.2.3` are neither an
 * address nor a name) or a DNS name, the port 1…65535. IPv4 or a name only, as the field is documented and the
 * gateway's `--endpoint` says; `[IPv6]:port` is not taken (yet), though the WireGuard generator could write it.
 */
function isWireguardEndpoint(text: string): boolean {
  const colon = text.lastIndexOf(':');
  const host = text.slice(0, colon);
  if (colon < 0 || !ENDPOINT_PORT.test(text.slice(colon + 1))) return false;
  return /^[\d.]+$/.test(host) ? isIpv4(host) : ENDPOINT_HOST.test(host);
}

/** A WireGuard endpoint: `host:port`, the host an IPv4 address or a DNS name. */
export const WireguardEndpoint = z
  .string()
  .trim()
  .refine(isWireguardEndpoint, { message: 'validation.wireguardEndpoint' });

/** The devices' tunnel network: each device of a tenant gets one address of it. */
export const DEVICE_TUNNEL_NETWORK = '100.64.0.0/16';

/** A gateway as one of a device's WireGuard peers. */
export const DeviceWireguardPeer = z.object({
  gatewayId: z.string(),
  name: z.string(),
  publicKey: z.string(),
  /** Null until the gateway names where devices reach it. */
  endpoint: z.string().nullable(),
  /** The gateway's tunnel network and the networks routed through it (route rules naming it). */
  allowedIps: z.array(z.string()),
});

/**
 * What a device that enrolled with a WireGuard key needs for its tunnel: its address, the resolver, its peers,
 * and the `wg-quick` text with its private key left for the device to fill in.
 */
export const DeviceWireguard = z.object({
  address: z.string(),
  dns: z.array(z.string()),
  peers: z.array(DeviceWireguardPeer),
  config: z.string(),
});
export type DeviceWireguard = z.infer<typeof DeviceWireguard>;

/** What the last heartbeat said about the gateway's load. */
export const GatewayMetrics = z.object({
  cpuPercent: z.number().min(0).max(100),
  memoryPercent: z.number().min(0).max(100),
  /** Bytes per second through the gateway, both directions. */
  throughputBps: z.number().min(0),
  uptimeSeconds: z.number().int().min(0),
  /** WireGuard peers with a handshake in the last 3 minutes. */
  activePeers: z.number().int().min(0),
  connectedUsers: z.number().int().min(0),
  /**
   * Decision events the gateway's disk queue dropped (oldest first, when it was full during an outage) since it
   * was set up: the telemetry of that time is incomplete. Absent from gateways that do not report it.
   */
  decisionEventsDropped: z.number().int().min(0).optional(),
});
export type GatewayMetrics = z.infer<typeof GatewayMetrics>;

/**
 * The load a heartbeat reports ({@link GatewayMetrics}, as a machine sends it: every number finite and in range,
 * machine-values.ts). The answer's schema stays as it was, so a load stored before these bounds still shows.
 */
export const GwMetrics = z.object({
  cpuPercent: machinePercent(),
  memoryPercent: machinePercent(),
  /** Bytes per second through the gateway, both directions. */
  throughputBps: machineNumber(MACHINE_BYTES_MAX),
  uptimeSeconds: machineInteger(MACHINE_BYTES_MAX),
  /** WireGuard peers with a handshake in the last 3 minutes. */
  activePeers: machineCount(),
  connectedUsers: machineCount(),
  /** {@link GatewayMetrics.decisionEventsDropped}: with `--apply`, the count of the decision queue. */
  decisionEventsDropped: machineCount().optional(),
});

export const GatewayUpgrade = z.object({
  targetVersion: z.string(),
  requestedAt: z.string(),
  /** `timedOut` once GATEWAY_UPGRADE_TIMEOUT_MS (constants.ts) passed without the new version reported. */
  state: z.enum(['pending', 'done', 'timedOut']),
});

export const Gateway = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(GATEWAY_KINDS),
  region: z.string(),
  /** Spec §3 Server: the node's URL and its name (shown without the leading network prefix). */
  serverUrl: z.string().nullable(),
  serverName: z.string().nullable(),
  status: z.enum(GATEWAY_STATUSES),
  hostname: z.string().nullable(),
  /** The gateway software's version. */
  version: z.string().nullable(),
  publicKey: z.string().nullable(),
  /** Its tunnel address (CIDR) and WireGuard port, and where devices reach it. */
  address: z.string().nullable(),
  listenPort: z.number().int().nullable(),
  endpoint: z.string().nullable(),
  enrolledAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** The bundle version it enforces, and since when; the version it should enforce now beside it. */
  enforcedVersion: z.string().nullable(),
  enforcedAt: z.string().nullable(),
  currentVersion: z.string().nullable(),
  /** Behind the current version for longer than a long-poll plus a heartbeat. */
  isDrifting: z.boolean(),
  metrics: GatewayMetrics.nullable(),
  upgrade: GatewayUpgrade.nullable(),
  createdAt: z.string(),
});
export type Gateway = z.infer<typeof Gateway>;

export const GATEWAY_SORTS = ['name', 'region', 'status', 'lastSeenAt'] as const;
export const GatewayListQuery = KeysetPageQuery.extend({
  sort: z.enum(GATEWAY_SORTS).default('name'),
  /** `cybernode` lists the cloud nodes, `virtual` the tenant's own, `site` the site gateways. */
  kind: z.enum(['cybernode', 'virtual', 'site']).optional(),
  status: z.enum(GATEWAY_STATUSES).optional(),
});
export type GatewayListQuery = z.infer<typeof GatewayListQuery>;

export const GatewayInput = z.object({
  name: GatewayName,
  region: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(64, { message: 'validation.tooLong' }),
  kind: z.enum(GATEWAY_KINDS),
});
export type GatewayInput = z.input<typeof GatewayInput>;

export const GatewayUpdate = GatewayInput.omit({ kind: true });
export type GatewayUpdate = z.input<typeof GatewayUpdate>;

/** A one-time enrolment token: shown once, stored hashed, valid for {@link GATEWAY_ENROLMENT_TTL_MS}. */
export const GatewayEnrolmentToken = z.object({ token: z.string(), expiresAt: z.string() });

export const GatewayCreated = z.object({ cybernode: Gateway, enrolmentToken: GatewayEnrolmentToken });

export const GatewayUpgradeInput = z.object({
  targetVersion: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, { message: 'validation.version' }),
});

const GatewayParams = TenantParams.extend({ id: Uuid });

/** The administrators' calls (spec §2 Cybernodes). */
export const gatewayEndpoints = {
  listGateways: endpoint({
    method: 'GET',
    path: '/cybernodes/:tenant',
    access: 'gateways:view',
    summary: "A page of the tenant's cybernodes and site gateways with their live state",
    tags: ['gateways'],
    params: TenantParams,
    query: GatewayListQuery,
    response: KeysetPage(Gateway),
  }),
  getGateway: endpoint({
    method: 'GET',
    path: '/cybernodes/:tenant/:id',
    access: 'gateways:view',
    summary: 'One gateway: status, version, load, tunnels and the policy version it enforces',
    tags: ['gateways'],
    params: GatewayParams,
    response: Gateway,
  }),
  createGateway: endpoint({
    method: 'POST',
    path: '/cybernodes/:tenant',
    access: 'gateways:create',
    summary: 'Add a cybernode or site gateway; answers it with a one-time enrolment token',
    tags: ['gateways'],
    params: TenantParams,
    body: GatewayInput,
    response: GatewayCreated,
    status: 201,
  }),
  updateGateway: endpoint({
    method: 'PUT',
    path: '/cybernodes/:tenant/:id',
    access: 'gateways:update',
    summary: 'Rename a gateway or move it to another region',
    tags: ['gateways'],
    params: GatewayParams,
    body: GatewayUpdate,
    response: Gateway,
  }),
  retireGateway: endpoint({
    method: 'DELETE',
    path: '/cybernodes/:tenant/:id',
    access: 'gateways:delete',
    summary: 'Retire a gateway: its credential stops working at once',
    tags: ['gateways'],
    params: GatewayParams,
    response: Gateway,
  }),
  rotateGatewayCredentials: endpoint({
    method: 'POST',
    path: '/cybernodes/:tenant/:id/rotate',
    access: 'gateways:update',
    summary: 'Revoke the gateway credential and issue a new enrolment token',
    tags: ['gateways'],
    params: GatewayParams,
    response: GatewayCreated,
  }),
  upgradeGateway: endpoint({
    method: 'POST',
    path: '/cybernodes/:tenant/:id/upgrade',
    access: 'gateways:update',
    summary: 'Ask a gateway to upgrade; reported as timed out after 15 minutes without confirmation',
    tags: ['gateways'],
    params: GatewayParams,
    body: GatewayUpgradeInput,
    response: Gateway,
  }),
};

// ─── Bundle history, rollback and preview ───────────────────────────────────────────────────────────────────

export const ARTEFACT_NAMES = ['wireguard', 'nftables', 'rpz', 'rpzAudiences', 'squid'] as const;
export type ArtefactName = (typeof ARTEFACT_NAMES)[number];

/** One kept bundle version of the tenant (the artefacts every gateway shares; WireGuard is per gateway). */
export const BundleSummary = z.object({
  version: z.string(),
  /** The tenant's policy version it was compiled from. */
  policyVersion: z.number().int(),
  createdAt: z.string(),
  /** Pushed back by an administrator: current until the policy changes again. */
  pinnedAt: z.string().nullable(),
  isCurrent: z.boolean(),
  /** Rule items no artefact could express. */
  skipped: z.number().int(),
});
export type BundleSummary = z.infer<typeof BundleSummary>;

/** The change of one artefact between two bundles, as a unified diff (empty when unchanged). */
export const ArtefactDiff = z.object({
  artefact: z.enum(ARTEFACT_NAMES),
  added: z.number().int(),
  removed: z.number().int(),
  diff: z.string(),
  /** Too many changed lines to show them: `diff` is empty, the counts still hold. */
  isTooLarge: z.boolean(),
});
export type ArtefactDiff = z.infer<typeof ArtefactDiff>;

export const BundleDiff = z.object({
  from: z.string(),
  to: z.string(),
  artefacts: z.array(ArtefactDiff),
});
export type BundleDiff = z.infer<typeof BundleDiff>;

/** What saving a policy would push: the gateways that would receive a new bundle and each artefact's diff. */
export const BundlePreview = z.object({
  currentVersion: z.string(),
  nextVersion: z.string(),
  /** The enrolled gateways (not retired) that would receive it; empty when nothing they enforce changes. */
  gateways: z.array(z.object({ id: z.string(), name: z.string(), kind: z.enum(GATEWAY_KINDS) })),
  artefacts: z.array(ArtefactDiff),
});
export type BundlePreview = z.infer<typeof BundlePreview>;

export const BundlePreviewInput = z.object({
  /** The policy being edited; null for a new one. */
  policyId: Uuid.nullable().default(null),
  policy: PolicyInput,
});
export type BundlePreviewInput = z.input<typeof BundlePreviewInput>;

const BundleVersionParams = TenantParams.extend({
  version: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{16}$/, { message: 'validation.invalid' }),
});

export const bundleEndpoints = {
  listBundles: endpoint({
    method: 'GET',
    path: '/cybernodes/:tenant/bundles',
    access: 'gateways:view',
    summary: "The tenant's kept bundle versions, newest first, the current one marked",
    tags: ['gateways'],
    params: TenantParams,
    response: z.object({ items: z.array(BundleSummary) }),
  }),
  diffBundle: endpoint({
    method: 'GET',
    path: '/cybernodes/:tenant/bundles/:version/diff',
    access: 'gateways:view',
    summary: 'What pushing a kept bundle back would change: its artefacts against the current bundle',
    tags: ['gateways'],
    params: BundleVersionParams,
    response: BundleDiff,
  }),
  pushBundle: endpoint({
    method: 'POST',
    path: '/cybernodes/:tenant/bundles/:version/push',
    access: 'gateways:update',
    summary: 'Push a kept bundle back to every gateway (rollback); current until the policy changes again',
    tags: ['gateways'],
    params: BundleVersionParams,
    response: BundleSummary,
  }),
  previewBundle: endpoint({
    method: 'POST',
    path: '/cybernodes/:tenant/preview',
    access: 'gateways:view',
    summary:
      'Before saving a policy: which gateways would receive a new bundle, and the diff of each artefact',
    tags: ['gateways'],
    params: TenantParams,
    body: BundlePreviewInput,
    response: BundlePreview,
  }),
};

// ─── The spec's §7 calls over live gateway state, and the routes ──────────────────────────────────────────

/** A WireGuard peer of a gateway as its last heartbeat saw it, with the device (and user) holding the key. */
export const GatewayPeerState = z.object({
  publicKey: z.string(),
  device: z.object({ id: z.string(), name: z.string() }).nullable(),
  user: z.object({ id: z.string(), username: z.string() }).nullable(),
  lastHandshakeAt: z.string().nullable(),
  rxBytes: z.number().int(),
  txBytes: z.number().int(),
  /** A handshake within the last {@link PEER_ACTIVE_MS}. */
  isActive: z.boolean(),
});
export type GatewayPeerState = z.infer<typeof GatewayPeerState>;

/** WireGuard renews a session's keys every 2 minutes: a peer without a handshake for 3 minutes is idle. */
export const PEER_ACTIVE_MS = 180_000;

/** The most rows one of the live-state calls answers; `isTruncated` says when there were more. */
export const LIVE_STATE_MAX = 1_000;

/** `GET dynamicinfo/cgw`: the live state of the tenant's site gateways. */
export const CgwDynamicInfo = z.object({
  items: z.array(
    Gateway.pick({
      id: true,
      name: true,
      kind: true,
      region: true,
      status: true,
      version: true,
      lastSeenAt: true,
      enforcedVersion: true,
      currentVersion: true,
      isDrifting: true,
      metrics: true,
    }).extend({ peers: z.array(GatewayPeerState) }),
  ),
  isTruncated: z.boolean(),
});

/** `GET system/exedgeinfo`: the edge (point of presence) inventory — the cybernodes by region. */
export const ExEdgeInfo = z.object({
  regions: z.array(z.object({ region: z.string(), total: z.number().int(), online: z.number().int() })),
  items: z.array(
    Gateway.pick({
      id: true,
      name: true,
      kind: true,
      region: true,
      serverUrl: true,
      serverName: true,
      status: true,
      version: true,
      lastSeenAt: true,
      metrics: true,
    }),
  ),
  isTruncated: z.boolean(),
});

/** `GET ocnconfig`: the tenant's overlay network — addressing, resolvers and the protocol's timing. */
export const OcnConfig = z.object({
  deviceNetwork: z.string(),
  gateways: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(GATEWAY_KINDS),
      network: z.string().nullable(),
      listenPort: z.number().int().nullable(),
      endpoint: z.string().nullable(),
      publicKey: z.string().nullable(),
    }),
  ),
  dns: z.object({ rpzZone: z.string(), resolvers: z.array(z.string()) }),
  heartbeatMs: z.number().int(),
  offlineAfterMs: z.number().int(),
  bundleMaxWaitSeconds: z.number().int(),
  currentVersion: z.string(),
});

/** `GET ocn/virtsess`: the sessions through the nodes — every device tunnel a gateway reported, active first. */
export const VirtualSessions = z.object({
  items: z.array(
    GatewayPeerState.extend({
      gateway: z.object({ id: z.string(), name: z.string(), kind: z.enum(GATEWAY_KINDS) }),
    }),
  ),
  isTruncated: z.boolean(),
});

/** `GET {product}/cgwsusers`: the users whose devices are tunnelled through the site gateways. */
export const CgwsUsers = z.object({
  items: z.array(
    z.object({
      userId: z.string(),
      username: z.string(),
      devices: z.number().int(),
      gateways: z.array(z.object({ id: z.string(), name: z.string() })),
      lastHandshakeAt: z.string().nullable(),
      isActive: z.boolean(),
    }),
  ),
  isTruncated: z.boolean(),
});

/**
 * A route (spec `policy/route`): a ROUTE rule of the tenant, in the order the engine evaluates them (system ones
 * included). With action `route` it sends its networks through the gateway its target names.
 */
export const RouteEntry = RuleRef.extend({
  url: z.string(),
  target: z.string(),
  ports: z.string(),
  /** The destination networks of the matcher (`*` is 0.0.0.0/0). */
  networks: z.array(z.string()),
  /** Policy and rule enabled. */
  isActive: z.boolean(),
  /** For action `route`: the gateway the target names (its host name or name), when one answers to it. */
  gateway: z.object({ id: z.string(), name: z.string(), status: z.enum(GATEWAY_STATUSES) }).nullable(),
});
export type RouteEntry = z.infer<typeof RouteEntry>;

/**
 * A route as one device gets it (`/devices/route/{id}/{deviceid}`): what the engine decides for the device's
 * traffic to the route's first network — the simulator's own decision — and the tunnel that carries it.
 */
export const DeviceRoute = z.object({
  route: RouteEntry,
  device: z.object({
    id: z.string(),
    name: z.string(),
    user: z.object({ id: z.string(), username: z.string() }).nullable(),
    /** Its tunnel address, when it enrolled with a WireGuard key. */
    address: z.string().nullable(),
  }),
  /** The address decided for: the route's first network's first address. Null when it has none. */
  destination: z.string().nullable(),
  decision: z.enum(['allow', 'block']).nullable(),
  /** The gateway the engine routes the device's traffic through (by the name the rule gives). */
  gatewayTarget: z.string().nullable(),
  /** The rule that decided, when one did. */
  decidedBy: RuleRef.nullable(),
  /** Whether this route is the one that routes it (another may take precedence, or none apply to the device). */
  isThisRoute: z.boolean(),
  /** The device's WireGuard AllowedIPs towards the route's gateway (what its tunnel sends there). */
  allowedIps: z.array(z.string()),
});
export type DeviceRoute = z.infer<typeof DeviceRoute>;

export const networkEndpoints = {
  cgwDynamicInfo: endpoint({
    method: 'GET',
    path: '/dynamicinfo/cgw',
    access: 'gateways:view',
    summary: "Live state of the signed-in tenant's site gateways with their tunnel peers",
    tags: ['gateways'],
    response: CgwDynamicInfo,
  }),
  exEdgeInfo: endpoint({
    method: 'GET',
    path: '/system/exedgeinfo',
    access: 'gateways:view',
    summary: 'The edge inventory: cybernodes (points of presence) by region with their state',
    tags: ['gateways'],
    response: ExEdgeInfo,
  }),
  ocnConfig: endpoint({
    method: 'GET',
    path: '/ocnconfig',
    access: 'gateways:view',
    summary: "The tenant's overlay network: device and gateway tunnel networks, endpoints, resolvers, timing",
    tags: ['gateways'],
    response: OcnConfig,
  }),
  virtualSessions: endpoint({
    method: 'GET',
    path: '/ocn/virtsess',
    access: 'gateways:view',
    summary: 'Device tunnels through the gateways as their heartbeats report them, active first',
    tags: ['gateways'],
    response: VirtualSessions,
  }),
  cgwsUsers: endpoint({
    method: 'GET',
    path: '/:product/cgwsusers',
    access: 'gateways:view',
    summary: 'Users whose devices are tunnelled through the site gateways',
    tags: ['gateways'],
    params: z.object({
      product: z
        .string()
        .trim()
        .regex(/^[a-z0-9-]{1,32}$/, { message: 'validation.invalid' }),
    }),
    response: CgwsUsers,
  }),
  listRoutes: endpoint({
    method: 'GET',
    path: '/policy/route/:tenant',
    access: 'policies:view',
    summary: 'Every ROUTE rule in evaluation order (spec §7 routes), each route with the gateway it names',
    tags: ['gateways'],
    params: TenantParams,
    response: z.object({ items: z.array(RouteEntry) }),
  }),
  getRoute: endpoint({
    method: 'GET',
    path: '/policy/route/:tenant/:id',
    access: 'policies:view',
    summary: 'One ROUTE rule (by rule id) with the gateway it names',
    tags: ['gateways'],
    params: TenantParams.extend({ id: Uuid }),
    response: RouteEntry,
  }),
  getDeviceRoute: endpoint({
    method: 'GET',
    path: '/policy/route/:tenant/:id/device/:deviceId',
    access: 'policies:view',
    summary: "A route as one device gets it: the engine's decision for the device and the tunnel carrying it",
    tags: ['gateways'],
    params: TenantParams.extend({ id: Uuid, deviceId: Uuid }),
    response: DeviceRoute,
  }),
};

// ─── The gateway protocol: machine to machine, under /api/gw/ ──────────────────────────────────────────────

/** The prefix of a gateway credential (`Authorization: Bearer gw_…`). */
export const GATEWAY_CREDENTIAL_PREFIX = 'gw_';

export const GwEnrolInput = z.object({
  token: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(200, { message: 'validation.tooLong' }),
  /** The gateway's WireGuard public key, generated on the gateway: the server never sees its private key. */
  publicKey: WireguardKey,
  hostname: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(253, { message: 'validation.tooLong' }),
  version: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, { message: 'validation.version' }),
  /** Where devices reach its WireGuard port: `host:port` (an IPv4 address or a DNS name). */
  endpoint: WireguardEndpoint.optional(),
});
export type GwEnrolInput = z.input<typeof GwEnrolInput>;

export const GwEnrolled = z.object({
  gatewayId: z.string(),
  tenant: z.string(),
  /** The gateway credential: shown once, stored hashed, revoked by rotating or retiring the gateway. */
  credential: z.string(),
  wireguard: z.object({ address: z.string(), listenPort: z.number().int() }),
  heartbeatMs: z.number().int(),
});

export const GwBundleQuery = z.object({
  /** Seconds to hold the request while nothing changed (0 answers at once). */
  wait: z.coerce.number().int().min(0).max(GATEWAY_BUNDLE_MAX_WAIT_S).default(30),
});

/**
 * A site gateway's own configuration compiled (site-config.ts, `siteArtefacts` of @palisade/gateway-config): the
 * `table inet palisade_site` ruleset (port forwards, masquerading, the LAN management port, traffic flows) and a
 * shell script of `ip` commands bringing up its LAN, VLAN and WAN interfaces.
 */
export const GwSiteArtefacts = z.object({ nftables: z.string(), interfaces: z.string() });

/** The artefacts a gateway enforces, each as the text its tool reads. */
export const GwArtefacts = z.object({
  wireguard: z.string(),
  nftables: z.string(),
  rpz: z.string(),
  /**
   * The DNS layer of policies for some subjects: one RPZ zone per audience (the devices the same such policies
   * apply to), each headed by `; audience <tag> <origin> clients <addresses>` (gateway-config audiences.ts).
   * Absent from bundles of older servers.
   */
  rpzAudiences: z.string().optional(),
  squid: z.string(),
  /** Only for a site gateway whose configuration an administrator saved; cybernodes never have it. */
  site: GwSiteArtefacts.optional(),
  /**
   * Only for a site gateway: its ZTNA firewall (`table inet palisade_ztna`), guarding the hosts its private
   * services and ZTNA rules name (contracts: private-access.ts).
   */
  ztna: z.string().optional(),
  /**
   * Only for a site gateway with local controls (contracts: local-controls.ts): `table inet palisade_local` for
   * connections from its LANs, and the RPZ zone `rpz-local.palisade.` for its LANs' DNS.
   */
  local: z.object({ nftables: z.string(), rpz: z.string() }).optional(),
});

/** A policy bundle: the version (also the ETag), the artefacts and the compiled engine input. */
export const GwBundle = z.object({
  version: z.string(),
  createdAt: z.string(),
  artefacts: GwArtefacts,
  /** The engine input the artefacts were compiled from (the simulator compiles the same). */
  policy: z.unknown(),
  /**
   * The console's public address, which the gateway writes in place of BLOCK_PAGE_URL_PLACEHOLDER in the squid
   * artefact: where blocked web requests are redirected to (`/blockaccess/…`). Absent from older servers.
   */
  blockPageUrl: z.string().optional(),
  /** Rule items no artefact could express, and why. */
  skipped: z.array(
    z.object({
      artefact: z.string(),
      policyId: z.string(),
      ruleId: z.string(),
      item: z.string(),
      reason: z.string(),
    }),
  ),
  /**
   * Who is behind each device tunnel address: the device, its user and the user's groups — what the gateway
   * names in its events and decides a request of that address for (absent from bundles of older servers).
   */
  identities: z
    .array(
      z.object({
        address: z.string(),
        deviceId: z.string(),
        userId: z.string().nullable(),
        groups: z.array(z.string()),
      }),
    )
    .optional(),
});
export type GwBundle = z.infer<typeof GwBundle>;

export const GwPeer = z.object({
  publicKey: WireguardKey,
  /** Its latest handshake (2000 to 5 minutes ahead of the server's clock, kept as UTC); null before the first. */
  lastHandshakeAt: machineTime().nullable(),
  rxBytes: machineBytes(),
  txBytes: machineBytes(),
});

export const GwHeartbeat = z.object({
  /** The gateway software's version (an upgrade is done when it reports the target). */
  version: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, { message: 'validation.version' }),
  /** The bundle version it enforces now; null before its first bundle. */
  enforcedVersion: z.string().max(64).nullable(),
  metrics: GwMetrics,
  peers: z.array(GwPeer).max(100_000),
  /**
   * A site gateway's LAN side: the hosts of its DHCP leases and ARP table (internal-devices.ts). Optional;
   * a cybernode's is ignored.
   */
  lan: GwLan.optional(),
  /**
   * The round trip, in milliseconds, the gateway measured for its previous heartbeat (request to answer): a site's
   * latency to the console on `/devices/site-performance`. Absent on the first heartbeat.
   */
  latencyMs: machineNumber(600_000).optional(),
});
export type GwHeartbeat = z.input<typeof GwHeartbeat>;

export const GwHeartbeatAnswer = z.object({
  /** The tenant's current bundle version: a gateway behind it should fetch the bundle. */
  currentVersion: z.string().nullable(),
  /** An upgrade the administrator asked for. */
  upgrade: z.object({ targetVersion: z.string() }).nullable(),
});

export const GATEWAY_EVENT_KINDS = ['connection', 'decision', 'device', 'metric'] as const;
/** One line of a `POST /gw/events` NDJSON batch. */
export const GwEvent = z.object({
  /** The gateway's own id of the event: a batch sent twice is stored once. */
  id: z.string().min(1).max(64),
  at: machineTime(),
  kind: z.enum(GATEWAY_EVENT_KINDS),
  data: z.record(z.string(), z.unknown()),
});
export type GwEvent = z.infer<typeof GwEvent>;
/** The most events one batch may carry. */
export const GW_EVENTS_MAX_BATCH = 5_000;

export const gwEndpoints = {
  enrol: endpoint({
    method: 'POST',
    path: '/gw/enrol',
    access: 'public',
    summary: 'A gateway enrols with its one-time token and WireGuard public key; answers its credential',
    tags: ['gateway protocol'],
    body: GwEnrolInput,
    response: GwEnrolled,
    status: 201,
  }),
  bundle: endpoint({
    method: 'GET',
    path: '/gw/bundle',
    access: 'gateway',
    summary:
      'The policy bundle; with If-None-Match the request waits up to ?wait= seconds for a new version (304 if none)',
    tags: ['gateway protocol'],
    query: GwBundleQuery,
    response: GwBundle,
  }),
  heartbeat: endpoint({
    method: 'POST',
    path: '/gw/heartbeat',
    access: 'gateway',
    summary: 'Status, the version enforced, load and tunnel peers, every few seconds',
    tags: ['gateway protocol'],
    body: GwHeartbeat,
    response: GwHeartbeatAnswer,
  }),
  events: endpoint({
    method: 'POST',
    path: '/gw/events',
    access: 'gateway',
    summary:
      'A batch of connection, decision, device and metric events (NDJSON, one event per line; telemetry.ts)',
    tags: ['gateway protocol'],
    response: z.object({
      accepted: z.number().int(),
      duplicates: z.number().int(),
      /** Dated before the retention or ahead of the server's clock: not kept. */
      rejected: z.number().int(),
    }),
    status: 202,
  }),
};
