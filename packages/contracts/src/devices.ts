import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, NonEmpty, Uuid } from './common';
import { endpoint } from './endpoint';
import { DEVICE_OS, ENROLMENT_METHODS } from './enrolment';
import { DeviceWireguard, DeviceWireguardPeer, WireguardKey } from './gateways';
import { POLICY_TYPES, UserPolicyVia } from './policies';
import { TenantParams } from './tenants';

/**
 * The device inventory (issue 11: `/devices/list`, `/devices/{id}`): every endpoint of the tenant and every site
 * gateway, in one list. Endpoints are the devices enrolled with a user link or a deployment key; site gateways
 * (`cgw`, `cgwr`, `lgw`) are gateways rows, listed here with their kind as OS type.
 *
 * Like NetBird's peers and Tailscale's machines, an endpoint can
 * - wait for an administrator's **approval** (when the tenant requires it) before it becomes a gateway peer;
 * - be **disabled** (kept, but no tunnel) and enabled again;
 * - have its WireGuard key **expire** (after the tenant's key lifetime): it then has no tunnel until the device
 *   rotates its key (`POST /device/rotate`, signed with its device credential).
 * Only an `active` endpoint with a key is a peer of the tenant's gateways.
 *
 * Status is `online` while the device checked in, or a gateway saw its tunnel's handshake, within
 * {@link DEVICE_ONLINE_MS}; `offline` after; `never` before the first sign of life.
 */

export const DEVICE_KINDS = ['endpoint', 'site'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export const DEVICE_STATUSES = ['online', 'offline', 'never'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Where an endpoint stands with the administrator: only `active` ones have a tunnel. */
export const DEVICE_STATES = ['active', 'pending', 'disabled', 'expired'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

export const DEVICE_POSTURES = ['compliant', 'failing', 'unknown'] as const;
export type DevicePosture = (typeof DEVICE_POSTURES)[number];

/** A device is online this long after its last check-in or tunnel handshake (WireGuard's 3-minute rekey window). */
export const DEVICE_ONLINE_MS = 180_000;
/** How often the client checks in (its answer repeats it, so the server can change it). */
export const DEVICE_CHECKIN_SECONDS = 60;
/** Key lifetimes an administrator can choose; null = keys never expire. */
export const DEVICE_KEY_EXPIRY_DAYS = [7, 30, 90, 180, 365] as const;

/** The posture checks a client reports (NetBird's posture checks, the ones a desktop agent can tell). */
export const POSTURE_CHECKS = ['diskEncrypted', 'firewall', 'screenLock', 'antivirus', 'osUpToDate'] as const;
export type PostureCheck = (typeof POSTURE_CHECKS)[number];
export const PostureReport = z.partialRecord(z.enum(POSTURE_CHECKS), z.boolean());
export type PostureReport = z.infer<typeof PostureReport>;

const AgentVersion = z
  .string()
  .trim()
  .regex(/^\d+\.\d+\.\d+$/, { message: 'validation.version' });

/** A row of `/devices/list`. */
export const DeviceListItem = z.object({
  id: z.string(),
  kind: z.enum(DEVICE_KINDS),
  name: z.string(),
  os: z.enum(DEVICE_OS),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  status: z.enum(DEVICE_STATUSES),
  state: z.enum(DEVICE_STATES),
  lastSeenAt: z.string().nullable(),
  agentVersion: z.string().nullable(),
  posture: z.enum(DEVICE_POSTURES),
  /** The bundle (gateways) or policy (endpoints) version it last reported enforcing. */
  enforcedVersion: z.string().nullable(),
  /** Its tunnel address, without the prefix length. */
  address: z.string().nullable(),
  keyExpiresAt: z.string().nullable(),
  enrolledAt: z.string().nullable(),
  /**
   * Whether the WireGuard configuration last handed out for it (enrolment, "download again", the agent's last
   * check-in) differs from the current one — routes, gateways, private access or a full-tunnel policy changed
   * since: download it again. Null when it has no tunnel now or none was ever handed out.
   */
  configOutdated: z.boolean().nullable(),
});
export type DeviceListItem = z.infer<typeof DeviceListItem>;

export const DEVICE_SORTS = ['name', 'lastSeenAt', 'os', 'enrolledAt'] as const;
export const DeviceListQuery = KeysetPageQuery.extend({
  sort: z.enum(DEVICE_SORTS).default('name'),
  kind: z.enum(DEVICE_KINDS).optional(),
  os: z.enum(DEVICE_OS).optional(),
  status: z.enum(DEVICE_STATUSES).optional(),
  state: z.enum(DEVICE_STATES).optional(),
  /** Devices of one user. */
  userId: Uuid.optional(),
  /** Devices of the members of one user group. */
  groupId: Uuid.optional(),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuery>;

/** What the CSV export covers: the list's filters and order, every page. */
export const DeviceExportQuery = DeviceListQuery.omit({
  limit: true,
  offset: true,
  cursor: true,
  withTotal: true,
});
export type DeviceExportQuery = z.infer<typeof DeviceExportQuery>;
export const DEVICE_CSV_COLUMNS = [
  'name',
  'kind',
  'os',
  'username',
  'status',
  'state',
  'lastSeenAt',
  'agentVersion',
  'posture',
  'enforcedVersion',
  'address',
  'keyExpiresAt',
  'enrolledAt',
] as const;

export const DEVICE_BULK_ACTIONS = ['approve', 'disable', 'enable', 'delete', 'move'] as const;
export type DeviceBulkAction = (typeof DEVICE_BULK_ACTIONS)[number];
/**
 * A bulk action on endpoints (site gateways are managed from their own page). `move` needs a policy group, and the
 * tenant's `policyGroups` configuration flag on (403 `feature_disabled` while it is off).
 */
export const DeviceBulkInput = z
  .object({
    action: z.enum(DEVICE_BULK_ACTIONS),
    ids: z.array(Uuid).min(1, { message: 'validation.required' }).max(10_000),
    policyGroupId: Uuid.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.action === 'move' && !input.policyGroupId)
      ctx.addIssue({ code: 'custom', path: ['policyGroupId'], message: 'validation.required' });
  });
export type DeviceBulkInput = z.input<typeof DeviceBulkInput>;
/** How many of the ids the action changed; ids that are not endpoints of the tenant are not counted. */
export const DeviceBulkResult = z.object({ affected: z.number().int() });

/** One stretch a device was online: from its first check-in or handshake to the last one before a gap. */
export const DeviceSession = z.object({
  startedAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  agentVersion: z.string().nullable(),
});

/** A policy that applies to the device, and through what (as `/users/user-policy-view` shows it for users). */
export const DevicePolicy = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(POLICY_TYPES),
  enabled: z.boolean(),
  via: z.array(UserPolicyVia.extend({ kind: z.enum(['everyone', 'user', 'group', 'device']) })),
});
export type DevicePolicy = z.infer<typeof DevicePolicy>;

/** `/devices/{id}` of an endpoint: the row, its history, its tunnel and the policies that apply to it. */
export const DeviceDetail = DeviceListItem.extend({
  enrolledVia: z.enum(ENROLMENT_METHODS).nullable(),
  postureChecks: PostureReport,
  sessions: z.array(DeviceSession),
  wireguard: z
    .object({
      publicKey: z.string(),
      address: z.string(),
      peers: z.array(
        DeviceWireguardPeer.extend({
          /** The last handshake the gateway reported with this device, if any. */
          lastHandshakeAt: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
  policyGroups: z.array(z.object({ id: z.string(), name: z.string() })),
  policies: z.array(DevicePolicy),
  /** When its configuration was last handed out (null: never, or before issue 23). */
  configDownloadedAt: z.string().nullable(),
  /** Whether a policy applying to it asks for a full tunnel (and a gateway can carry it). */
  fullTunnel: z.boolean(),
});
export type DeviceDetail = z.infer<typeof DeviceDetail>;

/**
 * An endpoint's current WireGuard configuration, handed out again for the standard WireGuard apps (after routes or
 * gateways changed). The `wg-quick` text keeps the private key as a placeholder: the key was made on the device
 * (or in the browser that enrolled it) and the server never had it; the page fills it in locally when the reader
 * pastes it. Handing it out records its fingerprint, so the device stops being "outdated".
 */
export const DeviceConfigDownload = z.object({
  config: z.string(),
  /** SHA-256 (hex) of `config`: the configuration without the private key. */
  fingerprint: z.string(),
  address: z.string(),
  publicKey: z.string(),
  fullTunnel: z.boolean(),
  downloadedAt: z.string(),
});
export type DeviceConfigDownload = z.infer<typeof DeviceConfigDownload>;

export const DeviceUpdate = z.object({ name: NonEmpty(100) });
export type DeviceUpdate = z.input<typeof DeviceUpdate>;

/** The tenant's device rules (NetBird: peer approval and login expiration). */
export const DeviceSettings = z.object({
  requireApproval: z.boolean(),
  keyExpiryDays: z.union(DEVICE_KEY_EXPIRY_DAYS.map((d) => z.literal(d))).nullable(),
});
export type DeviceSettings = z.infer<typeof DeviceSettings>;

const DeviceParams = TenantParams.extend({ id: Uuid });

export const deviceEndpoints = {
  listDevices: endpoint({
    method: 'GET',
    path: '/devices/:tenant',
    access: 'devices:view',
    summary: "A page of the tenant's devices: endpoints and site gateways with status, posture and version",
    tags: ['devices'],
    params: TenantParams,
    query: DeviceListQuery,
    response: KeysetPage(DeviceListItem),
  }),
  exportDevices: endpoint({
    method: 'GET',
    path: '/devices/:tenant/export',
    access: 'devices:view',
    summary: 'The device list as CSV (the list filters, every page)',
    tags: ['devices'],
    params: TenantParams,
    query: DeviceExportQuery,
    response: z.string(),
  }),
  bulkDevices: endpoint({
    method: 'POST',
    path: '/devices/:tenant/bulk',
    access: 'devices:update',
    summary: 'Approve, disable, enable, delete or move endpoints to a policy group',
    tags: ['devices'],
    params: TenantParams,
    body: DeviceBulkInput,
    response: DeviceBulkResult,
  }),
  getDeviceSettings: endpoint({
    method: 'GET',
    path: '/devices/:tenant/settings',
    access: 'devices:view',
    summary: "The tenant's device rules: approval of new devices and key lifetime",
    tags: ['devices'],
    params: TenantParams,
    response: DeviceSettings,
  }),
  updateDeviceSettings: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/settings',
    access: 'devices:update',
    summary: "Change the tenant's device rules",
    tags: ['devices'],
    params: TenantParams,
    body: DeviceSettings,
    response: DeviceSettings,
  }),
  getDeviceDetail: endpoint({
    method: 'GET',
    path: '/devices/:tenant/:id',
    access: 'devices:view',
    summary: 'One device: details, online history, WireGuard peer and the policies that apply to it',
    tags: ['devices'],
    params: DeviceParams,
    response: DeviceDetail,
  }),
  updateDevice: endpoint({
    method: 'PUT',
    path: '/devices/:tenant/:id',
    access: 'devices:update',
    summary: 'Rename an endpoint',
    tags: ['devices'],
    params: DeviceParams,
    body: DeviceUpdate,
    response: DeviceDetail,
  }),
  downloadDeviceConfig: endpoint({
    method: 'POST',
    path: '/devices/:tenant/:id/wireguard-config',
    access: 'devices:update',
    summary:
      "An endpoint's current WireGuard configuration (private key left to fill in); records it as downloaded",
    tags: ['devices'],
    params: DeviceParams,
    response: DeviceConfigDownload,
  }),
  expireDeviceKey: endpoint({
    method: 'POST',
    path: '/devices/:tenant/:id/expire-key',
    access: 'devices:update',
    summary: "Expire an endpoint's WireGuard key now: it loses its tunnel until it rotates the key",
    tags: ['devices'],
    params: DeviceParams,
    response: DeviceDetail,
  }),
};

// ─── The client's calls, signed with the device credential ─────────────────────────────────────────────────

export const DeviceCheckin = z.object({
  agentVersion: AgentVersion,
  /** The policy version the client enforces, if it keeps one. */
  enforcedVersion: z.string().max(64).nullable().default(null),
  posture: PostureReport.default({}),
});
export type DeviceCheckin = z.input<typeof DeviceCheckin>;

/** What a check-in answers: where the device stands and, while it is active with a key, its tunnel. */
export const DeviceCheckinAnswer = z.object({
  state: z.enum(DEVICE_STATES),
  keyExpiresAt: z.string().nullable(),
  wireguard: DeviceWireguard.nullable(),
  checkinSeconds: z.number().int(),
});
export type DeviceCheckinAnswer = z.infer<typeof DeviceCheckinAnswer>;

export const DeviceRotateInput = z.object({ publicKey: WireguardKey });

export const deviceClientEndpoints = {
  checkin: endpoint({
    method: 'POST',
    path: '/device/checkin',
    access: 'device',
    summary: "A device's check-in: agent version, posture; answers its state and tunnel configuration",
    tags: ['devices'],
    body: DeviceCheckin,
    response: DeviceCheckinAnswer,
  }),
  rotateKey: endpoint({
    method: 'POST',
    path: '/device/rotate',
    access: 'device',
    summary: 'Replace the WireGuard public key (made on the device); a new key lifetime starts',
    tags: ['devices'],
    body: DeviceRotateInput,
    response: DeviceCheckinAnswer,
  }),
};
