/**
 * The data plane, for real (root, `ip netns`, /dev/net/tun and the tools of scripts/net-tools.sh), in four
 * network namespaces:
 *   - the gateway's: the real server (spawned with PGlite and the demo data) and the reference gateway with
 *     --apply; the test reaches the server through a veth pair (198.18.0.0/15, benchmarking addresses);
 *   - a device's, joined to the gateway's by a veth pair (its "internet", 198.19.x.y/30): it makes its own
 *     WireGuard key, enrols through the API with a deployment key and brings the console's wg-quick text up with
 *     wireguard-go + `wg setconf` (the wg-quick keys done by hand: addresses, routes for the AllowedIPs); later an
 *     end user's device runs there as the reference gateway's `--device --apply` (enrolled with the user's link,
 *     checking in, bringing its tunnel up itself);
 *   - a protected server's (an HTTP listener on 10.99.0.2 in 10.99.0.0/24) that only the gateway reaches, by a
 *     veth pair; a route rule sends 10.99.0.0/24 through the gateway;
 *   - a hub cybernode's (the reference gateway with --apply), linked to the device's and the gateway's: with the
 *     mesh on, the device reaches the gateway's private service through it.
 * Proves: the WireGuard interface is up with the address and port the server assigned, and the endpoint given
 * with --endpoint reaches the device as its peer's; the device reaches the protected server through the tunnel
 * (routed and masqueraded by the gateway), with a handshake the gateway's `wg show` sees and posts as a
 * `connected` event the console lists (and, once the device is deleted, `disconnected` with its duration and
 * bytes; a user's device named with its user; `tunnel_up` at both ends of the mesh tunnel); a network-layer block
 * of the server's address makes new connections from the device fail within a second and deleting it restores
 * them within a second, while the policy simulator decides the same; a DNS-layer block makes the gateway's
 * Unbound, asked by the device over the tunnel at its `dns` address, answer NXDOMAIN within a second while a
 * locally known name still resolves, and removing it restores the answer; an end user's device enrolled through
 * their link by `--device --apply` comes up, is listed online with its agent version, reaches the port a private
 * service publishes to the user and is refused (TCP reset by the ZTNA firewall) another port of the same host;
 * with the mesh on (the hub, the gateway as its site) the hub and the gateway peer within a second, the gateway
 * drops the device as a peer, and the device, restarted, has the hub as its only peer, reaches the same port
 * through the hub and the gateway and is refused the other one by the gateway's ZTNA firewall;
 * SIGTERM tears it all down (the device's interface, then the gateway's). The measured times are printed
 * (process.stdout). Missing anything: "SKIPPED: <why>" (counted as skipped); with CI=true it fails instead.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { afterAll, describe, expect } from 'vitest';
import { stripWgQuick, withPrivateKey } from './artefacts';
import { TOOL_ENV } from './exec';
import { peerAllowedIps } from './forwarding';
import { hasCommand, needsTest } from './test-kit';
import { AGENT_VERSION } from './version';

const ROOT = resolve(import.meta.dirname, '../../..');
const id = randomBytes(3).toString('hex');
/** The gateway's namespace, the device's and the protected server's. */
const NS = `pgw${id}`;
const DEV_NS = `pgw${id}dev`;
const SRV_NS = `pgw${id}srv`;
/** A cybernode's: the mesh's hub, between the device and the site gateway. */
const HUB_NS = `pgw${id}hub`;
/** WireGuard interfaces: unique names (the control sockets in /var/run/wireguard are shared by namespaces). */
const IFACE = `pgw${id}w`;
const DEV_IFACE = `pgw${id}d`;
/** The second device's (an end user's, enrolled with their link by the reference gateway's --device mode). */
const USER_IFACE = `pgw${id}u`;
/** The hub cybernode's. */
const HUB_IFACE = `pgw${id}x`;
/** Test host ↔ gateway. */
const HOST_VETH = `pgw${id}h`;
const NS_VETH = `pgw${id}n`;
/** Gateway ↔ device (the underlay), gateway ↔ protected server. */
const GW_DEV_VETH = `pgw${id}a`;
const DEV_VETH = `pgw${id}b`;
const GW_SRV_VETH = `pgw${id}c`;
const SRV_VETH = `pgw${id}e`;
/** Hub ↔ device, hub ↔ gateway. */
const HUB_DEV_VETH = `pgw${id}f`;
const DEV_HUB_VETH = `pgw${id}g`;
const HUB_GW_VETH = `pgw${id}i`;
const GW_HUB_VETH = `pgw${id}j`;
const block30 = (prefix: string) => `${prefix}.${randomBytes(1)[0]}.${(randomBytes(1)[0] & 63) * 4}`;
const plus = (network: string, n: number) => network.replace(/\d+$/, (last) => String(Number(last) + n));
const SUBNET = block30('198.18');
const hostAddress = plus(SUBNET, 1);
const nsAddress = plus(SUBNET, 2);
/** Three /30s of one /28: gateway ↔ device, hub ↔ device, hub ↔ gateway. */
const UNDERLAY = `198.19.${randomBytes(1)[0]}.${(randomBytes(1)[0] & 15) * 16}`;
const gwUnderlay = plus(UNDERLAY, 1);
const devUnderlay = plus(UNDERLAY, 2);
const hubForDevices = plus(UNDERLAY, 5);
const devToHub = plus(UNDERLAY, 6);
const hubToGw = plus(UNDERLAY, 9);
const gwToHub = plus(UNDERLAY, 10);
const PROTECTED_NET = '10.99.0.0/24';
const GW_PROTECTED = '10.99.0.1';
const PROTECTED = '10.99.0.2';
const PROTECTED_URL = `http://${PROTECTED}:8080/`;
/** Another port of the protected server, which no private service publishes. */
const ADMIN_URL = `http://${PROTECTED}:9090/`;
const HOSTNAME = 'dataplane.lab';
const PASSWORD = `Dp-${randomBytes(12).toString('base64url')}`;
const dir = mkdtempSync(join(tmpdir(), 'pgw-dp-'));
// The gateways' squid runs as its own user: it must pass through this directory to theirs (as through /var/lib).
chmodSync(dir, 0o711);
const children: ChildProcess[] = [];
const namespaces: string[] = [];

const sh = (cmd: string, args: string[], env: NodeJS.ProcessEnv = TOOL_ENV) => {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? '', output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};
const inNsOf =
  (ns: string) =>
  (cmd: string, ...args: string[]) =>
    sh('ip', ['netns', 'exec', ns, cmd, ...args]);
const inNs = inNsOf(NS);
const inDev = inNsOf(DEV_NS);
const inSrv = inNsOf(SRV_NS);
const must = <T extends { status: number | null; output: string }>(r: T, what: string): T => {
  if (r.status !== 0) throw new Error(`${what}: ${r.output}`);
  return r;
};
const say = (line: string) => process.stdout.write(`data plane: ${line}\n`);

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done(code);
    });
    child.kill(signal);
  });
}

afterAll(async () => {
  for (const child of children) await stopChild(child);
  for (const ns of namespaces) {
    // Anything still running in a namespace (an orphaned unbound, wireguard-go) goes with it.
    for (const pid of sh('ip', ['netns', 'pids', ns]).stdout.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {}
    }
  }
  inNs('ip', 'link', 'del', IFACE);
  inDev('ip', 'link', 'del', DEV_IFACE);
  inDev('ip', 'link', 'del', USER_IFACE);
  inNsOf(HUB_NS)('ip', 'link', 'del', HUB_IFACE);
  // Deleting a namespace takes its veth ends with it (and their peers).
  for (const ns of namespaces) sh('ip', ['netns', 'del', ns]);
  sh('ip', ['link', 'del', HOST_VETH]);
  for (const name of [IFACE, DEV_IFACE, USER_IFACE, HUB_IFACE])
    rmSync(`/var/run/wireguard/${name}.sock`, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

function addNamespace(ns: string) {
  must(sh('ip', ['netns', 'add', ns]), `ip netns add ${ns}`);
  namespaces.push(ns);
  must(sh('ip', ['-n', ns, 'link', 'set', 'lo', 'up']), `lo up in ${ns}`);
}

/** A veth pair between two namespaces (null: the test's own), each end with its address, up. */
function link(a: { ns: string | null; name: string; address: string }, b: typeof a) {
  const at = (ns: string | null) => (ns ? ['-n', ns] : []);
  must(
    sh('ip', [
      ...at(a.ns),
      'link',
      'add',
      a.name,
      'type',
      'veth',
      'peer',
      'name',
      b.name,
      'netns',
      b.ns ?? '1',
    ]),
    `veth ${a.name}`,
  );
  for (const end of [a, b]) {
    must(sh('ip', [...at(end.ns), 'address', 'add', end.address, 'dev', end.name]), `address of ${end.name}`);
    must(sh('ip', [...at(end.ns), 'link', 'set', end.name, 'up']), `${end.name} up`);
  }
}

function spawnIn(ns: string, args: string[], env: NodeJS.ProcessEnv, name: string) {
  const child = spawn('ip', ['netns', 'exec', ns, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const state = { log: '' };
  const collect = (data: Buffer) => {
    state.log = `${state.log}${data}`.slice(-50_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', (code, signal) => collect(Buffer.from(`\n[${name} exited: ${code ?? signal}]\n`)));
  return { child, state };
}

async function until<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | undefined> | T | undefined,
  log = () => '',
) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${log()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An A query from a namespace: the addresses, or the status (NXDOMAIN, SERVFAIL…). */
function query(ns: string, server: string, name: string): string {
  const inThere = inNsOf(ns);
  if (hasCommand('dig')) {
    const r = inThere('dig', `@${server}`, '-p', '53', '+tries=1', '+time=2', name, 'A');
    const status = /status: (\w+)/.exec(r.stdout)?.[1] ?? `dig failed: ${r.output}`;
    if (status !== 'NOERROR') return status;
    const answers = r.stdout
      .split('\n')
      .filter((line) => !line.startsWith(';'))
      .flatMap((line) => /\sIN\s+A\s+(\S+)/.exec(line)?.[1] ?? []);
    return answers.join(',') || 'NODATA';
  }
  const script = `const r = new (await import('node:dns')).promises.Resolver({ timeout: 2000, tries: 1 });
r.setServers(['${server}:53']);
const say = (text) => process.stdout.write(text + '\\n');
try { say((await r.resolve4('${name}')).join(',')); } catch (e) { say(e.code === 'ENOTFOUND' ? 'NXDOMAIN' : e.code); }`;
  return inThere(process.execPath, '--input-type=module', '-e', script).stdout.trim();
}

/** A new HTTP GET of the protected server from the device (a new connection each time). */
function fromDevice(url = PROTECTED_URL): { ok: boolean; body: string } {
  if (hasCommand('curl')) {
    const r = inDev('curl', '-sS', '--noproxy', '*', '--connect-timeout', '1', '-m', '2', url);
    return { ok: r.status === 0, body: r.status === 0 ? r.stdout : r.output.trim() };
  }
  const script = `const say = (text) => process.stdout.write(text + '\\n');
try { const r = await fetch('${url}', { signal: AbortSignal.timeout(2000) });
say(r.status === 200 ? 'OK ' + (await r.text()) : 'HTTP ' + r.status); } catch (e) { say('FAILED ' + (e.cause?.code ?? e.message)); }`;
  const out = inDev(process.execPath, '--input-type=module', '-e', script).stdout.trim();
  return { ok: out.startsWith('OK '), body: out.replace(/^OK /, '') };
}

/** For {@link until}: the answer when the device reaches `url`, else undefined. */
const reachedFromDevice = (url = PROTECTED_URL) => {
  const r = fromDevice(url);
  return r.ok ? r : undefined;
};
/** For {@link until}: the failure when the device does not reach `url`, else undefined. */
const refusedFromDevice = (url = PROTECTED_URL) => {
  const r = fromDevice(url);
  return r.ok ? undefined : r;
};

/**
 * A TCP connection from the device: `connected`, or the socket's error code — `ECONNREFUSED` when the SYN is
 * answered by a reset, `ETIMEDOUT` when it is dropped (curl's wording for the same varies by version).
 */
function tcpFromDevice(host: string, port: number): string {
  const script = `const s = require('node:net').connect({ host: '${host}', port: ${port}, timeout: 2000 });
s.on('connect', () => { process.stdout.write('connected\\n'); s.destroy(); });
s.on('timeout', () => { process.stdout.write('ETIMEDOUT\\n'); s.destroy(); });
s.on('error', (e) => process.stdout.write(e.code + '\\n'));`;
  return inDev(process.execPath, '-e', script).stdout.trim();
}

describe('the data plane in network namespaces', () => {
  needsTest(
    'a device reaches a protected server through the gateway; blocks follow the administrator within a second',
    [
      'root',
      'tun',
      'ip',
      'netns',
      'wireguard-go',
      'wg',
      'nft',
      'unbound',
      'unbound-checkconf',
      'unbound-control',
    ],
    async () => {
      for (const ns of [NS, DEV_NS, SRV_NS, HUB_NS]) addNamespace(ns);
      link(
        { ns: null, name: HOST_VETH, address: `${hostAddress}/30` },
        { ns: NS, name: NS_VETH, address: `${nsAddress}/30` },
      );
      link(
        { ns: NS, name: GW_DEV_VETH, address: `${gwUnderlay}/30` },
        { ns: DEV_NS, name: DEV_VETH, address: `${devUnderlay}/30` },
      );
      link(
        { ns: NS, name: GW_SRV_VETH, address: `${GW_PROTECTED}/24` },
        { ns: SRV_NS, name: SRV_VETH, address: `${PROTECTED}/24` },
      );
      // The hub: the device reaches it at hubForDevices, it reaches the gateway's endpoint (and the server), and
      // the gateway reaches it at hubForDevices (its endpoint) through their own link.
      link(
        { ns: HUB_NS, name: HUB_DEV_VETH, address: `${hubForDevices}/30` },
        { ns: DEV_NS, name: DEV_HUB_VETH, address: `${devToHub}/30` },
      );
      link(
        { ns: HUB_NS, name: HUB_GW_VETH, address: `${hubToGw}/30` },
        { ns: NS, name: GW_HUB_VETH, address: `${gwToHub}/30` },
      );
      must(inNsOf(HUB_NS)('ip', 'route', 'add', `${gwUnderlay}/32`, 'via', gwToHub), 'hub → gateway');
      must(inNs('ip', 'route', 'add', `${hubForDevices}/32`, 'via', hubToGw), 'gateway → hub');
      // The protected server knows no way to the devices: only the gateway's masquerading brings answers back.
      expect(inSrv('ip', 'route', 'show', 'default').stdout.trim()).toBe('');
      const forwardingBefore = inNs('cat', '/proc/sys/net/ipv4/ip_forward').stdout.trim();

      // The real server, inside the gateway's namespace (its port 8080 and Unbound's 53 are the namespace's own).
      const { LOG_LEVEL: _, CI: __, ...base } = TOOL_ENV;
      const server = spawnIn(
        NS,
        [process.execPath, '--import', 'tsx', 'apps/server/src/server.ts'],
        {
          ...base,
          PORT: '8080',
          HOST: '0.0.0.0',
          DATA_DIR: join(dir, 'server'),
          DEMO_PASSWORD: PASSWORD,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_MAX: '100000',
        },
        'server',
      );
      // The protected server: answers with the address it saw the request come from.
      const listener = spawnIn(
        SRV_NS,
        [
          process.execPath,
          '-e',
          `const http = require('node:http');` +
            `http.createServer((q, s) => s.end('protected ' + q.socket.remoteAddress))` +
            `.listen(8080, '${PROTECTED}', () => process.stdout.write('listening\\n'));` +
            `http.createServer((q, s) => s.end('admin')).listen(9090, '${PROTECTED}');`,
        ],
        base,
        'protected server',
      );
      const api = `http://${nsAddress}:8080/api`;
      const started = Date.now();
      await until(
        'the server',
        90_000,
        () =>
          fetch(`${api}/health/live`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => (r.ok ? true : undefined),
            () => (server.child.exitCode === null ? undefined : Promise.reject(new Error(server.state.log))),
          ),
        () => server.state.log,
      );
      say(`server up in ${Date.now() - started} ms`);
      await until('the protected server', 10_000, () =>
        listener.state.log.includes('listening') ? true : undefined,
      );
      // Not reachable from the device without the tunnel.
      expect(fromDevice().ok).toBe(false);

      const signIn = await fetch(`${api}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@acme.example', password: PASSWORD }),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const session = ((await signIn.json()) as { sessid: string }).sessid;
      const request = async (
        method: string,
        path: string,
        body: unknown,
        headers: Record<string, string>,
      ) => {
        const r = await fetch(`${api}${path}`, {
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await r.text();
        if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
        return JSON.parse(text);
      };
      const call = (method: string, path: string, body?: unknown) =>
        request(method, path, body, { 'x-auth-token': session });
      type ConnectionRow = {
        action: string;
        gateway: { id: string } | null;
        user: { id: string; name: string } | null;
        device: { id: string; name: string } | null;
        peer: string | null;
        endpoint: string | null;
        durationMs: number | null;
        bytesIn: number | null;
        bytesOut: number | null;
      };
      /**
       * The first connection event of the console's list that `query` and `match` find: a gateway posts them after
       * the heartbeat (every 5 s) whose `wg show` sample showed the change, so three heartbeats at most.
       */
      const connectionEvent = (
        what: string,
        query: string,
        match: (event: ConnectionRow) => boolean = () => true,
        log = () => '',
      ) =>
        until(
          what,
          15_000,
          async () => {
            await new Promise((r) => setTimeout(r, 200));
            const page = (await call('GET', `/events/connections/acme?${query}`)) as {
              items: ConnectionRow[];
            };
            return page.items.find(match);
          },
          log,
        );
      const simulate = async () =>
        (await call('POST', '/policy/simulate/acme', {
          request: { destination: `${PROTECTED}:8080`, deviceId, protocol: 'tcp' },
        })) as { decision: 'allow' | 'block'; rule: { ruleName: string } | null };

      // The demo's gateways retired: the device's peers and resolver are then this lab's gateway (a device gets
      // every gateway of its tenant as a peer, and the first one's resolver).
      const demo = (await call('GET', '/cybernodes/acme?limit=100')) as { items: { id: string }[] };
      for (const gateway of demo.items) await call('DELETE', `/cybernodes/acme/${gateway.id}`);

      const created = await call('POST', '/cybernodes/acme', {
        name: `Data plane ${id}`,
        kind: 'cgw',
        region: 'lab',
      });
      const gatewayId: string = created.cybernode.id;

      // The test's local names: one as Unbound's local-data, one served by a root zone to the resolver itself
      // (there is no internet), which the RPZ can block.
      const rootZone = join(dir, 'root.zone');
      writeFileSync(
        rootZone,
        [
          '$ORIGIN .',
          '$TTL 60',
          '. IN SOA a.root. h.root. 1 3600 600 86400 60',
          '. IN NS a.root.',
          'a.root. IN A 127.0.0.1',
          'blocked.palisade.example. IN A 192.0.2.11',
          '',
        ].join('\n'),
      );
      const include = join(dir, 'unbound-test.conf');
      writeFileSync(
        include,
        [
          '  local-data: "ok.palisade.example. 60 IN A 192.0.2.10"',
          'auth-zone:',
          '  name: "."',
          `  zonefile: "${rootZone}"`,
          '  for-upstream: yes',
          '  for-downstream: no',
          '  fallback-enabled: no',
          '',
        ].join('\n'),
      );
      const endpoint = `${gwUnderlay}:51820`;
      const agent = spawnIn(
        NS,
        [
          process.execPath,
          '--import',
          'tsx',
          'apps/gateway/src/main.ts',
          '--server',
          'http://127.0.0.1:8080',
          '--dir',
          join(dir, 'gateway'),
          '--apply',
          '--interface',
          IFACE,
          '--dns-port',
          '53',
          '--unbound-include',
          include,
          '--hostname',
          HOSTNAME,
          '--endpoint',
          endpoint,
        ],
        { ...base, PALISADE_GATEWAY_TOKEN: created.enrolmentToken.token },
        'agent',
      );
      const agentLog = () => agent.state.log;
      await until(
        'the first bundle applied',
        60_000,
        () => (/enforced bundle .* \(applied\)/.test(agent.state.log) ? true : undefined),
        agentLog,
      );

      // WireGuard: up, with the address, port and key the server knows, and the endpoint it was given.
      const shown = await until('online', 10_000, async () => {
        const g = await call('GET', `/cybernodes/acme/${gatewayId}`);
        return g.status === 'online' && g.enforcedVersion === g.currentVersion ? g : undefined;
      });
      expect(shown.endpoint).toBe(endpoint);
      expect(shown.listenPort).toBe(51820);
      const tunnel = String(shown.address).split('/')[0];
      const tunnelNetwork = String(shown.address).replace(/\.\d+\/24$/, '.0/24');
      const [iface] = must(inNs('wg', 'show', IFACE, 'dump'), 'wg show')
        .stdout.trim()
        .split('\n');
      const [, publicKey, listenPort] = iface.split('\t');
      expect(publicKey).toBe(shown.publicKey);
      expect(Number(listenPort)).toBe(shown.listenPort);
      const ipLink = JSON.parse(
        must(inNs('ip', '-j', 'address', 'show', 'dev', IFACE), 'ip address').stdout,
      )[0];
      expect(ipLink.flags).toContain('UP');
      expect(
        ipLink.addr_info.map((a: { local: string; prefixlen: number }) => `${a.local}/${a.prefixlen}`),
      ).toContain(shown.address);
      // Forwarding on, and the gateway's own NAT table beside the policy's.
      expect(inNs('cat', '/proc/sys/net/ipv4/ip_forward').stdout.trim()).toBe('1');
      const ruleset = () => inNs('nft', 'list', 'ruleset').stdout;
      expect(ruleset()).toContain('table inet palisade');
      expect(ruleset()).toContain('table ip palisade_nat');

      // The administrator sends the protected network through this gateway, and a device enrols with its key.
      await call('POST', '/policy/acme', {
        type: 'route',
        name: `Protected through the lab ${id}`,
        rules: [
          { name: 'Protected servers', type: 'ROUTE', action: 'route', url: PROTECTED_NET, target: HOSTNAME },
        ],
      });
      const deploymentKey = await call('POST', '/enrolment/acme/keys', { name: `Data plane ${id}` });
      const deviceKeys = generateKeyPair();
      const enrolled = await request(
        'POST',
        '/enrol',
        {
          token: deploymentKey.token,
          device: { name: `Device ${id}`, os: 'linux' },
          publicKey: deviceKeys.publicKey,
        },
        {},
      );
      const enrolledAt = Date.now();
      const deviceId: string = enrolled.deviceId;
      const wireguard = enrolled.wireguard as {
        address: string;
        dns: string[];
        peers: { gatewayId: string; publicKey: string; endpoint: string | null; allowedIps: string[] }[];
        config: string;
      };
      expect(wireguard.dns).toEqual([tunnel]);
      expect(wireguard.peers).toContainEqual(
        expect.objectContaining({
          gatewayId,
          publicKey: shown.publicKey,
          endpoint,
          allowedIps: [tunnelNetwork, PROTECTED_NET],
        }),
      );
      const deviceAddress = wireguard.address.split('/')[0];

      // The gateway takes the device as a peer, routed to its interface.
      await until(
        'the device as a peer of the gateway',
        1_000,
        () => {
          const peers = inNs('wg', 'show', IFACE, 'allowed-ips').stdout;
          const routes = inNs('ip', 'route', 'show', 'dev', IFACE).stdout;
          return peers.includes(`${deviceKeys.publicKey}\t${deviceAddress}/32`) &&
            routes.split('\n').some((line) => line.startsWith(`${deviceAddress} `))
            ? true
            : undefined;
        },
        agentLog,
      );
      const peerMs = Date.now() - enrolledAt;

      // The device brings up the console's configuration with its own private key: wireguard-go + wg setconf,
      // and what wg-quick would do (addresses, MTU, a route for every AllowedIPs).
      const deviceConf = join(dir, 'device.conf');
      const stripped = stripWgQuick(withPrivateKey(wireguard.config, deviceKeys.privateKey));
      writeFileSync(deviceConf, stripped.config, { mode: 0o600 });
      // Without LOG_LEVEL wireguard-go hands its daemon /dev/null, not our pipes (spawnSync would wait for them).
      must(
        sh('ip', ['netns', 'exec', DEV_NS, 'wireguard-go', DEV_IFACE], base),
        'wireguard-go on the device',
      );
      must(inDev('wg', 'setconf', DEV_IFACE, deviceConf), 'wg setconf on the device');
      for (const address of stripped.addresses) {
        must(inDev('ip', 'address', 'add', address, 'dev', DEV_IFACE), 'device address');
      }
      must(inDev('ip', 'link', 'set', DEV_IFACE, 'mtu', String(stripped.mtu ?? 1420), 'up'), 'device up');
      for (const network of peerAllowedIps(stripped.config)) {
        must(inDev('ip', 'route', 'replace', network, 'dev', DEV_IFACE), `device route ${network}`);
      }

      // (1) Through the tunnel to the protected server, masqueraded by the gateway; the gateway saw a handshake.
      const upAt = Date.now();
      const first = await until('the protected server from the device', 5_000, () => reachedFromDevice());
      const firstMs = Date.now() - upAt;
      expect(first.body).toBe(`protected ${GW_PROTECTED}`);
      const handshake = must(inNs('wg', 'show', IFACE, 'dump'), 'wg show')
        .stdout.split('\n')
        .map((line) => line.split('\t'))
        .find((fields) => fields[0] === deviceKeys.publicKey);
      expect(handshake, 'the device is a peer of the gateway').toBeDefined();
      expect(Number(handshake?.[4])).toBeGreaterThan(0);
      expect(handshake?.[2]).toBe(
        `${devUnderlay}:${inDev('wg', 'show', DEV_IFACE, 'listen-port').stdout.trim()}`,
      );
      expect((await simulate()).decision).toBe('allow');

      // (2) A network-layer block of the server's address: new connections fail within a second; the simulator
      // agrees. Deleting the policy restores both within a second.
      const netSaved = Date.now();
      const netPolicy = await call('POST', '/policy/acme', {
        type: 'other',
        name: `Block the protected server ${id}`,
        rules: [{ name: 'Block the protected server', type: 'ROUTE', action: 'block', url: PROTECTED }],
      });
      const netAnswered = Date.now();
      const refused = await until(
        'new connections to the protected server failing',
        1_000,
        () => refusedFromDevice(),
        agentLog,
      );
      const blockMs = Date.now() - netAnswered;
      expect(ruleset()).toContain(PROTECTED);
      // Replaced, not duplicated.
      expect(ruleset().match(/table inet palisade /g)).toHaveLength(1);
      expect(ruleset().match(/table ip palisade_nat /g)).toHaveLength(1);
      const blocked = await simulate();
      expect(blocked.decision).toBe('block');
      expect(blocked.rule?.ruleName).toBe('Block the protected server');
      expect(fromDevice().ok).toBe(false);

      await call('DELETE', '/policy/acme', { ids: [netPolicy.policy.id] });
      const netRemoved = Date.now();
      const back = await until('the protected server back', 1_000, () => reachedFromDevice(), agentLog);
      const unblockMs = Date.now() - netRemoved;
      expect(back.body).toBe(`protected ${GW_PROTECTED}`);
      expect((await simulate()).decision).toBe('allow');

      // (3) Unbound, asked by the device over the tunnel at its dns address: both names resolve; a DNS-layer
      // block answers NXDOMAIN within a second; removing it restores the answer.
      const resolver = wireguard.dns[0];
      expect(query(DEV_NS, resolver, 'ok.palisade.example')).toBe('192.0.2.10');
      expect(query(DEV_NS, resolver, 'blocked.palisade.example')).toBe('192.0.2.11');
      const dnsSaved = Date.now();
      const dnsPolicy = await call('POST', '/policy/acme', {
        type: 'other',
        name: `Block domain ${id}`,
        // Without the block page (as threat intelligence): the name does not exist. The block page's answer
        // (the gateway's address) is proved with stock clients in enforcement.test.ts.
        blockPage: false,
        rules: [{ name: 'Block one domain', type: 'dmn', action: 'block', url: 'blocked.palisade.example' }],
      });
      const dnsAnswered = Date.now();
      await until(
        'NXDOMAIN',
        1_000,
        () => (query(DEV_NS, resolver, 'blocked.palisade.example') === 'NXDOMAIN' ? true : undefined),
        agentLog,
      );
      const dnsMs = Date.now() - dnsAnswered;
      expect(query(NS, '127.0.0.1', 'blocked.palisade.example')).toBe('NXDOMAIN');
      expect(query(DEV_NS, resolver, 'ok.palisade.example')).toBe('192.0.2.10');
      await call('DELETE', '/policy/acme', { ids: [dnsPolicy.policy.id] });
      const dnsRemoved = Date.now();
      await until(
        'the answer back',
        1_000,
        () => (query(DEV_NS, resolver, 'blocked.palisade.example') === '192.0.2.11' ? true : undefined),
        agentLog,
      );
      const restoreMs = Date.now() - dnsRemoved;

      say(
        `device peer on the gateway ${peerMs} ms after its enrolment answered; first GET through the tunnel ` +
          `${firstMs} ms after the device's interface came up`,
      );
      say(
        `network block of ${PROTECTED}: save answered in ${netAnswered - netSaved} ms, new connections failing ` +
          `${blockMs} ms after it (${refused.body.split('\n')[0]}), back ${unblockMs} ms after the delete answered`,
      );
      say(
        `DNS block: save answered in ${dnsAnswered - dnsSaved} ms, NXDOMAIN at the device ${dnsMs} ms after it, ` +
          `answer restored ${restoreMs} ms after the delete answered`,
      );

      // The gateway's heartbeat sample saw the device's handshake and posted `connected` (a deployment key names
      // no user), from where its packets came.
      const connectedSeen = Date.now();
      const deviceConnected = await connectionEvent(
        "the device's connected event",
        `deviceId=${deviceId}&action=connected`,
        undefined,
        agentLog,
      );
      expect(deviceConnected).toMatchObject({
        gateway: { id: gatewayId },
        device: { id: deviceId, name: `Device ${id}` },
        user: null,
        peer: deviceKeys.publicKey,
        endpoint: handshake?.[2],
      });
      say(`connected event of the device listed (waited ${Date.now() - connectedSeen} ms more)`);

      // The device removed: the gateway drops the peer and its route (a stale route is removed on a new bundle).
      await call('DELETE', '/enrolment/acme/devices', { ids: [deviceId] });
      const deviceRemoved = Date.now();
      await until(
        "the device's peer and route gone from the gateway",
        5_000,
        () => {
          const peers = inNs('wg', 'show', IFACE, 'peers').stdout;
          const routes = inNs('ip', 'route', 'show', 'dev', IFACE).stdout;
          return !peers.includes(deviceKeys.publicKey) &&
            !routes.split('\n').some((line) => line.startsWith(`${deviceAddress} `))
            ? true
            : undefined;
        },
        agentLog,
      );
      say(
        `device removed: its peer and route gone from the gateway ${Date.now() - deviceRemoved} ms after the delete`,
      );
      expect(fromDevice().ok).toBe(false);
      // Its peer gone from the interface: `disconnected`, with how long it was up and what it moved.
      const deviceGone = await connectionEvent(
        "the device's disconnected event",
        `deviceId=${deviceId}&action=disconnected`,
        undefined,
        agentLog,
      );
      expect(deviceGone).toMatchObject({ gateway: { id: gatewayId }, peer: deviceKeys.publicKey });
      expect(deviceGone.durationMs).toBeGreaterThan(0);
      expect(deviceGone.bytesIn).toBeGreaterThan(0);
      expect(deviceGone.bytesOut).toBeGreaterThan(0);
      say(
        `disconnected event: up ${deviceGone.durationMs} ms, ${deviceGone.bytesIn} bytes in, ` +
          `${deviceGone.bytesOut} out`,
      );
      must(inDev('ip', 'link', 'del', DEV_IFACE), "the first device's interface down");

      // (4) Private access: an end user's device, run by `main.ts --device --apply` with their link's token (the
      // key pair made on the device, only the public key sent), reaches the protected server's port 8080 once a
      // private service publishes it to the user, and is refused port 9090, which nothing publishes.
      const user = await call('POST', '/subscriber/user/acme', {
        username: `dp-${id}@acme.example`,
        firstname: 'Data',
        lastname: 'Plane',
      });
      const userLink = await call('POST', `/enrolment/acme/users/${user.id}/link`, {});
      // The reference gateway's --device mode with --apply: it makes its key pair, enrols with the link's token
      // over the underlay, checks in and brings the tunnel up as wg-quick would (wireguard-go, wg setconf,
      // addresses, a route per AllowedIPs).
      const laptop = `Laptop ${id}`;
      const deviceDir = join(dir, 'user-device');
      const deviceStarted = Date.now();
      // Started again later (its key and credential kept in deviceDir), without the token.
      const startUserDevice = (name: string, ...enrolment: string[]) =>
        spawnIn(
          DEV_NS,
          [
            process.execPath,
            '--import',
            'tsx',
            'apps/gateway/src/main.ts',
            '--device',
            '--server',
            `http://${gwUnderlay}:8080`,
            ...enrolment,
            '--dir',
            deviceDir,
            '--apply',
            '--interface',
            USER_IFACE,
          ],
          base,
          name,
        );
      const userDevice = startUserDevice(
        'device',
        '--token',
        userLink.token,
        '--name',
        laptop,
        '--os',
        'linux',
      );
      const deviceLog = () => `${agentLog()}\n--- device ---\n${userDevice.state.log}`;
      await until(
        "the user's device interface and routes",
        60_000,
        () => {
          if (userDevice.child.exitCode !== null) throw new Error(`the device stopped\n${deviceLog()}`);
          const link = inDev('ip', '-j', 'address', 'show', 'dev', USER_IFACE);
          const routes = inDev('ip', '-j', 'route', 'show', 'dev', USER_IFACE).stdout;
          return link.status === 0 &&
            JSON.parse(link.stdout)[0]?.flags?.includes('UP') &&
            /applied on/.test(userDevice.state.log) &&
            (JSON.parse(routes || '[]') as { dst: string }[]).some((r) => r.dst === PROTECTED_NET)
            ? true
            : undefined;
        },
        deviceLog,
      );
      const deviceUpMs = Date.now() - deviceStarted;
      const deviceState = JSON.parse(readFileSync(join(deviceDir, 'state.json'), 'utf8')) as {
        publicKey: string;
        device: { deviceId: string };
      };
      // Its own key (made in the device's namespace) is the one the gateway has as a peer.
      await until(
        "the user's device as a peer of the gateway",
        2_000,
        () => (inNs('wg', 'show', IFACE, 'peers').stdout.includes(deviceState.publicKey) ? true : undefined),
        deviceLog,
      );
      expect(inDev('wg', 'show', USER_IFACE, 'peers').stdout.trim()).toBe(shown.publicKey);
      // The console lists it online with the agent version its check-in reported.
      const listed = (await call('GET', `/devices/acme?q=${encodeURIComponent(laptop)}`)) as {
        items: { id: string; status: string; state: string; agentVersion: string | null; os: string }[];
      };
      expect(listed.items).toContainEqual(
        expect.objectContaining({
          id: deviceState.device.deviceId,
          status: 'online',
          state: 'active',
          agentVersion: AGENT_VERSION,
          os: 'linux',
        }),
      );
      // Before anything is published, the route policy alone lets it reach both ports.
      await until(
        'port 9090 before the service',
        5_000,
        () => (fromDevice(ADMIN_URL).ok ? true : undefined),
        agentLog,
      );

      const published = Date.now();
      await call('POST', '/devices/acme/spa/services', {
        name: `Protected web ${id}`,
        gatewayId,
        address: PROTECTED,
        protocol: 'tcp',
        ports: '8080',
        userIds: [user.id],
      });
      const publishAnswered = Date.now();
      const closed = await until(
        'port 9090 refused by the ZTNA firewall',
        2_000,
        () => refusedFromDevice(ADMIN_URL),
        agentLog,
      );
      const ztnaMs = Date.now() - publishAnswered;
      expect(ruleset()).toContain('table inet palisade_ztna');
      const allowed = fromDevice();
      expect(allowed.ok, allowed.body).toBe(true);
      expect(allowed.body).toBe(`protected ${GW_PROTECTED}`);
      // Refused at once (a TCP reset), not left to time out.
      expect(tcpFromDevice(PROTECTED, 9090), closed.body).toBe('ECONNREFUSED');
      expect(tcpFromDevice(PROTECTED, 8080)).toBe('connected');
      // The gateway names the user behind the device's tunnel address (the bundle's identities).
      const userConnected = await connectionEvent(
        "the user's device's connected event",
        `deviceId=${deviceState.device.deviceId}&action=connected`,
        (event) => event.gateway?.id === gatewayId,
        deviceLog,
      );
      expect(userConnected).toMatchObject({
        user: { id: user.id, name: `dp-${id}@acme.example` },
        device: { id: deviceState.device.deviceId, name: laptop },
        peer: deviceState.publicKey,
      });
      say(
        `private service published in ${publishAnswered - published} ms; port 9090 refused ${ztnaMs} ms after ` +
          `(${closed.body.split('\n')[0]}; a TCP connect: ECONNREFUSED), port 8080 served`,
      );
      say(
        `--device: enrolled, interface and routes up ${deviceUpMs} ms after it started; listed online with ` +
          `agent ${AGENT_VERSION}`,
      );
      // (5) The mesh: a cybernode as its hub, the lab's site gateway as its site. The device reaches the published
      // port through the hub and the site gateway (the hub keeps its address: the site's ZTNA firewall still
      // refuses it port 9090); the site gateway takes no device peers any more.
      const hubCreated = await call('POST', '/cybernodes/acme', {
        name: `Hub ${id}`,
        kind: 'cybernode',
        region: 'lab',
      });
      const hubId: string = hubCreated.cybernode.id;
      const hubAgent = spawnIn(
        HUB_NS,
        [
          process.execPath,
          '--import',
          'tsx',
          'apps/gateway/src/main.ts',
          '--server',
          `http://${gwToHub}:8080`,
          '--dir',
          join(dir, 'hub'),
          '--apply',
          '--interface',
          HUB_IFACE,
          '--hostname',
          'hub.lab',
          '--endpoint',
          `${hubForDevices}:51820`,
        ],
        { ...base, PALISADE_GATEWAY_TOKEN: hubCreated.enrolmentToken.token },
        'hub',
      );
      const meshLog = () => `${deviceLog()}\n--- hub ---\n${hubAgent.state.log}`;
      await until(
        "the hub's first bundle applied",
        60_000,
        () => (/enforced bundle .* \(applied\)/.test(hubAgent.state.log) ? true : undefined),
        meshLog,
      );
      const hubShown = await call('GET', `/cybernodes/acme/${hubId}`);
      const meshSaved = Date.now();
      const mesh = await call('PUT', '/devices/acme/spa/mesh', {
        enabled: true,
        hubId,
        siteIds: [gatewayId],
      });
      const meshAnswered = Date.now();
      expect(mesh.nodes.map((node: { id: string }) => node.id)).toEqual([hubId, gatewayId]);
      expect(mesh.issues).toEqual([]);
      const inHub = inNsOf(HUB_NS);
      await until(
        'the hub and the site gateway peering, the device moved to the hub',
        2_000,
        () => {
          const sitePeers = inNs('wg', 'show', IFACE, 'peers').stdout;
          const hubPeers = inHub('wg', 'show', HUB_IFACE, 'peers').stdout;
          return sitePeers.includes(hubShown.publicKey) &&
            !sitePeers.includes(deviceState.publicKey) &&
            hubPeers.includes(shown.publicKey) &&
            hubPeers.includes(deviceState.publicKey)
            ? true
            : undefined;
        },
        meshLog,
      );
      const meshMs = Date.now() - meshAnswered;
      // The hub routes the site's tunnel address and what is reached there to the site gateway.
      const hubRoutes = inHub('wg', 'show', HUB_IFACE, 'allowed-ips').stdout;
      expect(hubRoutes).toContain(`${shown.publicKey}\t`);
      const siteAtHub = hubRoutes.split('\n').find((line) => line.startsWith(`${shown.publicKey}\t`)) ?? '';
      expect(siteAtHub).toContain(`${tunnel}/32`);
      expect(siteAtHub).toContain(PROTECTED_NET);
      // The device takes the new configuration when it next checks in: restarted, it checks in at once (its
      // key and credential kept in its state).
      expect(await stopChild(userDevice.child), deviceLog()).toBe(0);
      const restarted = Date.now();
      const meshDevice = startUserDevice('device (mesh)');
      const meshDeviceLog = () => `${meshLog()}\n--- device (mesh) ---\n${meshDevice.state.log}`;
      await until(
        "the device's tunnel to the hub only",
        30_000,
        () => {
          if (meshDevice.child.exitCode !== null) throw new Error(`the device stopped\n${meshDeviceLog()}`);
          const peers = inDev('wg', 'show', USER_IFACE, 'peers');
          return peers.status === 0 &&
            peers.stdout.trim() === hubShown.publicKey &&
            /applied on/.test(meshDevice.state.log)
            ? true
            : undefined;
        },
        meshDeviceLog,
      );
      const throughHub = await until(
        'the published port through the hub',
        5_000,
        () => reachedFromDevice(),
        meshDeviceLog,
      );
      const throughHubMs = Date.now() - restarted;
      // Masqueraded by the site gateway, as before; the hub saw the device and the site, the site the hub.
      expect(throughHub.body).toBe(`protected ${GW_PROTECTED}`);
      expect(tcpFromDevice(PROTECTED, 9090), 'the site refuses the port nothing publishes').toBe(
        'ECONNREFUSED',
      );
      expect(tcpFromDevice(PROTECTED, 8080)).toBe('connected');
      const handshakes = (ns: (cmd: string, ...args: string[]) => ReturnType<typeof sh>, iface: string) =>
        new Map(
          must(ns('wg', 'show', iface, 'latest-handshakes'), 'wg show')
            .stdout.trim()
            .split('\n')
            .map((line) => line.split('\t') as [string, string])
            .map(([key, at]) => [key, Number(at)]),
        );
      expect(handshakes(inHub, HUB_IFACE).get(deviceState.publicKey)).toBeGreaterThan(0);
      expect(handshakes(inHub, HUB_IFACE).get(shown.publicKey)).toBeGreaterThan(0);
      expect(handshakes(inNs, IFACE).get(hubShown.publicKey)).toBeGreaterThan(0);
      expect(handshakes(inNs, IFACE).has(deviceState.publicKey)).toBe(false);
      say(
        `mesh saved in ${meshAnswered - meshSaved} ms; the hub and the site gateway peered ${meshMs} ms after; ` +
          `the restarted device reached port 8080 through the hub ${throughHubMs} ms after its start, port 9090 ` +
          'refused by the site (ECONNREFUSED)',
      );
      // Each end of the mesh tunnel posted `tunnel_up` for the other; the hub names the user's device and user.
      await connectionEvent(
        "the site's tunnel_up to the hub",
        `gatewayId=${gatewayId}&action=tunnel_up`,
        (event) => event.peer === hubShown.publicKey && event.device === null,
        meshDeviceLog,
      );
      await connectionEvent(
        "the hub's tunnel_up to the site",
        `gatewayId=${hubId}&action=tunnel_up`,
        (event) => event.peer === shown.publicKey,
        meshDeviceLog,
      );
      const atHub = await connectionEvent(
        "the hub's connected event of the user's device",
        `gatewayId=${hubId}&action=connected`,
        (event) => event.peer === deviceState.publicKey,
        meshDeviceLog,
      );
      expect(atHub.user?.id).toBe(user.id);
      say('tunnel_up at both ends of the mesh tunnel, the device connected at the hub, listed');
      expect(await stopChild(hubAgent.child), meshLog()).toBe(0);
      expect(inHub('ip', 'link', 'show', 'dev', HUB_IFACE).status).not.toBe(0);

      // SIGTERM: the device takes its interface down (wireguard-go goes with it).
      expect(await stopChild(meshDevice.child), meshDeviceLog()).toBe(0);
      expect(inDev('ip', 'link', 'show', 'dev', USER_IFACE).status).not.toBe(0);

      // SIGTERM: the agent tears down what it brought up.
      expect(await stopChild(agent.child), agentLog()).toBe(0);
      expect(inNs('ip', 'link', 'show', 'dev', IFACE).status).not.toBe(0);
      expect(ruleset()).not.toContain('table inet palisade');
      expect(ruleset()).not.toContain('palisade_nat');
      expect(ruleset()).not.toContain('palisade_ztna');
      expect(inNs('cat', '/proc/sys/net/ipv4/ip_forward').stdout.trim()).toBe(forwardingBefore);
      // Nothing of the agent's is left running in the namespace (wireguard-go exits once its interface is gone).
      const others = () =>
        sh('ip', ['netns', 'pids', NS])
          .stdout.split('\n')
          .filter(Boolean)
          .map(Number)
          .filter((pid) => pid !== server.child.pid)
          .map((pid) => `${pid}: ${sh('cat', [`/proc/${pid}/cmdline`]).stdout.replaceAll('\0', ' ')}`)
          // The server's own children (tsx's esbuild service) stay with it.
          .filter((line) => /unbound|wireguard-go|apps\/gateway/.test(line));
      await until(
        "the agent's processes gone",
        5_000,
        () => (others().length === 0 ? true : undefined),
        () => others().join('\n'),
      );
    },
    360_000,
  );
});
