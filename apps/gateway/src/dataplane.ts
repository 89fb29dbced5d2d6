import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEVICE_TUNNEL_NETWORK, type IpCidr, parseIpOrCidr } from '@palisade/contracts';
import { EVERYONE_TAG, parseAudiences, type RpzAudience } from '@palisade/gateway-config/audiences';
import type { ArtefactPaths } from './artefacts';
import { Daemon } from './daemon';
import { rpzLogLines, unboundLogLines, unboundLogPath } from './decisions/unbound-log';
import { run, which } from './exec';
import { readIfExists, writeFileAtomic } from './files';
import { NAT_TABLE, natRuleset } from './forwarding';
import { HttpLayer } from './squid-daemon';
import { WireguardInterface } from './wg-interface';

/**
 * `--apply`: enforces the written artefacts on this Linux box (root).
 *
 * 1. WireGuard (wg-interface.ts, which a device's `--device --apply` uses too): a `wireguard-go <interface>`
 *    (control socket in /var/run/wireguard/<interface>.sock), configured with `wg setconf` (later `wg syncconf`,
 *    which keeps running sessions) from the configuration stripped of wg-quick's keys; its `Address`es set with
 *    `ip address add` (stale ones removed), MTU (default 1420) and `ip link set up`; the listen port checked with
 *    `wg show`. As wg-quick would (`wg setconf` does not): a route to the interface for every peer's AllowedIPs
 *    (`proto static`; stale ones removed on a new bundle; a `/0` and the interface's own on-link networks left
 *    out).
 * 2. nftables: `nft -f nftables.nft` (TZ=UTC). The ruleset declares, deletes and declares again its own table in
 *    one transaction, so every load replaces the previous one atomically; a failing file leaves the old one.
 *    Then forwarding for the devices, once the policy's table is there: masquerading of the tunnel networks
 *    leaving by other interfaces in a table of its own, `table ip palisade_nat` (`nat.nft` in DIR, replaced the
 *    same way), so `table inet palisade` stays the generator's; `sysctl -w net.ipv4.ip_forward=1` (the previous
 *    value restored by `stop()`). A site gateway's ZTNA firewall (`ztna.nft`, `table inet palisade_ztna`,
 *    replaced the same way) is loaded with the policy's table: connections from the devices to the hosts its
 *    private services and ZTNA rules guard pass only where one allows them. Its own site artefacts (`site.nft`,
 *    `site-interfaces.sh`) are written for the operator of the box and not applied here. Its local controls for
 *    its LANs load the same way (`local.nft`, `table inet palisade_local`); their RPZ zone (`local-rpz.zone`) is
 *    written, not served (Unbound here answers the tunnel).
 * 3. Unbound: its own configuration (`unbound.conf` in DIR) listening on 127.0.0.1 and the tunnel addresses at
 *    the DNS port, with the RPZ zone `rpz.zone`; a new zone is loaded with `unbound-control auth_zone_reload`,
 *    a changed configuration (addresses, port, zone name) restarts it. It answers the tunnel networks and the
 *    devices' tunnel network (DEVICE_TUNNEL_NETWORK), which ask it over the tunnel.
 *
 * Every step's command is checked: a failure throws (the version is then not reported as enforced). `stop()`
 * tears down what was brought up: Unbound, the tables, forwarding, the interface (and its routes with it).
 */

export interface DataPlaneOptions {
  dir: string;
  /** At most 15 characters; must not be another program's interface. */
  interfaceName: string;
  /** Where Unbound answers (default 53). */
  dnsPort?: number;
  /** A file of extra Unbound configuration, included at the end of its `server:` clause (may open other clauses). */
  unboundInclude?: string;
  log: (line: string) => void;
}

export const REQUIRED_TOOLS = [
  'ip',
  'wireguard-go',
  'wg',
  'nft',
  'unbound',
  'unbound-checkconf',
  'unbound-control',
  // The HTTP layer (squid-daemon.ts): squid-openssl and the certificate of its TLS port.
  'squid',
  'openssl',
] as const;

/**
 * Unbound's configuration. Without audiences, one `rpz:` clause for everyone. With audiences (policies for
 * some subjects on the DNS layer, gateway-config audiences.ts), every client block is tagged with the zone for
 * everyone's tag and each audience's device addresses with the audience's own (the most specific block wins),
 * and each `rpz:` clause serves its tag only: a device meets exactly one zone.
 */
export function unboundConfText(options: {
  dir: string;
  dnsPort: number;
  include?: string;
  rpz: { path: string; origin: string };
  audiences: readonly (RpzAudience & { path: string })[];
  addresses: string[];
}): string {
  const { rpz, audiences, addresses } = options;
  // The interface's IPv4 addresses (Unbound runs with `do-ip6: no`): where it listens, and their networks.
  const v4 = addresses.map((a) => parseIpOrCidr(a)).filter((b): b is IpCidr => b !== null && b.family === 4);
  const tagged = audiences.length > 0;
  const blocks = ['127.0.0.0/8', ...v4.map((b) => `${b.address}/${b.prefix}`), DEVICE_TUNNEL_NETWORK];
  const rpzClause = (name: string, path: string, tag: string | null) => [
    'rpz:',
    `  name: ${quote(name)}`,
    `  zonefile: ${quote(path)}`,
    ...(tag ? [`  tags: ${quote(tag)}`] : []),
    // Its rewrites in the log the decision telemetry reads (decisions/unbound-log.ts), named by the zone.
    ...rpzLogLines(tag ?? 'everyone'),
  ];
  return [
    '# Written by the Palisade gateway: rewritten on every start.',
    'server:',
    '  interface: 127.0.0.1',
    ...v4.map((b) => `  interface: ${b.host}`),
    `  port: ${options.dnsPort}`,
    '  do-daemonize: no',
    '  username: ""',
    '  chroot: ""',
    `  directory: ${quote(options.dir)}`,
    '  pidfile: ""',
    // Every answer, and each zone's rewrites, in the log the decision telemetry reads (decisions/unbound-log.ts).
    ...unboundLogLines(unboundLogPath(options.dir)),
    '  do-ip6: no',
    '  module-config: "respip validator iterator"',
    ...(tagged ? [`  define-tag: ${quote([EVERYONE_TAG, ...audiences.map((a) => a.tag)].join(' '))}`] : []),
    // The devices ask it over the tunnel from their own addresses (WireGuard vouches for a peer's source).
    ...blocks.flatMap((block) => [
      `  access-control: ${block} allow`,
      ...(tagged ? [`  access-control-tag: ${block} ${quote(EVERYONE_TAG)}`] : []),
    ]),
    ...audiences.flatMap((a) =>
      a.clients.flatMap((client) => [
        `  access-control: ${client}/32 allow`,
        `  access-control-tag: ${client}/32 ${quote(a.tag)}`,
      ]),
    ),
    ...(options.include ? [`  include: ${quote(options.include)}`] : []),
    'remote-control:',
    '  control-enable: yes',
    `  control-interface: ${quote(join(options.dir, 'unbound.ctl'))}`,
    '  control-use-cert: no',
    ...audiences.flatMap((a) => rpzClause(a.origin, a.path, a.tag)),
    ...rpzClause(rpz.origin, rpz.path, tagged ? EVERYONE_TAG : null),
    '',
  ].join('\n');
}

const quote = (text: string) => {
  if (/["\n]/.test(text)) throw new Error(`unusable in an Unbound configuration: ${text}`);
  return `"${text}"`;
};

export class DataPlane {
  private readonly dir: string;
  readonly interfaceName: string;
  private readonly dnsPort: number;
  /** The WireGuard interface and the routes to its peers (wg-interface.ts, shared with the device mode). */
  private readonly wireguard: WireguardInterface;
  /** squid and the steering of the tunnel's web traffic through it (squid-daemon.ts). */
  private readonly httpLayer: HttpLayer;
  private nftTable: string | null = null;
  /** The optional tables a bundle brought (a site gateway's ZTNA firewall and local controls). */
  private readonly optionalTables = new Set<string>();
  private natText: string | null = null;
  /** ip_forward before this gateway set it, restored on stop; null when it did not change it. */
  private forwardingBefore: string | null = null;
  private unbound: Daemon | null = null;
  private unboundConfig: string | null = null;

  constructor(private readonly options: DataPlaneOptions) {
    this.wireguard = new WireguardInterface({
      name: options.interfaceName,
      setconfPath: join(options.dir, 'wireguard.setconf'),
      log: options.log,
    });
    this.dir = options.dir;
    this.interfaceName = options.interfaceName;
    this.dnsPort = options.dnsPort ?? 53;
    this.httpLayer = new HttpLayer({
      dir: options.dir,
      interfaceName: options.interfaceName,
      // squid resolves a request's Host (intercepted requests are checked against it) with this Unbound.
      dnsServers: this.dnsPort === 53 ? ['127.0.0.1'] : undefined,
      log: options.log,
    });
  }

  get unboundConfPath() {
    return join(this.dir, 'unbound.conf');
  }

  /** Fails when a tool is missing or this is not root on Linux. */
  static check(): void {
    if (process.platform !== 'linux') throw new Error('--apply needs Linux');
    if (process.getuid?.() !== 0) throw new Error('--apply needs root (interfaces, nftables, port 53)');
    const missing = REQUIRED_TOOLS.filter((tool) => !which(tool));
    if (missing.length > 0) {
      throw new Error(
        `--apply needs ${missing.join(', ')} (Debian: wireguard-tools wireguard-go nftables unbound; scripts/net-tools.sh)`,
      );
    }
  }

  /** Enforces the artefacts just written; throws on the first step that fails. */
  async apply(paths: ArtefactPaths, wireguard: string): Promise<void> {
    const { addresses, allowedIps } = await this.wireguard.apply(wireguard);
    // The policy's table and the ZTNA firewall before forwarding: the first bundle forwards nothing undecided.
    await this.applyNftables(paths.nftables);
    await this.applyTable(paths.ztna, 'palisade_ztna');
    await this.applyTable(paths.local, 'palisade_local');
    await this.applyNat(allowedIps, addresses);
    await this.applyForwarding();
    await this.applyUnbound(paths, addresses);
    await this.httpLayer.apply(paths.squid, addresses);
  }

  /** IPv4 forwarding on (in this network namespace). */
  private async applyForwarding() {
    const path = '/proc/sys/net/ipv4/ip_forward';
    const before = (await readFile(path, 'utf8')).trim();
    if (before === '1') return;
    if (which('sysctl')) await run('sysctl', ['-w', 'net.ipv4.ip_forward=1']);
    else await writeFile(path, '1\n');
    this.forwardingBefore ??= before;
    this.options.log('forwarding: net.ipv4.ip_forward=1');
  }

  /** Masquerades the tunnel networks (interface and peers) leaving by another interface, in its own table. */
  private async applyNat(allowedIps: string[], addresses: string[]) {
    const text = natRuleset({ interfaceName: this.interfaceName, sources: [...addresses, ...allowedIps] });
    if (text === this.natText) return;
    const path = join(this.dir, 'nat.nft');
    await writeFileAtomic(path, text, 0o644);
    await run('nft', ['-f', path]);
    this.natText = text;
    this.options.log(`nftables: loaded table ip ${NAT_TABLE}`);
  }

  private async applyNftables(path: string) {
    const text = (await readIfExists(path)) ?? '';
    const table = /^table\s+(\w+)\s+([\w.-]+)\s*\{/m.exec(text);
    if (!table) throw new Error(`nftables: ${path} declares no table`);
    await run('nft', ['-f', path]);
    this.nftTable = `${table[1]} ${table[2]}`;
    this.options.log(`nftables: loaded table ${this.nftTable}`);
  }

  /**
   * A table a site gateway's bundle may carry (`inet palisade_ztna`, `inet palisade_local`): loaded when its
   * file has one, deleted when a later bundle has none.
   */
  private async applyTable(path: string, table: string) {
    const text = (await readIfExists(path)) ?? '';
    if (text.trim() !== '') {
      await run('nft', ['-f', path]);
      this.optionalTables.add(table);
      this.options.log(`nftables: loaded table inet ${table}`);
    } else if (this.optionalTables.delete(table)) {
      await run('nft', ['delete', 'table', 'inet', table]);
      this.options.log(`nftables: deleted table inet ${table}`);
    }
  }

  /**
   * Serves the zones: the same configuration reloads the zones in place (`auth_zone_reload`), another one is
   * checked first (`unbound-checkconf` on the new file; a bad one leaves the running Unbound as it is), then
   * Unbound restarts with it.
   */
  private async applyUnbound(paths: ArtefactPaths, addresses: string[]) {
    const zone = (await readIfExists(paths.rpz)) ?? '';
    const origin = /^\$ORIGIN\s+(\S+)/m.exec(zone)?.[1] ?? 'rpz.palisade.';
    const audiences = parseAudiences((await readIfExists(paths.rpzAudiences)) ?? '').map((a) => ({
      ...a,
      path: join(this.dir, `rpz-${a.tag}.zone`),
    }));
    for (const a of audiences) await writeFileAtomic(a.path, a.zone);
    const config = unboundConfText({
      dir: this.dir,
      dnsPort: this.dnsPort,
      include: this.options.unboundInclude,
      rpz: { path: paths.rpz, origin },
      audiences,
      addresses,
    });
    const origins = [origin, ...audiences.map((a) => a.origin)];
    const conf = this.unboundConfPath;
    if (this.isUnboundRunning() && config === this.unboundConfig) {
      let reloaded = true;
      for (const name of origins) {
        const answer = await run('unbound-control', ['-c', conf, 'auth_zone_reload', name]).catch((error) => {
          this.options.log(`unbound: reload of ${name} failed, restarting: ${error.message}`);
          return null;
        });
        if (answer?.trim() !== 'ok') reloaded = false;
      }
      if (reloaded) {
        this.options.log(`unbound: reloaded ${origins.join(', ')}`);
        return;
      }
    }
    const next = `${conf}.next`;
    await writeFileAtomic(next, config, 0o644);
    await run('unbound-checkconf', [next]);
    await this.stopUnbound();
    await rename(next, conf);
    await this.startUnbound(conf);
    this.unboundConfig = config;
    this.options.log(`unbound: answering on port ${this.dnsPort} with ${origins.join(', ')}`);
  }

  private isUnboundRunning() {
    return this.unbound?.running ?? false;
  }

  /** Unbound under supervision (daemon.ts): one per state directory, even after a kill -9 of the gateway. */
  private async startUnbound(conf: string) {
    this.unbound = new Daemon({
      name: 'unbound',
      command: 'unbound',
      args: ['-d', '-c', conf],
      dir: this.dir,
      log: this.options.log,
      ready: () =>
        run('unbound-control', ['-c', conf, 'status'], { timeoutMs: 5000 }).then(
          () => true,
          () => false,
        ),
    });
    await this.unbound.start();
  }

  private async stopUnbound() {
    const daemon = this.unbound;
    this.unbound = null;
    this.unboundConfig = null;
    await daemon?.stop();
  }

  /** `wg show <interface> dump`, or null while the interface is not configured. */
  async wgDump(): Promise<string | null> {
    return this.wireguard.dump();
  }

  /** Tears down what apply brought up (Unbound, the nftables tables, forwarding, the interface); throws what failed. */
  async stop(): Promise<void> {
    const failures: string[] = [];
    await this.httpLayer.stop().catch((error) => failures.push(`http layer: ${error.message}`));
    await this.stopUnbound().catch((error) => failures.push(`unbound: ${error.message}`));
    if (this.nftTable) {
      const [family, table] = this.nftTable.split(' ');
      await run('nft', ['delete', 'table', family, table]).then(
        () => this.options.log(`nftables: deleted table ${this.nftTable}`),
        (error) => failures.push(`nftables: ${error.message}`),
      );
      this.nftTable = null;
    }
    for (const table of this.optionalTables) {
      await run('nft', ['delete', 'table', 'inet', table]).then(
        () => this.options.log(`nftables: deleted table inet ${table}`),
        (error) => failures.push(`nftables: ${error.message}`),
      );
    }
    this.optionalTables.clear();
    if (this.natText !== null) {
      await run('nft', ['delete', 'table', 'ip', NAT_TABLE]).then(
        () => this.options.log(`nftables: deleted table ip ${NAT_TABLE}`),
        (error) => failures.push(`nftables: ${error.message}`),
      );
      this.natText = null;
    }
    if (this.forwardingBefore !== null) {
      const before = this.forwardingBefore;
      this.forwardingBefore = null;
      await run('sysctl', ['-w', `net.ipv4.ip_forward=${before}`])
        .catch(() => writeFile('/proc/sys/net/ipv4/ip_forward', `${before}\n`))
        .catch((error) => failures.push(`forwarding: ${error.message}`));
    }
    await this.wireguard.down().catch((error) => failures.push(`wireguard: ${error.message}`));
    await rm(join(this.dir, 'unbound.ctl'), { force: true });
    if (failures.length > 0) throw new Error(`tearing down: ${failures.join('; ')}`);
  }
}
