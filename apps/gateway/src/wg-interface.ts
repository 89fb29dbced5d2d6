import { stripWgQuick } from './artefacts';
import { run, TOOL_ENV } from './exec';
import { writeFileAtomic } from './files';
import { peerAllowedIps, routeDiff, wantedRoutes } from './forwarding';

/**
 * A WireGuard interface brought up from a wg-quick text the way wg-quick would, with wireguard-go (the gateway's
 * `--apply`, dataplane.ts, and a device's `--device --apply`, device.ts):
 * - a `wireguard-go <name>` (its control socket in /var/run/wireguard/<name>.sock, shared by every network
 *   namespace: the name must be unique on the box), or an existing WireGuard interface of that name (left behind
 *   by a run that was killed), configured with `wg setconf` the first time and `wg syncconf` later (which keeps
 *   running sessions) from the configuration stripped of wg-quick's keys (`stripWgQuick`);
 * - its `Address`es set with `ip address add` (stale ones removed), the MTU (default 1420), `ip link set up`;
 *   a `ListenPort` is checked with `wg show`;
 * - a route to the interface for every peer's AllowedIPs (`proto static`; stale ones removed on a new
 *   configuration; a `/0` and the interface's own on-link networks left out).
 * `down()` deletes the interface (its routes go with it; wireguard-go exits and removes its socket).
 */

export interface WireguardInterfaceOptions {
  /** At most 15 characters; must not be another program's interface. */
  name: string;
  /** Where the stripped configuration `wg setconf` reads is written (mode 0600: it holds the private key). */
  setconfPath: string;
  log: (line: string) => void;
}

export const WIREGUARD_TOOLS = ['ip', 'wireguard-go', 'wg'] as const;

const IFNAME = /^[A-Za-z0-9_.=-]{1,15}$/;
const DEFAULT_MTU = 1420;

export const isInterfaceName = (name: string) => IFNAME.test(name);

export class WireguardInterface {
  readonly name: string;
  private created = false;
  private configured = false;

  constructor(private readonly options: WireguardInterfaceOptions) {
    if (!IFNAME.test(options.name)) {
      throw new Error(`interface name "${options.name}": 1-15 of [A-Za-z0-9_.=-]`);
    }
    this.name = options.name;
  }

  /** Brought up (or taken over) by this object and not deleted since. */
  get isUp() {
    return this.created;
  }

  /**
   * Brings the interface up with a wg-quick text (its private key filled in) and routes its peers' networks;
   * answers its addresses (with their prefix), the stripped configuration and the peers' AllowedIPs.
   */
  async apply(wgQuick: string): Promise<{ addresses: string[]; config: string; allowedIps: string[] }> {
    const { addresses, config } = await this.applyInterface(wgQuick);
    const allowedIps = peerAllowedIps(config);
    await this.applyRoutes(allowedIps, addresses);
    return { addresses, config, allowedIps };
  }

  private async exists(): Promise<boolean> {
    try {
      await run('ip', ['link', 'show', 'dev', this.name]);
      return true;
    } catch {
      return false;
    }
  }

  private async applyInterface(wgQuick: string) {
    const name = this.name;
    const stripped = stripWgQuick(wgQuick);
    if (!this.created && !this.configured) {
      if (await this.exists()) {
        // Left behind by a run that was killed: reuse it if it is a WireGuard interface.
        await run('wg', ['show', name]).catch((error) => {
          throw new Error(`interface ${name} exists and is not a WireGuard interface: ${error.message}`);
        });
        this.options.log(`wireguard: reusing the existing interface ${name}`);
        // `wg syncconf`, not setconf: the devices' sessions and the endpoints they roamed to stay, so they keep
        // their tunnel through the restart (setconf would forget every endpoint the configuration does not name).
        this.configured = true;
      } else {
        // wireguard-go daemonises once the interface and its control socket exist. Without LOG_LEVEL it hands
        // the daemon /dev/null, not our pipes.
        const { LOG_LEVEL: _, ...env } = TOOL_ENV;
        await run('wireguard-go', [name], { env });
        this.options.log(`wireguard: wireguard-go brought up ${name}`);
      }
      this.created = true;
    }
    await writeFileAtomic(this.options.setconfPath, stripped.config, 0o600);
    await run('wg', [this.configured ? 'syncconf' : 'setconf', name, this.options.setconfPath]);
    this.configured = true;

    const shown = JSON.parse(await run('ip', ['-j', 'address', 'show', 'dev', name])) as {
      addr_info?: { local: string; prefixlen: number }[];
    }[];
    const have = new Set((shown[0]?.addr_info ?? []).map((a) => `${a.local}/${a.prefixlen}`));
    const want = stripped.addresses.map((a) => (a.includes('/') ? a : `${a}/${a.includes(':') ? 128 : 32}`));
    for (const address of want) {
      if (!have.has(address)) await run('ip', ['address', 'add', address, 'dev', name]);
    }
    for (const address of have) {
      if (!want.includes(address)) await run('ip', ['address', 'del', address, 'dev', name]);
    }
    await run('ip', ['link', 'set', 'dev', name, 'mtu', String(stripped.mtu ?? DEFAULT_MTU), 'up']);

    const port = /^\s*ListenPort\s*=\s*(\d+)/im.exec(stripped.config)?.[1];
    if (port) {
      const listening = (await run('wg', ['show', name, 'listen-port'])).trim();
      if (listening !== port) throw new Error(`wireguard: ${name} listens on ${listening}, not ${port}`);
    }
    this.options.log(`wireguard: ${name} up with ${want.join(', ')} on port ${port ?? '(random)'}`);
    return { addresses: want, config: stripped.config };
  }

  /** The routes (`proto static`) on the interface, IPv4 and IPv6. */
  private async routes(): Promise<string[]> {
    const routes: string[] = [];
    for (const family of ['-4', '-6']) {
      const text = await run('ip', [
        '-j',
        family,
        'route',
        'show',
        'dev',
        this.name,
        'proto',
        'static',
      ]).catch(() => '[]');
      for (const route of JSON.parse(text || '[]') as { dst: string }[]) {
        routes.push(route.dst === 'default' ? (family === '-4' ? '0.0.0.0/0' : '::/0') : route.dst);
      }
    }
    return routes;
  }

  /** Routes every peer's AllowedIPs to the interface, as wg-quick does; removes the routes no peer has any more. */
  private async applyRoutes(allowedIps: string[], addresses: string[]) {
    const name = this.name;
    const { routes, skipped } = wantedRoutes(allowedIps, addresses);
    for (const network of skipped)
      this.options.log(`routes: not routing ${network} to ${name} (a default route)`);
    const { add, del } = routeDiff(await this.routes(), routes);
    for (const network of add) {
      // `add`, not `replace`: a network routed elsewhere already (another interface's) is not taken over.
      await run('ip', ['route', 'add', network, 'dev', name, 'proto', 'static']).catch((error) => {
        if (!/File exists/i.test(error.message)) throw error;
        this.options.log(`routes: ${network} is routed elsewhere already; not routing it to ${name}`);
      });
    }
    for (const network of del) await run('ip', ['route', 'del', network, 'dev', name, 'proto', 'static']);
    if (add.length + del.length > 0) {
      this.options.log(`routes: ${routes.length} via ${name} (+${add.length} -${del.length})`);
    }
  }

  /** `wg show <interface> dump`, or null while the interface is not configured. */
  async dump(): Promise<string | null> {
    if (!this.configured) return null;
    return run('wg', ['show', this.name, 'dump']).catch(() => null);
  }

  /** Deletes the interface if this object brought it up (or took it over); throws the command's error. */
  async down(): Promise<void> {
    if (!this.created) return;
    this.created = false;
    this.configured = false;
    // wireguard-go exits (and removes its control socket) when its interface goes.
    await run('ip', ['link', 'del', 'dev', this.name]);
    this.options.log(`wireguard: removed ${this.name}`);
  }
}
