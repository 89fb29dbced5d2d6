import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, Ok, Uuid } from './common';
import { endpoint } from './endpoint';
import { isIpv4 } from './ip';
import { TenantParams } from './tenants';

/**
 * Internal devices (issue 11, `/devices/internal-devices`): the hosts a site gateway (kinds `cgw`, `cgwr`, `lgw`)
 * sees on the networks it serves — from its DHCP leases and its ARP (neighbour) table, reported in each heartbeat
 * (`lan` of `GwHeartbeat`). The server keeps one row per gateway and MAC address: when it was first and last seen,
 * its current address and host name, and its vendor from the IEEE OUI registry. A cybernode's `lan` is ignored.
 */

/** The most neighbours one heartbeat reports (a /20 of hosts); a gateway with more sends the first ones. */
export const MAX_LAN_NEIGHBOURS = 4096;
/**
 * A host seen within this long is shown active: ARP entries of idle hosts go stale within minutes, and the server
 * rewrites an unchanged host at most once a minute.
 */
export const INTERNAL_DEVICE_ACTIVE_MS = 600_000;
/** A host not seen for this many days is forgotten by itself (when its gateway next reports a new host). */
export const INTERNAL_DEVICE_RETENTION_DAYS = 30;

export const INTERNAL_DEVICE_SOURCES = ['dhcp', 'arp'] as const;
export type InternalDeviceSource = (typeof INTERNAL_DEVICE_SOURCES)[number];

const MAC = /^[0-9a-f]{2}(?:([:-])[0-9a-f]{2})(?:\1[0-9a-f]{2}){4}$/i;

/** Whether a string is a MAC address written as six hex pairs separated by `:` or `-` (either case). */
export const isMacAddress = (value: string) => MAC.test(value.trim());

/** A MAC address as the server keeps it: lower case, colon-separated (`aa:bb:cc:dd:ee:ff`). */
export const normaliseMac = (value: string) => value.trim().toLowerCase().replaceAll('-', ':');

/** A MAC address (`AA-BB-…` or `aa:bb:…`), normalised to `aa:bb:cc:dd:ee:ff`. */
export const MacAddress = z
  .string()
  .trim()
  .toLowerCase()
  .regex(MAC, { message: 'validation.mac' })
  .overwrite((value) => value.replaceAll('-', ':'));

// IPv4 only by design: the gateway reports its DHCP leases and ARP table, both IPv4 (the `ip -j neigh` IPv6
// entries are left out at the gateway).
const Ipv4 = z.string().trim().refine(isIpv4, { message: 'validation.ip' });

/** One host a site gateway sees: from a DHCP lease (with the host name the client sent) or its ARP table. */
export const GwLanNeighbour = z.object({
  mac: MacAddress,
  ip: Ipv4,
  /** The name a DHCP client gave; none from ARP. */
  hostname: z.string().trim().max(253, { message: 'validation.tooLong' }).nullish(),
  source: z.enum(INTERNAL_DEVICE_SOURCES),
  /** The gateway's interface it was seen on (`eth1`, `br-lan`, `eth1.20`). */
  interface: z.string().trim().max(15, { message: 'validation.tooLong' }).optional(),
});
export type GwLanNeighbour = z.input<typeof GwLanNeighbour>;

/** What a site gateway reports of its LAN side in a heartbeat. */
export const GwLan = z.object({
  neighbours: z.array(GwLanNeighbour).max(MAX_LAN_NEIGHBOURS, { message: 'validation.tooMany' }),
});
export type GwLan = z.input<typeof GwLan>;

export const InternalDevice = z.object({
  id: z.string(),
  gatewayId: z.string(),
  gatewayName: z.string(),
  /** `aa:bb:cc:dd:ee:ff`. */
  mac: z.string(),
  /** Its IPv4 address when last seen. */
  ip: z.string(),
  /** The name it gave over DHCP; kept when later reports (from ARP) have none. */
  hostname: z.string().nullable(),
  /** The organisation the MAC's OUI is registered to (IEEE); null for a locally administered (random) MAC. */
  vendor: z.string().nullable(),
  /** Where it was last seen: a DHCP lease or the ARP table. */
  source: z.enum(INTERNAL_DEVICE_SOURCES),
  /** The gateway's interface it was last seen on. */
  interface: z.string().nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** Seen within {@link INTERNAL_DEVICE_ACTIVE_MS}. */
  isActive: z.boolean(),
});
export type InternalDevice = z.infer<typeof InternalDevice>;

export const INTERNAL_DEVICE_SORTS = ['lastSeenAt', 'hostname', 'ip'] as const;
export type InternalDeviceSort = (typeof INTERNAL_DEVICE_SORTS)[number];

export const InternalDeviceListQuery = KeysetPageQuery.extend({
  sort: z.enum(INTERNAL_DEVICE_SORTS).default('lastSeenAt'),
  /** The hosts of one site gateway. */
  gatewayId: Uuid.optional(),
});
export type InternalDeviceListQuery = z.infer<typeof InternalDeviceListQuery>;

const InternalDeviceParams = TenantParams.extend({ id: Uuid });

export const internalDeviceEndpoints = {
  listInternalDevices: endpoint({
    method: 'GET',
    path: '/devices/:tenant/internal-devices',
    access: 'gateways:view',
    summary:
      'A page of the hosts seen behind the site gateways (DHCP leases, ARP); search by host name, IP, MAC or vendor',
    tags: ['internal devices'],
    params: TenantParams,
    query: InternalDeviceListQuery,
    response: KeysetPage(InternalDevice),
  }),
  getInternalDevice: endpoint({
    method: 'GET',
    path: '/devices/:tenant/internal-devices/:id',
    access: 'gateways:view',
    summary: 'One host seen behind a site gateway',
    tags: ['internal devices'],
    params: InternalDeviceParams,
    response: InternalDevice,
  }),
  forgetInternalDevice: endpoint({
    method: 'DELETE',
    path: '/devices/:tenant/internal-devices/:id',
    access: 'gateways:delete',
    summary: 'Forget a host; it is listed again (as new) when its gateway sees it again',
    tags: ['internal devices'],
    params: InternalDeviceParams,
    response: Ok,
  }),
};
