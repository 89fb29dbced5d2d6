/**
 * The data plane, for real (root, `ip netns`, /dev/net/tun and the tools of scripts/net-tools.sh): in a fresh
 * network namespace, the real server (spawned with PGlite and the demo data) and the reference gateway with
 * --apply. Proves: the WireGuard interface is up with the address and port the server assigned; a network-layer
 * block of an address reaches the nftables set within a second; a DNS-layer block makes Unbound answer NXDOMAIN
 * within a second while a locally known name still resolves, and removing it restores the answer; SIGTERM tears
 * it all down. The test reaches the server through a veth pair (198.18.0.0/15, benchmarking addresses).
 * Missing anything: "SKIPPED: <why>" (counted as skipped); with CI=true it fails instead.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { TOOL_ENV } from './exec';
import { hasCommand, needsTest } from './test-kit';

const ROOT = resolve(import.meta.dirname, '../../..');
const id = randomBytes(3).toString('hex');
const NS = `pgw${id}`;
const IFACE = `pgw${id}w`;
const HOST_VETH = `pgw${id}h`;
const NS_VETH = `pgw${id}n`;
const SUBNET = `198.18.${randomBytes(1)[0]}.${(randomBytes(1)[0] & 63) * 4}`;
const hostAddress = SUBNET.replace(/\d+$/, (n) => String(Number(n) + 1));
const nsAddress = SUBNET.replace(/\d+$/, (n) => String(Number(n) + 2));
const PASSWORD = `Dp-${randomBytes(12).toString('base64url')}`;
const dir = mkdtempSync(join(tmpdir(), 'pgw-dp-'));
const children: ChildProcess[] = [];
let namespaceMade = false;

const sh = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { env: TOOL_ENV, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? '', output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};
const inNs = (cmd: string, ...args: string[]) => sh('ip', ['netns', 'exec', NS, cmd, ...args]);
const must = <T extends { status: number | null; output: string }>(r: T, what: string): T => {
  if (r.status !== 0) throw new Error(`${what}: ${r.output}`);
  return r;
};

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
  if (namespaceMade) {
    // Anything still running in the namespace (an orphaned unbound or wireguard-go) goes with it.
    for (const pid of sh('ip', ['netns', 'pids', NS]).stdout.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {}
    }
    inNs('ip', 'link', 'del', IFACE);
    sh('ip', ['netns', 'del', NS]);
  }
  sh('ip', ['link', 'del', HOST_VETH]);
  rmSync(`/var/run/wireguard/${IFACE}.sock`, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

function spawnInNs(args: string[], env: NodeJS.ProcessEnv, name: string) {
  const child = spawn('ip', ['netns', 'exec', NS, ...args], {
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

/** An A query to Unbound in the namespace: the addresses, or the status (NXDOMAIN, SERVFAIL…). */
function query(server: string, name: string): string {
  if (hasCommand('dig')) {
    const r = inNs('dig', `@${server}`, '-p', '53', '+tries=1', '+time=2', name, 'A');
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
try { console.log((await r.resolve4('${name}')).join(',')); } catch (e) { console.log(e.code === 'ENOTFOUND' ? 'NXDOMAIN' : e.code); }`;
  return inNs(process.execPath, '--input-type=module', '-e', script).stdout.trim();
}

describe('the data plane in a network namespace', () => {
  needsTest(
    'wireguard-go, nftables and Unbound follow the administrator within a second',
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
      must(sh('ip', ['netns', 'add', NS]), 'ip netns add');
      namespaceMade = true;
      must(inNs('ip', 'link', 'set', 'lo', 'up'), 'lo up');
      must(
        sh('ip', ['link', 'add', HOST_VETH, 'type', 'veth', 'peer', 'name', NS_VETH, 'netns', NS]),
        'veth',
      );
      must(sh('ip', ['address', 'add', `${hostAddress}/30`, 'dev', HOST_VETH]), 'host address');
      must(sh('ip', ['link', 'set', HOST_VETH, 'up']), 'host veth up');
      must(inNs('ip', 'address', 'add', `${nsAddress}/30`, 'dev', NS_VETH), 'namespace address');
      must(inNs('ip', 'link', 'set', NS_VETH, 'up'), 'namespace veth up');

      // The real server, inside the namespace (its port 8080 and Unbound's 53 are the namespace's own).
      const { LOG_LEVEL: _, CI: __, ...base } = TOOL_ENV;
      const server = spawnInNs(
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
      console.info(`data plane: server up in ${Date.now() - started} ms`);
      const signIn = await fetch(`${api}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@acme.example', password: PASSWORD }),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const session = ((await signIn.json()) as { sessid: string }).sessid;
      const call = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`${api}${path}`, {
          method,
          headers: { 'x-auth-token': session, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await r.text();
        if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
        return JSON.parse(text);
      };

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
      const agent = spawnInNs(
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
          'dataplane.lab',
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

      // WireGuard: up, with the address, port and key the server knows.
      const shown = await until('online', 10_000, async () => {
        const g = await call('GET', `/cybernodes/acme/${gatewayId}`);
        return g.status === 'online' && g.enforcedVersion === g.currentVersion ? g : undefined;
      });
      const tunnel = String(shown.address).split('/')[0];
      const [iface] = must(inNs('wg', 'show', IFACE, 'dump'), 'wg show')
        .stdout.trim()
        .split('\n');
      const [, publicKey, listenPort] = iface.split('\t');
      expect(publicKey).toBe(shown.publicKey);
      expect(Number(listenPort)).toBe(shown.listenPort);
      const link = JSON.parse(
        must(inNs('ip', '-j', 'address', 'show', 'dev', IFACE), 'ip address').stdout,
      )[0];
      expect(link.flags).toContain('UP');
      expect(
        link.addr_info.map((a: { local: string; prefixlen: number }) => `${a.local}/${a.prefixlen}`),
      ).toContain(shown.address);

      // nftables: a network-layer block of an address, in the set within a second.
      const ruleset = () => inNs('nft', 'list', 'ruleset').stdout;
      expect(ruleset()).toContain('table inet palisade');
      expect(ruleset()).not.toContain('203.0.113.77');
      const netSaved = Date.now();
      const netPolicy = await call('POST', '/policy/acme', {
        type: 'other',
        name: `Block address ${id}`,
        rules: [{ name: 'Block one address', type: 'ROUTE', action: 'block', url: '203.0.113.77' }],
      });
      const netAnswered = Date.now();
      await until(
        'the address in the nftables set',
        1_000,
        () => (ruleset().includes('203.0.113.77') ? true : undefined),
        agentLog,
      );
      const netMs = Date.now() - netAnswered;
      // Replaced, not duplicated.
      expect(ruleset().match(/table inet palisade/g)).toHaveLength(1);

      // Unbound: both names resolve; a DNS-layer block answers NXDOMAIN within a second; removing it restores.
      expect(query(tunnel, 'ok.palisade.example')).toBe('192.0.2.10');
      expect(query(tunnel, 'blocked.palisade.example')).toBe('192.0.2.11');
      const dnsSaved = Date.now();
      const dnsPolicy = await call('POST', '/policy/acme', {
        type: 'other',
        name: `Block domain ${id}`,
        rules: [{ name: 'Block one domain', type: 'dmn', action: 'block', url: 'blocked.palisade.example' }],
      });
      const dnsAnswered = Date.now();
      await until(
        'NXDOMAIN',
        1_000,
        () => (query(tunnel, 'blocked.palisade.example') === 'NXDOMAIN' ? true : undefined),
        agentLog,
      );
      const dnsMs = Date.now() - dnsAnswered;
      expect(query('127.0.0.1', 'blocked.palisade.example')).toBe('NXDOMAIN');
      expect(query(tunnel, 'ok.palisade.example')).toBe('192.0.2.10');
      await call('DELETE', '/policy/acme', { ids: [dnsPolicy.policy.id] });
      const removed = Date.now();
      await until(
        'the answer back',
        1_000,
        () => (query(tunnel, 'blocked.palisade.example') === '192.0.2.11' ? true : undefined),
        agentLog,
      );
      const restoreMs = Date.now() - removed;
      console.info(
        `data plane: saves took ${netAnswered - netSaved} / ${dnsAnswered - dnsSaved} ms; after the save answered: ` +
          `nftables set ${netMs} ms, NXDOMAIN ${dnsMs} ms, answer restored ${restoreMs} ms after the delete`,
      );
      await call('DELETE', '/policy/acme', { ids: [netPolicy.policy.id] });

      // SIGTERM: the agent tears down what it brought up.
      expect(await stopChild(agent.child), agentLog()).toBe(0);
      expect(inNs('ip', 'link', 'show', 'dev', IFACE).status).not.toBe(0);
      expect(ruleset()).not.toContain('table inet palisade');
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
    240_000,
  );
});
