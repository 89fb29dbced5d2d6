import { z } from 'zod';
import { IdList, NonEmpty, Page, PageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import { DeviceWireguard, WireguardKey } from './gateways';
import { TenantParams } from './tenants';
import { ConnStatus } from './users';

/**
 * End-user devices and how they enrol (issue 3: `/users/users-devices`, `/users/rmm-deployment`,
 * `/users/agentless`). A device joins a tenant by presenting an enrolment token to `POST /api/enrol`, which is
 * what the Palisade client (or a browser, for agentless access) calls:
 * - **user links** — one-off, per user, expiring: the user opens the link (or pastes the token into the client);
 *   the device belongs to that user. Agentless (browser) access uses the same kind of link with os `chrome`.
 * - **deployment keys** — reusable, tenant-wide, for RMM/MDM mass deployment (Intune, Jamf, NinjaOne…): the
 *   installer carries the key; the device is assigned to the user whose username the agent reports, if any,
 *   and the key's auto-groups are added to that user.
 * Tokens are shown once at creation and stored as SHA-256.
 */

/** Operating-system types of spec §3 Device. */
export const DEVICE_OS = [
  'windows',
  'none',
  'linux',
  'ios',
  'android',
  'mac',
  'cgw',
  'cgwr',
  'lgw',
  'chrome',
] as const;
export type DeviceOs = (typeof DEVICE_OS)[number];

export const ENROLMENT_METHODS = ['link', 'rmm', 'agentless'] as const;
export type EnrolmentMethod = (typeof ENROLMENT_METHODS)[number];

export const Device = z.object({
  id: z.string(),
  name: z.string(),
  os: z.enum(DEVICE_OS),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  connstatus: ConnStatus,
  enrolledVia: z.enum(ENROLMENT_METHODS),
  enrolledAt: z.string(),
  lastSeenAt: z.string().nullable(),
});
export type Device = z.infer<typeof Device>;

/** A device as a picker shows it: name, platform and whose it is. */
export const DeviceOption = z.object({
  id: z.string(),
  name: z.string(),
  os: z.enum(DEVICE_OS),
  username: z.string().nullable(),
});
export type DeviceOption = z.infer<typeof DeviceOption>;

/** How many devices a picker offers for one search. */
export const DEVICE_OPTIONS_LIMIT = 20;

/** A picker's search, on device name and owner's username. */
export const DeviceOptionsQuery = z.object({
  q: z.string().trim().max(200, { message: 'validation.tooLong' }).optional(),
});
export type DeviceOptionsQuery = z.input<typeof DeviceOptionsQuery>;

/** Where a user stands: never asked, a link is pending (or expired), or enrolled with N devices. */
export const ENROLMENT_STATES = ['not-invited', 'pending', 'expired', 'enrolled'] as const;
export type EnrolmentState = (typeof ENROLMENT_STATES)[number];

/** A row of `/users/users-devices` and `/users/agentless`: a user, their devices and enrolment state. */
export const UserDevices = z.object({
  id: z.string(),
  username: z.string(),
  fullname: z.string(),
  connstatus: ConnStatus,
  state: z.enum(ENROLMENT_STATES),
  /** The latest link of the user (the token itself is never listed again). */
  link: z
    .object({
      id: z.string(),
      kind: z.enum(['link', 'agentless']),
      prefix: z.string(),
      expiresAt: z.string(),
      usedAt: z.string().nullable(),
    })
    .nullable(),
  devices: z.array(Device),
});
export type UserDevices = z.infer<typeof UserDevices>;

export const USER_DEVICES_FILTERS = ['all', 'with-devices', 'without-devices', 'pending'] as const;
export const UserDevicesQuery = PageQuery.extend({
  filter: z.enum(USER_DEVICES_FILTERS).default('all'),
  /** `agentless` limits devices and links to browser (agentless) ones. */
  method: z.enum(['any', 'agentless']).default('any'),
  /** One user only (their page's devices tab). */
  userId: Uuid.optional(),
});
export type UserDevicesQuery = z.infer<typeof UserDevicesQuery>;

/** What the users-and-devices CSV export covers: the list's search, filter, method and order, every page. */
export const UserDevicesExportQuery = UserDevicesQuery.omit({ limit: true, offset: true });
export type UserDevicesExportQuery = z.infer<typeof UserDevicesExportQuery>;

/**
 * Columns of the users-and-devices CSV, in order: one line per device; a user without devices has one line
 * with empty device columns. `state` is the user's enrolment state, `connstatus` the device's.
 */
export const USER_DEVICES_CSV_COLUMNS = [
  'username',
  'fullname',
  'state',
  'device',
  'os',
  'connstatus',
  'enrolledVia',
  'enrolledAt',
  'lastSeenAt',
] as const;

export const LINK_TTL_HOURS = [24, 72, 168, 720] as const;
export const UserLinkInput = z.object({
  kind: z.enum(['link', 'agentless']).default('link'),
  ttlHours: z.union(LINK_TTL_HOURS.map((h) => z.literal(h))).default(168),
  /** Also e-mail the link to the user (outbox in development). */
  sendEmail: z.boolean().default(false),
});
export type UserLinkInput = z.input<typeof UserLinkInput>;

/** A created link: the only time the token is shown. `url` opens the enrolment page with the token. */
export const CreatedLink = z.object({
  id: z.string(),
  token: z.string(),
  url: z.string(),
  expiresAt: z.string(),
});
export type CreatedLink = z.infer<typeof CreatedLink>;

/** A reusable deployment key for RMM/MDM mass deployment. */
export const DeploymentKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  autoGroups: z.array(z.object({ id: z.string(), name: z.string() })),
  expiresAt: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeploymentKey = z.infer<typeof DeploymentKey>;

export const DeploymentKeyInput = z.object({
  name: NonEmpty(100),
  autoGroupIds: z.array(Uuid).max(100).default([]),
  /** Days until the key stops working; null = never. */
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(90),
  maxUses: z.number().int().min(1).max(1_000_000).nullable().default(null),
});
export type DeploymentKeyInput = z.input<typeof DeploymentKeyInput>;

export const CreatedDeploymentKey = z.object({ key: DeploymentKey, token: z.string() });

/** What the client sends to enrol a device. */
export const EnrolInput = z.object({
  token: z.string().trim().min(10).max(200),
  device: z.object({
    name: NonEmpty(100),
    os: z.enum(DEVICE_OS),
  }),
  /** With a deployment key: the user the agent runs for (matched to an end user of the key's tenant). */
  username: z.string().trim().max(254).optional(),
  /** The device's WireGuard public key, made on the device; with it the answer carries its tunnel settings. */
  publicKey: WireguardKey.optional(),
});
export type EnrolInput = z.input<typeof EnrolInput>;

export const Enrolled = z.object({
  deviceId: z.string(),
  tenant: z.string(),
  userId: z.string().nullable(),
  /** The device's own credential for later check-ins; shown once. */
  deviceToken: z.string(),
  /** Its tunnel, when it enrolled with a WireGuard key. */
  wireguard: DeviceWireguard.nullable(),
});

/** What the enrolment page shows before the device is registered (public: only with a valid token). */
export const EnrolmentInfo = z.object({
  tenant: z.string(),
  tenantDisplayName: z.string(),
  kind: z.enum(['link', 'agentless', 'rmm']),
  username: z.string().nullable(),
  expiresAt: z.string().nullable(),
});

const UserParams = TenantParams.extend({ id: Uuid });
const DeviceParams = TenantParams.extend({ id: Uuid });

export const enrolmentEndpoints = {
  listUserDevices: endpoint({
    method: 'GET',
    path: '/enrolment/:tenant/users',
    access: 'devices:view',
    summary: 'A page of end users with their devices and enrolment state',
    tags: ['devices'],
    params: TenantParams,
    query: UserDevicesQuery,
    response: Page(UserDevices),
  }),
  exportUserDevices: endpoint({
    method: 'GET',
    path: '/enrolment/:tenant/users/export',
    access: 'devices:view',
    summary: 'Every end user matching the list with their devices, as CSV (one line per device)',
    tags: ['devices'],
    params: TenantParams,
    query: UserDevicesExportQuery,
    response: z.string(),
  }),
  createUserLink: endpoint({
    method: 'POST',
    path: '/enrolment/:tenant/users/:id/link',
    access: 'devices:create',
    summary:
      "Create a one-off enrolment link for a user (replaces the user's pending link); token shown once",
    tags: ['devices'],
    params: UserParams,
    body: UserLinkInput,
    response: CreatedLink,
    status: 201,
  }),
  revokeUserLink: endpoint({
    method: 'DELETE',
    path: '/enrolment/:tenant/users/:id/link',
    access: 'devices:delete',
    summary: "Revoke a user's pending enrolment link",
    tags: ['devices'],
    params: UserParams,
    response: z.object({ revoked: z.number().int() }),
  }),
  deleteDevices: endpoint({
    method: 'DELETE',
    path: '/enrolment/:tenant/devices',
    access: 'devices:delete',
    summary: 'Remove devices (they must enrol again)',
    tags: ['devices'],
    params: TenantParams,
    body: IdList,
    response: z.object({ deleted: z.number().int() }),
  }),
  listDeviceOptions: endpoint({
    method: 'GET',
    path: '/enrolment/:tenant/devices/options',
    access: 'devices:view',
    summary: 'Devices matching a search (device name or username), for pickers',
    tags: ['devices'],
    params: TenantParams,
    query: DeviceOptionsQuery,
    response: z.array(DeviceOption),
  }),
  getDevice: endpoint({
    method: 'GET',
    path: '/enrolment/:tenant/devices/:id',
    access: 'devices:view',
    summary: 'One enrolled device, with its owner (names a device in policy tests and pickers)',
    tags: ['devices'],
    params: DeviceParams,
    response: DeviceOption,
  }),
  listDeploymentKeys: endpoint({
    method: 'GET',
    path: '/enrolment/:tenant/keys',
    access: 'devices:view',
    summary: 'Reusable deployment keys for RMM/MDM roll-outs',
    tags: ['devices'],
    params: TenantParams,
    response: z.array(DeploymentKey),
  }),
  createDeploymentKey: endpoint({
    method: 'POST',
    path: '/enrolment/:tenant/keys',
    access: 'devices:create',
    summary: 'Create a deployment key; the token is shown once',
    tags: ['devices'],
    params: TenantParams,
    body: DeploymentKeyInput,
    response: CreatedDeploymentKey,
    status: 201,
  }),
  revokeDeploymentKey: endpoint({
    method: 'DELETE',
    path: '/enrolment/:tenant/keys/:id',
    access: 'devices:delete',
    summary: 'Revoke a deployment key (devices it enrolled stay)',
    tags: ['devices'],
    params: UserParams,
    response: DeploymentKey,
  }),
  enrolmentInfo: endpoint({
    method: 'GET',
    path: '/enrol/:token',
    access: 'public',
    summary: 'What a token enrols into (for the enrolment page); 404 when unknown, used, revoked or expired',
    tags: ['devices'],
    params: z.object({ token: z.string().min(10).max(200) }),
    response: EnrolmentInfo,
  }),
  enrol: endpoint({
    method: 'POST',
    path: '/enrol',
    access: 'public',
    summary: 'Enrol a device with a user link or a deployment key (called by the client)',
    tags: ['devices'],
    body: EnrolInput,
    response: Enrolled,
    status: 201,
  }),
};
