import {
  type GwLan,
  type GwLanNeighbour,
  isMacAddress,
  MAX_LAN_NEIGHBOURS,
  normaliseMac,
  parseIpv4,
} from '@palisade/contracts';
import { run } from './exec';

/**
 * The hosts a site gateway sees on the networks it serves, for the `lan` of its heartbeat (contracts:
 * internal-devices.ts): the IPv4 entries of its neighbour (ARP) table, `ip -j neigh show`, on every interface but
 * loopback, its own WireGuard interface and the interfaces its default routes leave by (the WAN: the upstream
 * router is not a host behind it). Entries the kernel could not resolve (FAILED, INCOMPLETE) and group
 * (broadcast, multicast) addresses are left out. The reference gateway runs no DHCP server, so it has no leases
 * and names no hosts.
 */

/** One entry of `ip -j neigh show` (iproute2's JSON). */
interface NeighEntry {
  dst?: string;
  dev?: string;
  lladdr?: string;
  state?: string[];
}

/** One route of `ip -j route show default`. */
interface RouteEntry {
  dev?: string;
}

const UNRESOLVED = new Set(['FAILED', 'INCOMPLETE']);

/** Whether a MAC address is a group (broadcast or multicast) address: bit 0 of its first octet. */
const isGroupAddress = (mac: string) => (Number.parseInt(mac.slice(0, 2), 16) & 1) === 1;

/**
 * The neighbours of `ip -j neigh show` output, on the interfaces `isServed` accepts: IPv4 only, resolved (a MAC
 * address and neither FAILED nor INCOMPLETE), not a group address, each MAC and address once, at most
 * {@link MAX_LAN_NEIGHBOURS}. Output that is not a JSON array is no neighbours.
 */
export function parseNeighbours(
  json: string,
  isServed: (dev: string) => boolean = () => true,
): GwLanNeighbour[] {
  let entries: unknown;
  try {
    entries = JSON.parse(json || '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const seen = new Set<string>();
  const neighbours: GwLanNeighbour[] = [];
  for (const entry of entries as NeighEntry[]) {
    const { dst, dev, lladdr, state = [] } = entry ?? {};
    if (typeof dst !== 'string' || parseIpv4(dst) === null) continue;
    if (typeof dev !== 'string' || !isServed(dev)) continue;
    if (typeof lladdr !== 'string' || !isMacAddress(lladdr)) continue;
    if (state.some((s) => UNRESOLVED.has(s))) continue;
    const mac = normaliseMac(lladdr);
    if (isGroupAddress(mac) || seen.has(`${mac} ${dst}`)) continue;
    seen.add(`${mac} ${dst}`);
    neighbours.push({ mac, ip: dst, source: 'arp', ...(dev.length <= 15 ? { interface: dev } : {}) });
    if (neighbours.length === MAX_LAN_NEIGHBOURS) break;
  }
  return neighbours;
}

/** The interfaces of `ip -j route show default` output: where the default routes leave (the WAN). */
export function parseDefaultRouteDevices(json: string): string[] {
  try {
    const routes = JSON.parse(json || '[]') as RouteEntry[];
    return Array.isArray(routes)
      ? routes.flatMap((route) => (typeof route?.dev === 'string' ? [route.dev] : []))
      : [];
  } catch {
    return [];
  }
}

/** The LAN report of this machine: its neighbours on the interfaces it serves (not `tunnel`, loopback or WAN). */
export async function readLan(tunnel: string): Promise<GwLan> {
  const [neigh, routes] = await Promise.all([
    run('ip', ['-j', '-4', 'neigh', 'show'], { timeoutMs: 5000 }),
    run('ip', ['-j', '-4', 'route', 'show', 'default'], { timeoutMs: 5000 }).catch(() => '[]'),
  ]);
  const wan = new Set(parseDefaultRouteDevices(routes));
  return { neighbours: parseNeighbours(neigh, (dev) => dev !== tunnel && dev !== 'lo' && !wan.has(dev)) };
}
