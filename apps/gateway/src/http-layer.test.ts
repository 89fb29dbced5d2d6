/**
 * The HTTP layer in the traffic path, for real (root, `ip netns`, squid-openssl, nft, openssl, curl), in three
 * network namespaces:
 *   - the gateway's: squid under the gateway's supervision (squid-daemon.ts HttpLayer, driven by a small script
 *     in the namespace) with the include gateway-config's squidAcl makes, and the steering table; its "tunnel"
 *     interface is a veth (the steering matches the interface by name, WireGuard adds nothing here);
 *   - a client's, behind that interface (10.64.x.2, the gateway 10.64.x.1 its default route);
 *   - the internet's: a real HTTP server on port 80 and a real HTTPS server (self-signed) on port 443.
 * Proves: a URL rule and a file-extension rule block plain HTTP with a 302 to the console's
 * `/blockaccess/<type>/<rule>` (tenant, host, URL and client in the query) while other paths answer 200; a domain
 * rule terminates HTTPS by the TLS server name while another name answers 200 (no decryption: the client sees
 * the server's own certificate); plain HTTP to the gateway's own address (a DNS block's answer) gets the 302 to
 * `/blockaccess/site`; the access log names each decision with its rule (squidDecisionOf); a new include is
 * checked, then loaded with a reconfigure that keeps a running download while the next request meets the new
 * rule; a broken include is refused and the running squid keeps enforcing; stop removes the steering and squid.
 * Missing anything: "SKIPPED: <why>" (counted as skipped); with CI=true it fails instead.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { squidAcl, squidDecisionOf } from '@palisade/gateway-config';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { afterAll, expect } from 'vitest';
import { TOOL_ENV } from './exec';
import { needsTest } from './test-kit';

const ROOT = resolve(import.meta.dirname, '../../..');
const id = randomBytes(3).toString('hex');
const GW = `phl${id}`;
const CLIENT = `phl${id}c`;
const NET = `phl${id}i`;
/** The tunnel-like interface of the gateway and its peer in the client's namespace; the internet link. */
const TUN = `phl${id}t`;
const TUN_PEER = `phl${id}p`;
const UP = `phl${id}u`;
const UP_PEER = `phl${id}v`;
const octet = randomBytes(1)[0];
const GW_ADDRESS = `10.64.${octet}.1`;
const CLIENT_ADDRESS = `10.64.${octet}.2`;
const GW_UP = `198.51.100.1`;
const SERVER = `198.51.100.2`;
const CONSOLE = 'https://console.test';
const TENANT = 't-1';
const dir = mkdtempSync(join(tmpdir(), 'pgw-http-'));
// squid drops to its own user: the gateway's directory must be reachable through this one (as /var/lib is).
chmodSync(dir, 0o711);
const namespaces: string[] = [];
const children: ChildProcess[] = [];

const sh = (cmd: string, args: string[], input?: string) => {
  const r = spawnSync(cmd, args, { env: TOOL_ENV, encoding: 'utf8', timeout: 30_000, input });
  return { status: r.status, stdout: r.stdout ?? '', output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
};
const inNs =
  (ns: string) =>
  (cmd: string, ...args: string[]) =>
    sh('ip', ['netns', 'exec', ns, cmd, ...args]);
const must = <T extends { status: number | null; output: string }>(r: T, what: string): T => {
  if (r.status !== 0) throw new Error(`${what}: ${r.output}`);
  return r;
};
const say = (line: string) => process.stdout.write(`http layer: ${line}\n`);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const ns of namespaces) {
    for (const pid of sh('ip', ['netns', 'pids', ns]).stdout.split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {}
    }
    sh('ip', ['netns', 'del', ns]);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The rules of the test: what squid enforces, as the console's bundle would carry them. */
const include = (extra: ReturnType<typeof makeRule>[] = []) =>
  squidAcl(
    makeInput([
      makePolicy('web', [
        ...extra,
        makeRule('url', 'plain.test/blocked', 'block', { id: 'rule-url' }),
        makeRule('SQUID_FILEEXT', 'exe', 'block', { id: 'rule-ext' }),
        makeRule('SQUID_DMN', 'tls-blocked.test', 'block', { id: 'rule-tls' }),
      ]),
    ]),
    { blockPage: { publicUrl: CONSOLE, tenantId: TENANT } },
  ).text;

/** The gateway's side: HttpLayer in its namespace, driven over stdin (`apply`, `stop`), answering on stdout. */
const DRIVER = `
import { createInterface } from 'node:readline';
import { HttpLayer } from ${JSON.stringify(join(ROOT, 'apps/gateway/src/squid-daemon.ts'))};
const [dir, include, iface, address, hosts] = process.argv.slice(2);
const layer = new HttpLayer({ dir, interfaceName: iface, hostsFile: hosts, dnsServers: ['127.0.0.1'], log: (l) => process.stderr.write(l + '\\n') });
const say = (l) => process.stdout.write(l + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const started = performance.now();
  try {
    if (line === 'apply') { await layer.apply(include, [address + '/24']); say('applied ' + Math.round(performance.now() - started) + ' ' + layer.squid.pid); }
    if (line === 'stop') { await layer.stop(); say('stopped'); process.exit(0); }
  } catch (error) { say('failed ' + String(error.message).replace(/\\n/g, ' ')); }
}
`;

/** The internet: plain HTTP (with a slow download) on 80 and HTTPS on 443. */
const SERVERS = (cert: string, key: string) => `
const http = require('node:http');
const https = require('node:https');
const fs = require('node:fs');
const answer = (q, s) => {
  if (q.url === '/slow') {
    s.writeHead(200, { 'content-type': 'text/plain' });
    let n = 0;
    const t = setInterval(() => { s.write('chunk' + n + '\\n'); if (++n === 6) { clearInterval(t); s.end('done\\n'); } }, 400);
    return;
  }
  s.end('hello ' + q.headers.host + q.url);
};
http.createServer(answer).listen(80, '${SERVER}');
https.createServer({ cert: fs.readFileSync('${cert}'), key: fs.readFileSync('${key}') }, answer).listen(443, '${SERVER}', () => process.stdout.write('listening\\n'));
`;

needsTest(
  'squid in the traffic path: URL and file-extension blocks over HTTP, a domain block over HTTPS by SNI, block page',
  ['root', 'netns', 'ip', 'nft', 'squid', 'openssl', 'curl'],
  async () => {
    for (const ns of [GW, CLIENT, NET]) {
      must(sh('ip', ['netns', 'add', ns]), `netns ${ns}`);
      namespaces.push(ns);
      must(inNs(ns)('ip', 'link', 'set', 'lo', 'up'), 'lo');
    }
    const gw = inNs(GW);
    const client = inNs(CLIENT);
    const net = inNs(NET);
    must(
      gw('ip', 'link', 'add', TUN, 'type', 'veth', 'peer', 'name', TUN_PEER, 'netns', CLIENT),
      'tunnel veth',
    );
    must(gw('ip', 'link', 'add', UP, 'type', 'veth', 'peer', 'name', UP_PEER, 'netns', NET), 'internet veth');
    must(gw('ip', 'address', 'add', `${GW_ADDRESS}/24`, 'dev', TUN), 'gw address');
    must(gw('ip', 'address', 'add', `${GW_UP}/24`, 'dev', UP), 'gw uplink');
    must(gw('ip', 'link', 'set', TUN, 'up'), 'tun up');
    must(gw('ip', 'link', 'set', UP, 'up'), 'up up');
    must(client('ip', 'address', 'add', `${CLIENT_ADDRESS}/24`, 'dev', TUN_PEER), 'client address');
    must(client('ip', 'link', 'set', TUN_PEER, 'up'), 'client up');
    must(client('ip', 'route', 'add', 'default', 'via', GW_ADDRESS), 'client route');
    must(net('ip', 'address', 'add', `${SERVER}/24`, 'dev', UP_PEER), 'server address');
    must(net('ip', 'link', 'set', UP_PEER, 'up'), 'server up');

    // The internet's servers, their certificate self-signed for both test names.
    const cert = join(dir, 'server.pem');
    const key = join(dir, 'server.key');
    must(
      sh('openssl', [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tls-ok.test'],
        ...['-addext', 'subjectAltName=DNS:tls-ok.test,DNS:tls-blocked.test', '-keyout', key, '-out', cert],
      ]),
      'server certificate',
    );
    const servers = spawn('ip', ['netns', 'exec', NET, process.execPath, '-e', SERVERS(cert, key)], {
      env: TOOL_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(servers);
    await new Promise<void>((ok, fail) => {
      servers.stdout?.on('data', (d) => String(d).includes('listening') && ok());
      servers.once('exit', (code) => fail(new Error(`servers exited ${code}`)));
    });

    // The gateway: its directory (0700, as the agent makes it), the bundle's include, squid's hosts file.
    const state = join(dir, 'gateway');
    sh('mkdir', ['-m', '700', state]);
    const includePath = join(state, 'squid.conf');
    writeFileSync(includePath, include());
    const hosts = join(dir, 'hosts');
    writeFileSync(
      hosts,
      `${SERVER} plain.test tls-ok.test tls-blocked.test\n${GW_ADDRESS} dns-blocked.test\n`,
    );
    const driverPath = join(dir, 'driver.mts');
    writeFileSync(driverPath, DRIVER);
    const driver = spawn(
      'ip',
      [
        'netns',
        'exec',
        GW,
        process.execPath,
        '--import',
        'tsx',
        driverPath,
        state,
        includePath,
        TUN,
        GW_ADDRESS,
        hosts,
      ],
      { cwd: ROOT, env: TOOL_ENV, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    children.push(driver);
    let driverLog = '';
    driver.stderr?.on('data', (d) => (driverLog += d));
    const answers: string[] = [];
    let pending: ((line: string) => void) | null = null;
    let partial = '';
    driver.stdout?.on('data', (d) => {
      const lines = `${partial}${d}`.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) {
        if (pending) {
          const p = pending;
          pending = null;
          p(l);
        } else answers.push(l);
      }
    });
    const command = (line: string) =>
      new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`driver: no answer to ${line}: ${driverLog}`)), 30_000);
        pending = (answer) => {
          clearTimeout(timer);
          ok(answer);
        };
        driver.stdin?.write(`${line}\n`);
      });

    const first = await command('apply');
    expect(first, driverLog).toMatch(/^applied \d+ \d+$/);
    const squidPid = Number(first.split(' ')[2]);
    say(`squid started and steering loaded in ${first.split(' ')[1]} ms`);
    expect(gw('nft', 'list', 'table', 'ip', 'palisade_steer').output).toContain(`redirect to :3128`);

    /** curl from the client: `<code> <redirect>` (code 000 when the connection failed), with curl's exit. */
    const curl = (url: string, ...extra: string[]) => {
      const r = client(
        'curl',
        ...['-sS', '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', '--noproxy', '*'],
        ...['--connect-timeout', '3', '-m', '8', ...extra, url],
      );
      return {
        exit: r.status,
        code: r.stdout.split(' ')[0],
        location: r.stdout.split(' ')[1] ?? '',
        out: r.output,
      };
    };
    const resolveTo = (host: string, port: number) => ['--resolve', `${host}:${port}:${SERVER}`];
    const query = (location: string) => Object.fromEntries(new URL(location).searchParams);

    // Plain HTTP: the URL rule and the file-extension rule redirect to the block page; other paths pass.
    const url = curl('http://plain.test/blocked/page?x=1', ...resolveTo('plain.test', 80));
    expect(url.code, url.out).toBe('302');
    expect(url.location.startsWith(`${CONSOLE}/blockaccess/url/rule-url?`), url.location).toBe(true);
    expect(query(url.location)).toMatchObject({ tenant: TENANT, host: 'plain.test', client: CLIENT_ADDRESS });
    expect(query(url.location).url).toContain('http://plain.test/blocked/page');
    const ext = curl('http://plain.test/files/Setup.EXE', ...resolveTo('plain.test', 80));
    expect(ext.code, ext.out).toBe('302');
    expect(ext.location.startsWith(`${CONSOLE}/blockaccess/fileext/rule-ext?`), ext.location).toBe(true);
    const fine = client(
      'curl',
      '-sS',
      '--noproxy',
      '*',
      '-m',
      '8',
      ...resolveTo('plain.test', 80),
      'http://plain.test/fine',
    );
    expect(fine.stdout, fine.output).toBe('hello plain.test/fine');

    // HTTPS by the TLS server name, never decrypted: the blocked name is terminated, the other answers with the
    // server's own certificate (the one the test made, checked with --cacert, not -k).
    const blocked = curl(
      'https://tls-blocked.test/',
      '--cacert',
      cert,
      ...resolveTo('tls-blocked.test', 443),
    );
    expect(blocked.code, blocked.out).toBe('000');
    expect(blocked.exit, blocked.out).not.toBe(0);
    const ok = client(
      'curl',
      ...['-sS', '--noproxy', '*', '-m', '8', '--cacert', cert, ...resolveTo('tls-ok.test', 443)],
      'https://tls-ok.test/path',
    );
    expect(ok.stdout, ok.output).toBe('hello tls-ok.test/path');

    // A DNS block with the block page answers the gateway's own address: plain HTTP there → /blockaccess/site.
    const page = curl(`http://${GW_ADDRESS}/anything`, '-H', 'Host: dns-blocked.test');
    expect(page.code, page.out).toBe('302');
    expect(page.location.startsWith(`${CONSOLE}/blockaccess/site?`), page.location).toBe(true);
    expect(query(page.location)).toMatchObject({
      tenant: TENANT,
      host: 'dns-blocked.test',
      client: CLIENT_ADDRESS,
    });

    // The access log: each decision with its rule, the client's tunnel address and the host.
    const accessLog = join(state, 'squid', 'access.log');
    await waitFor(
      () => existsSync(accessLog) && readFileSync(accessLog, 'utf8').includes('block:rule-ext'),
      5000,
    );
    const decisions = readFileSync(accessLog, 'utf8')
      .split('\n')
      .map(squidDecisionOf)
      .filter((d) => d !== null);
    const byRule = (ruleId: string) => decisions.find((d) => d.ruleId === ruleId);
    expect(byRule('rule-url'), JSON.stringify(decisions)).toMatchObject({
      action: 'block',
      client: CLIENT_ADDRESS,
      host: 'plain.test',
      status: 302,
    });
    expect(byRule('rule-ext')).toMatchObject({ action: 'block', host: 'plain.test' });
    expect(decisions.find((d) => d.url.endsWith('/fine'))).toMatchObject({
      action: 'allow',
      status: 200,
      ruleId: null,
    });
    say(
      `decisions: ${JSON.stringify(decisions.map((d) => [d.method, d.host, d.status, d.action, d.ruleId]))}`,
    );
    // HTTPS: the terminated connection names its rule and the server name; the spliced one is one allow.
    expect(byRule('rule-tls')).toMatchObject({
      action: 'block',
      host: 'tls-blocked.test',
      method: 'CONNECT',
    });
    expect(decisions.filter((d) => d.host === 'tls-ok.test')).toEqual([
      expect.objectContaining({ action: 'allow', status: 200, ruleId: null, client: CLIENT_ADDRESS }),
    ]);
    // One decision per request the client made, and nothing it did not do (squid's own port checks).
    expect(decisions, JSON.stringify(decisions)).toHaveLength(5);
    // The block page's answers are the resolver's decisions, not squid's.
    expect(decisions.some((d) => d.host === 'dns-blocked.test')).toBe(false);
    say(
      `access log: ${decisions.length} decisions, ${decisions.filter((d) => d.action === 'block').length} blocks`,
    );

    // A new bundle: a reconfigure keeps the running download and the next request meets the new rule.
    const download = spawn(
      'ip',
      [
        'netns',
        'exec',
        CLIENT,
        'curl',
        '-sS',
        '--noproxy',
        '*',
        '-m',
        '15',
        ...resolveTo('plain.test', 80),
        'http://plain.test/slow',
      ],
      { env: TOOL_ENV, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(download);
    let body = '';
    download.stdout?.on('data', (d) => (body += d));
    const downloaded = new Promise<number | null>((ok) => download.once('exit', ok));
    await waitFor(() => body.includes('chunk0'), 5000);
    writeFileSync(includePath, include([makeRule('url', 'plain.test/fine', 'block', { id: 'rule-new' })]));
    const changed = performance.now();
    const second = await command('apply');
    expect(second, driverLog).toMatch(/^applied \d+ \d+$/);
    expect(Number(second.split(' ')[2])).toBe(squidPid);
    const now = curl('http://plain.test/fine', ...resolveTo('plain.test', 80));
    const enforcedMs = Math.round(performance.now() - changed);
    expect(now.code, now.out).toBe('302');
    expect(now.location).toContain('/blockaccess/url/rule-new?');
    say(
      `a changed include enforced ${enforcedMs} ms after it was written (reconfigure ${second.split(' ')[1]} ms)`,
    );
    expect(await downloaded).toBe(0);
    expect(body).toContain('chunk5\ndone\n');

    // A broken include is refused; the running squid keeps the last good rules.
    writeFileSync(includePath, 'acl broken nosuchtype x\nhttp_access deny broken\n');
    const refused = await command('apply');
    expect(refused).toMatch(/^failed squid: the configuration does not parse/);
    expect(curl('http://plain.test/fine', ...resolveTo('plain.test', 80)).code).toBe('302');
    expect(curl('http://plain.test/other', ...resolveTo('plain.test', 80)).code).toBe('200');

    // squid killed with SIGKILL (its shared memory left behind): the next apply starts a new one, which enforces.
    process.kill(squidPid, 'SIGKILL');
    await waitFor(
      () =>
        !existsSync(`/proc/${squidPid}`) || readFileSync(`/proc/${squidPid}/stat`, 'utf8').includes(') Z'),
      5000,
    );
    writeFileSync(includePath, include());
    const restarted = await command('apply');
    expect(restarted, driverLog).toMatch(/^applied \d+ \d+$/);
    const newPid = Number(restarted.split(' ')[2]);
    expect(newPid).not.toBe(squidPid);
    say(`squid killed with SIGKILL: restarted by the next apply in ${restarted.split(' ')[1]} ms`);
    expect(curl('http://plain.test/blocked/x', ...resolveTo('plain.test', 80)).code).toBe('302');
    expect(curl('http://plain.test/fine', ...resolveTo('plain.test', 80)).code).toBe('200');

    // Stop: the steering table and squid are gone.
    expect(await command('stop')).toBe('stopped');
    expect(gw('nft', 'list', 'table', 'ip', 'palisade_steer').status).not.toBe(0);
    expect(existsSync(`/proc/${newPid}`)).toBe(false);
    expect(existsSync(join(state, 'squid.pid'))).toBe(false);
  },
  90_000,
);

async function waitFor(ok: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
