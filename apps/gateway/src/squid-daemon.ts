import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { isIpv4, parseIpOrCidr } from '@palisade/contracts';
import { SQUID_PAGE_PORT_NAME, squidLogging } from '@palisade/gateway-config/squid';
import { SQUID_PORTS, STEERING_TABLE, steeringRuleset } from '@palisade/gateway-config/steering';
import { Daemon } from './daemon';
import { run } from './exec';
import { readIfExists, writeFileAtomic } from './files';

/**
 * squid in the traffic path (`--apply`): Debian's squid-openssl in the foreground (`squid -N -f`), supervised
 * by {@link Daemon} (pid file `squid.pid` in the gateway's directory), with a configuration of the gateway's own
 * around the bundle's HTTP-layer include (gateway-config squid.ts):
 * - `http_port <tunnel address>:3128 intercept`: plain HTTP the steering table (steering.ts) redirects;
 * - `https_port <tunnel address>:3129 intercept ssl-bump`: HTTPS, `ssl_bump peek` at step 1 to read the TLS
 *   server name, then the include's `splice`/`terminate` lines for host rules and `splice all` — never decrypted
 *   (the self-signed certificate, made once with openssl, is never presented);
 * - `http_port <tunnel address>:3130 intercept name=palisade_page`: plain HTTP to the gateway itself (a DNS block
 *   with the block page), which the include answers with the console's `/blockaccess/site`;
 * - `http_port 127.0.0.1:3127`, squid's own (its error pages' icons), denied to everyone else;
 * - cache off, the access log in the `palisade` format ({@link squidAccessLogPath}), its own log on stderr.
 *
 * squid drops to the `proxy` user and re-reads its files as that user on a reconfigure: they live in
 * `<dir>/squid/` (owned by proxy, mode 0750), and the gateway's directory gets the search bit for others
 * (0711: nobody can list or read it, squid can reach its own subdirectory).
 *
 * A new bundle: the include and the configuration are written beside the live ones, checked with
 * `squid -k parse`, then renamed over them and loaded with `squid -k reconfigure` (which keeps the established
 * connections); a failing check leaves the running squid as it was and throws. {@link SquidDaemon.apply}
 * answers once squid accepts connections with the new configuration.
 */

export interface SquidDaemonOptions {
  /** The gateway's state directory. */
  dir: string;
  log: (line: string) => void;
  /** squid's local ports (default SQUID_PORTS). */
  ports?: Partial<typeof SQUID_PORTS>;
  /** Name servers squid resolves with (default: the system's). */
  dnsServers?: readonly string[];
  /** A hosts file squid reads before asking DNS (default /etc/hosts). */
  hostsFile?: string;
  /** Each access log line is appended to the file; called for squid's own log lines (stderr). */
  onLog?: (line: string) => void;
}

const SQUID = 'squid';
const SQUID_USER = 'proxy';
const RECONFIGURE_TIMEOUT_MS = 15_000;

/** squid's working directory inside the gateway's. */
export const squidDir = (dir: string) => join(dir, 'squid');
/** The access log in the `palisade` format (gateway-config squidDecisionOf reads its lines). */
export const squidAccessLogPath = (dir: string) => join(squidDir(dir), 'access.log');

const execText = (command: string, args: string[]) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      command,
      args,
      {
        encoding: 'utf8',
        timeout: 60_000,
        maxBuffer: 16 << 20,
        env: { ...process.env, TZ: 'UTC', PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` },
      },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : 1
          : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });

/** The uid and gid of squid's user, from /etc/passwd. */
async function squidUser(): Promise<{ uid: number; gid: number }> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith(`${SQUID_USER}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error(`squid: no user ${SQUID_USER} (Debian squid-openssl makes it)`);
  return { uid: Number(uid), gid: Number(gid) };
}

export class SquidDaemon {
  private readonly daemon: Daemon;
  private readonly ports: typeof SQUID_PORTS;
  private config: string | null = null;
  private include: string | null = null;
  /** Set while waiting for squid to report its ports open after a reconfigure. */
  private onAccepting: (() => void) | null = null;

  /**
   * squid's service name (`-n`), unique per gateway directory: it names squid's shared memory segments
   * (`/dev/shm/<service>-*`), which two squids on one machine (gateways in network namespaces) must not share.
   */
  readonly service: string;

  constructor(private readonly options: SquidDaemonOptions) {
    this.ports = { ...SQUID_PORTS, ...options.ports };
    this.service = `palisade${createHash('sha256').update(resolve(options.dir)).digest('hex').slice(0, 12)}`;
    this.daemon = new Daemon({
      name: SQUID,
      command: 'squid',
      // -d 1: squid's own log on stderr too, where the supervisor reads it.
      args: ['-N', '-d', '1', '-n', this.service, '-f', this.confPath],
      dir: options.dir,
      log: options.log,
      ready: () => this.accepts(),
      readyTimeoutMs: 20_000,
      onLine: (line) => {
        if (/Accepting NAT intercepted SSL bumped HTTPS/.test(line)) this.onAccepting?.();
        options.onLog?.(line);
      },
    });
  }

  get confPath() {
    return join(squidDir(this.options.dir), 'squid.conf');
  }

  get includePath() {
    return join(squidDir(this.options.dir), 'rules.conf');
  }

  get running() {
    return this.daemon.running;
  }

  get pid() {
    return this.daemon.pid;
  }

  output(): Promise<string> {
    return this.daemon.output();
  }

  /** Whether squid's own port accepts connections. */
  private accepts(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(this.ports.forward, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  }

  /** The gateway's configuration around the include, listening on `address` (the tunnel address). */
  configText(address: string, include: string): string {
    const dir = squidDir(this.options.dir);
    const p = this.ports;
    const quoteFree = (text: string) => {
      if (/[\s"]/.test(text)) throw new Error(`squid: unusable in its configuration: ${text}`);
      return text;
    };
    return [
      '# Written by the Palisade gateway: rewritten on every bundle.',
      `http_port 127.0.0.1:${p.forward} name=palisade_own`,
      `http_port ${address}:${p.http} intercept`,
      `https_port ${address}:${p.https} intercept ssl-bump tls-cert=${quoteFree(join(dir, 'tls.pem'))} tls-key=${quoteFree(join(dir, 'tls.key'))} generate-host-certificates=off`,
      `http_port ${address}:${p.page} intercept name=${SQUID_PAGE_PORT_NAME}`,
      // squid's own port serves its error pages' icons to itself, no one uses it as a proxy.
      'acl palisade_own myportname palisade_own',
      'acl palisade_self src 127.0.0.1',
      'http_access deny palisade_own !palisade_self',
      'acl palisade_step1 at_step SslBump1',
      'ssl_bump peek palisade_step1',
      `include ${quoteFree(include)}`,
      'ssl_bump splice all',
      'cache deny all',
      `pid_filename ${quoteFree(join(dir, 'squid.run.pid'))}`,
      `cache_log ${quoteFree(join(dir, 'cache.log'))}`,
      `coredump_dir ${quoteFree(dir)}`,
      ...squidLogging(squidAccessLogPath(this.options.dir)),
      'pinger_enable off',
      'shutdown_lifetime 1 seconds',
      'forwarded_for transparent',
      'httpd_suppress_version_string on',
      'visible_hostname palisade-gateway',
      ...(this.options.dnsServers?.length
        ? [`dns_nameservers ${this.options.dnsServers.map(quoteFree).join(' ')}`]
        : []),
      ...(this.options.hostsFile ? [`hosts_file ${quoteFree(this.options.hostsFile)}`] : []),
      '',
    ].join('\n');
  }

  /** squid's directory, owned by its user, and the certificate of the TLS port (made once). */
  private async prepare() {
    const dir = squidDir(this.options.dir);
    const { uid, gid } = await squidUser();
    // squid must reach its directory as its own user: every directory above the gateway's must let it pass.
    for (let up = dirname(resolve(this.options.dir)); ; up = dirname(up)) {
      const { mode: m, uid: owner, gid: group } = await stat(up);
      const passes =
        (m & 0o001) !== 0 || (owner === uid && (m & 0o100) !== 0) || (group === gid && (m & 0o010) !== 0);
      if (!passes) {
        throw new Error(
          `squid: its user ${SQUID_USER} cannot reach ${up} (mode ${(m & 0o777).toString(8)}): chmod o+x it`,
        );
      }
      if (up === dirname(up)) break;
    }
    const mode = (await stat(this.options.dir)).mode & 0o777;
    if ((mode & 0o001) === 0) await chmod(this.options.dir, mode | 0o001);
    await mkdir(dir, { recursive: true, mode: 0o750 });
    await chmod(dir, 0o750);
    await chown(dir, uid, gid);
    const cert = join(dir, 'tls.pem');
    const key = join(dir, 'tls.key');
    if (!existsSync(cert) || !existsSync(key)) {
      await run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '3650',
        '-subj',
        '/CN=palisade-gateway',
        '-keyout',
        `${key}.new`,
        '-out',
        `${cert}.new`,
      ]);
      await chmod(`${key}.new`, 0o600);
      await chown(`${key}.new`, uid, gid);
      await rename(`${key}.new`, key);
      await rename(`${cert}.new`, cert);
      this.options.log('squid: made the TLS port certificate');
    }
  }

  /**
   * Enforces the bundle's include (the file at `includeSource`) on `address`: checked first, then squid started
   * or reconfigured. Throws when the check fails (the running squid keeps the previous configuration).
   */
  async apply(includeSource: string, address: string): Promise<void> {
    if (!isIpv4(address)) throw new Error(`squid: the tunnel address ${address} is not IPv4`);
    const include = (await readIfExists(includeSource)) ?? '';
    const config = this.configText(address, this.includePath);
    if (this.running && include === this.include && config === this.config) return;
    await this.prepare();
    // Checked beside the live files, with a configuration that includes the new include.
    const nextInclude = `${this.includePath}.next`;
    const nextConf = `${this.confPath}.next`;
    await writeFileAtomic(nextInclude, include, 0o644);
    await writeFileAtomic(nextConf, this.configText(address, nextInclude), 0o644);
    const parsed = await execText('squid', ['-n', this.service, '-k', 'parse', '-f', nextConf]);
    if (parsed.code !== 0 || /FATAL|Bungled/.test(parsed.output)) {
      const lines = parsed.output.split('\n').filter((l) => /FATAL|ERROR|Bungled/.test(l));
      throw new Error(`squid: the configuration does not parse: ${lines.join(' | ').slice(0, 2000)}`);
    }
    await rename(nextInclude, this.includePath);
    await writeFileAtomic(this.confPath, config, 0o644);
    await rm(nextConf);
    if (!this.running) {
      await this.startDaemon();
      // The ready check saw squid's own port; the intercepting ones open in the same step.
      this.options.log(`squid: intercepting on ${address}:${this.ports.http} and :${this.ports.https}`);
    } else {
      await this.reconfigure();
      this.options.log('squid: reconfigured');
    }
    this.include = include;
    this.config = config;
  }

  /**
   * Starts squid. A squid killed with SIGKILL leaves its shared memory segments behind, and a new one refuses to
   * start over them (`shm_open … File exists`): with no squid of this directory running they are removed first,
   * and once more if the start still meets them (an earlier squid the supervisor just ended).
   */
  private async startDaemon() {
    if ((await this.daemon.stale()).length === 0) await this.removeSegments();
    try {
      await this.daemon.start();
    } catch (error) {
      if (!/shm_open/.test(String((error as Error).message))) throw error;
      await this.removeSegments();
      await this.daemon.start();
    }
  }

  private async removeSegments() {
    const names = await readdir('/dev/shm').catch(() => [] as string[]);
    for (const name of names.filter((n) => n.startsWith(`${this.service}-`))) {
      await rm(join('/dev/shm', name), { force: true });
      this.options.log(`squid: removed the shared memory segment ${name} an earlier squid left`);
    }
  }

  /** `squid -k reconfigure`, answered once squid has opened its ports again with the new configuration. */
  private async reconfigure() {
    let timer: NodeJS.Timeout | undefined;
    const opened = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), RECONFIGURE_TIMEOUT_MS);
      this.onAccepting = () => resolve(true);
    });
    try {
      const r = await execText('squid', ['-n', this.service, '-k', 'reconfigure', '-f', this.confPath]);
      if (r.code !== 0) throw new Error(`squid: reconfigure failed: ${r.output.trim().slice(0, 1000)}`);
      if (!(await opened)) {
        throw new Error(
          `squid: no answer to reconfigure within 15 s: ${(await this.daemon.output()).slice(-1000)}`,
        );
      }
    } finally {
      clearTimeout(timer);
      this.onAccepting = null;
    }
  }

  async stop(): Promise<void> {
    this.include = null;
    this.config = null;
    await this.daemon.stop();
  }
}

export interface HttpLayerOptions extends Omit<SquidDaemonOptions, 'ports'> {
  /** The tunnel interface whose web traffic goes through squid. */
  interfaceName: string;
  ports?: Partial<typeof SQUID_PORTS>;
}

/**
 * The HTTP layer of `--apply`: squid ({@link SquidDaemon}) on the first IPv4 tunnel address, then the steering
 * table (gateway-config steering.ts, `steer.nft` in the gateway's directory), loaded after squid listens so no
 * redirected connection meets a closed port. Run always, whether or not the bundle has HTTP rules: plain HTTP to
 * the gateway's address (a DNS block's block page) needs it, and a later HTTP rule is then a reconfigure (well
 * under a second), not a start. `stop()` removes the steering first, then stops squid.
 */
export class HttpLayer {
  readonly squid: SquidDaemon;
  private steerText: string | null = null;

  constructor(private readonly options: HttpLayerOptions) {
    this.squid = new SquidDaemon(options);
  }

  get steeringPath() {
    return join(this.options.dir, 'steer.nft');
  }

  async apply(includeSource: string, addresses: readonly string[]): Promise<void> {
    // Squid and its steering table (`table ip`) are IPv4: the interface's IPv4 addresses, without their prefix.
    const own = addresses.flatMap((a) => {
      const b = parseIpOrCidr(a);
      return b?.family === 4 ? [b.host] : [];
    });
    if (own.length === 0) {
      this.options.log('squid: no IPv4 tunnel address, the HTTP layer is not steered');
      return;
    }
    await this.squid.apply(includeSource, own[0]);
    const ports = { ...SQUID_PORTS, ...this.options.ports };
    const text = steeringRuleset({
      interfaceName: this.options.interfaceName,
      gatewayAddresses: own,
      httpPort: ports.http,
      httpsPort: ports.https,
      pagePort: ports.page,
    });
    if (text === this.steerText) return;
    await writeFileAtomic(this.steeringPath, text, 0o644);
    await run('nft', ['-f', this.steeringPath]);
    this.steerText = text;
    this.options.log(
      `nftables: loaded table ip ${STEERING_TABLE} (ports 80, 443 of ${this.options.interfaceName} to squid)`,
    );
  }

  async stop(): Promise<void> {
    const failures: string[] = [];
    if (this.steerText !== null) {
      this.steerText = null;
      await run('nft', ['delete', 'table', 'ip', STEERING_TABLE]).then(
        () => this.options.log(`nftables: deleted table ip ${STEERING_TABLE}`),
        (error) => failures.push(`steering: ${error.message}`),
      );
    }
    await this.squid.stop().catch((error) => failures.push(`squid: ${error.message}`));
    if (failures.length > 0) throw new Error(failures.join('; '));
  }
}
