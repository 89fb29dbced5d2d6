/**
 * What the network-namespace tests share: namespaces and veth pairs they clean up after themselves, processes
 * spawned inside a namespace with their output kept, waiting for a condition, and the clients a device runs
 * (a DNS query, an HTTP request, a TCP connect) — each run inside a namespace with the real tools.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { TOOL_ENV } from './exec';
import { hasCommand } from './test-kit';

export const ROOT = resolve(import.meta.dirname, '../../..');

export const sh = (cmd: string, args: string[], env: NodeJS.ProcessEnv = TOOL_ENV) => {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? '', output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};

export const must = <T extends { status: number | null; output: string }>(r: T, what: string): T => {
  if (r.status !== 0) throw new Error(`${what}: ${r.output}`);
  return r;
};

export const inNsOf =
  (ns: string) =>
  (cmd: string, ...args: string[]) =>
    sh('ip', ['netns', 'exec', ns, cmd, ...args]);

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return new Promise<number | null>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done(code);
    });
    child.kill(signal);
  });
}

export async function until<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | undefined> | T | undefined,
  log = () => '',
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${log()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Namespaces, veth pairs and processes of one test, all gone after {@link Lab.cleanUp}. */
export class Lab {
  readonly children: ChildProcess[] = [];
  readonly namespaces: string[] = [];
  readonly hostLinks: string[] = [];

  addNamespace(ns: string) {
    must(sh('ip', ['netns', 'add', ns]), `ip netns add ${ns}`);
    this.namespaces.push(ns);
    must(sh('ip', ['-n', ns, 'link', 'set', 'lo', 'up']), `lo up in ${ns}`);
  }

  /** A veth pair between two namespaces (null: the test's own), each end with its addresses, up. */
  link(a: { ns: string | null; name: string; address: string | string[] }, b: typeof a) {
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
    if (a.ns === null) this.hostLinks.push(a.name);
    for (const end of [a, b]) {
      for (const address of [end.address].flat()) {
        must(sh('ip', [...at(end.ns), 'address', 'add', address, 'dev', end.name]), `address of ${end.name}`);
      }
      must(sh('ip', [...at(end.ns), 'link', 'set', end.name, 'up']), `${end.name} up`);
    }
  }

  spawnIn(ns: string, args: string[], env: NodeJS.ProcessEnv, name: string) {
    const child = spawn('ip', ['netns', 'exec', ns, ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.push(child);
    const state = { log: '' };
    const collect = (data: Buffer) => {
      state.log = `${state.log}${data}`.slice(-50_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code, signal) => collect(Buffer.from(`\n[${name} exited: ${code ?? signal}]\n`)));
    return { child, state };
  }

  async cleanUp(extra: () => void = () => {}) {
    for (const child of this.children) await stopChild(child);
    for (const ns of this.namespaces) {
      // Anything still running in a namespace (an orphaned unbound, wireguard-go) goes with it.
      for (const pid of sh('ip', ['netns', 'pids', ns]).stdout.split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {}
      }
    }
    extra();
    // Deleting a namespace takes its veth ends with it (and their peers).
    for (const ns of this.namespaces) sh('ip', ['netns', 'del', ns]);
    for (const name of this.hostLinks) sh('ip', ['link', 'del', name]);
  }
}

/** An A query from a namespace (its resolv.conf's server unless `server` is given): the addresses or the status. */
export function query(ns: string, name: string, server?: string): string {
  const r = inNsOf(ns)('dig', ...(server ? [`@${server}`] : []), '+tries=1', '+time=2', name, 'A');
  const status = /status: (\w+)/.exec(r.stdout)?.[1] ?? `dig failed: ${r.output.trim().slice(0, 200)}`;
  if (status !== 'NOERROR') return status;
  const answers = r.stdout
    .split('\n')
    .filter((line) => !line.startsWith(';'))
    .flatMap((line) => /\sIN\s+A\s+(\S+)/.exec(line)?.[1] ?? []);
  return answers.join(',') || 'NODATA';
}

/** An HTTP GET from a namespace on a new connection: the status (0 when it failed), the Location and the body. */
export function httpFrom(ns: string, url: string, extra: string[] = []) {
  if (!hasCommand('curl')) throw new Error('curl is missing');
  const r = inNsOf(ns)(
    'curl',
    '-sS',
    '--noproxy',
    '*',
    '--connect-timeout',
    '1',
    '-m',
    '3',
    '-o',
    '-',
    '-w',
    '\n%{http_code} %{redirect_url}',
    ...extra,
    url,
  );
  const lines = r.stdout.split('\n');
  const [code = '0', location = ''] = (lines.pop() ?? '').split(' ');
  return { status: r.status === 0 ? Number(code) : 0, location, body: lines.join('\n'), error: r.output };
}

/** A TCP connection from a namespace: `connected`, or the socket's error code (ECONNREFUSED, ETIMEDOUT…). */
export function tcpFrom(ns: string, host: string, port: number): string {
  const script = `const s = require('node:net').connect({ host: '${host}', port: ${port}, timeout: 1500 });
s.on('connect', () => { process.stdout.write('connected\\n'); s.destroy(); });
s.on('timeout', () => { process.stdout.write('ETIMEDOUT\\n'); s.destroy(); });
s.on('error', (e) => process.stdout.write(e.code + '\\n'));`;
  return inNsOf(ns)(process.execPath, '-e', script).stdout.trim();
}
