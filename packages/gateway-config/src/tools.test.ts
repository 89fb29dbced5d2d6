/**
 * The artefacts fed to the real tools (Debian's wireguard-tools, wireguard-go, nftables, bind9-utils, unbound,
 * squid; `bash scripts/net-tools.sh` installs them): wg-quick strip + wg setconf on a wireguard-go interface,
 * nft check mode and loading (twice) in a private network namespace, named-checkzone, squid -k parse; and live
 * agreement with the engine: unbound answering through the RPZ zones (one per subject, chosen by the client's
 * address with unbound's tags) and squid deciding HTTP requests, both inside a private network namespace.
 *
 * A missing tool (or not running as root, which namespaces and interfaces need) skips the test that needs it
 * with a warning naming what is missing: the runner counts it as skipped (CI=true fails on skips). Everything
 * created here has a unique name (`pgc` + random hex) and is removed in afterAll.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compile,
  decide,
  type EngineInput,
  type EngineRequest,
  normalizeHost,
} from '@palisade/policy-engine';
import { makeInput, makePolicy, makeRule } from '@palisade/policy-engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  nftablesRuleset,
  PRIVATE_KEY_PLACEHOLDER,
  rpzZone,
  type SubjectAddresses,
  squidAcl,
  wireguardConfig,
} from './index';

const PATH = `${process.env.PATH ?? ''}:/usr/local/sbin:/usr/sbin:/sbin`;
const ENV = { ...process.env, PATH, TZ: 'UTC' };
const which = (cmd: string) => PATH.split(':').some((dir) => dir !== '' && existsSync(join(dir, cmd)));
const IS_ROOT = process.getuid?.() === 0;

/**
 * A test that needs tools (commands, `root`, `tun` for /dev/net/tun). When some are missing it is skipped with
 * a warning naming them, so the runner counts it as skipped; with CI=true it fails instead (CI must run every
 * check, as scripts/summarise.mjs demands of whole passes).
 */
function toolTest(name: string, needs: string[], fn: () => unknown, timeout?: number) {
  const absent = needs.filter((n) =>
    n === 'root' ? !IS_ROOT : n === 'tun' ? !existsSync('/dev/net/tun') : !which(n),
  );
  const why = `missing ${absent.join(', ')} (bash scripts/net-tools.sh installs the tools; namespaces need root)`;
  if (absent.length > 0 && process.env.CI === 'true') {
    return it(name, () => {
      throw new Error(`CI=true: ${why}`);
    });
  }
  if (absent.length > 0) console.warn(`gateway-config tools: "${name}" SKIPPED: ${why}`);
  return it.skipIf(absent.length > 0)(name, fn, timeout);
}

function run(cmd: string, args: string[], input?: string) {
  const r = spawnSync(cmd, args, { env: ENV, input, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });
  return {
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    output: `${r.stdout}${r.stderr}`,
  };
}

const unique = () => `pgc${randomBytes(3).toString('hex')}`;
const key = () => randomBytes(32).toString('base64');

let dir = '';
/** A private network namespace for everything that binds, loads rules or makes interfaces. */
let netns: string | null = null;
const children: ChildProcess[] = [];
const links: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgc-'));
  // squid drops to its own user: it must read the configuration and write its log here.
  chmodSync(dir, 0o777);
  if (IS_ROOT && which('ip')) {
    const name = unique();
    if (run('ip', ['netns', 'add', name]).status === 0) {
      netns = name;
      run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    }
  }
});

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGTERM');
      await new Promise((resolve) => {
        const t = setTimeout(() => {
          c.kill('SIGKILL');
          resolve(null);
        }, 5000);
        c.once('exit', () => {
          clearTimeout(t);
          resolve(null);
        });
      });
    }
  }
  for (const link of links) {
    if (netns) run('ip', ['netns', 'exec', netns, 'ip', 'link', 'del', link]);
    // wireguard-go removes its socket when its device goes; a leftover one of ours is removed here.
    rmSync(`/var/run/wireguard/${link}.sock`, { force: true });
  }
  if (netns) run('ip', ['netns', 'del', netns]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inNetns = (cmd: string, ...args: string[]) => run('ip', ['netns', 'exec', netns!, cmd, ...args]);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o644 });
  return path;
};

// ---------------------------------------------------------------------------------------------------------
// A tenant with every rule type, action and condition, disabled and QoS policies, and injection attempts.

const OBJECTS: EngineInput['objects'] = {
  apps: [
    { appid: 'app1', appname: 'App One', domains: ['app1.example'], ips: ['192.0.2.0/24', 'fd00::/8'] },
    { appid: 'app2', appname: 'App Two', domains: ['*.app2.example'], ips: ['198.51.100.0/24'] },
  ],
  categories: [{ id: 'cat1', name: 'Gambling', domains: ['casino.example', 'bet.example', 'bad domain'] }],
  feeds: [
    { id: 'f1', name: 'Threats', domains: ['evil.example', 'c.evil.example'], ips: ['203.0.113.0/25', 'x'] },
  ],
  locations: [{ id: 'office', name: 'Office', networks: ['10.64.0.0/24', '127.0.1.0/30'] }],
};
const WORKDAY = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };
const NIGHTS = { days: [0, 6], from: '22:00', to: '06:00' };

function everything(): EngineInput {
  return makeInput(
    [
      makePolicy(
        'system-threat-intel',
        [
          makeRule('dmn', '', 'block', { id: 'feed-domains', feeds: ['f1'] }),
          makeRule('ROUTE', '', 'block', { id: 'feed-ips', feeds: ['f1'] }),
        ],
        { precedence: -2_000_000, system: true },
      ),
      makePolicy(
        'staff',
        [
          makeRule('dmn', 'ok.bet.example', 'allow', { id: 'allow-sub' }),
          makeRule('DNS_REWRITE', 'intranet.corp', 'rewrite', { id: 'intranet', target: '10.0.0.5' }),
          makeRule('url', 'shop.example/download', 'block', { id: 'no-downloads' }),
          makeRule('ROUTE', '192.168.0.0/16', 'route', { id: 'branch', target: 'gw1' }),
          makeRule('SQUID_DMN', 'news.example', 'block', { id: 'news-at-office', locations: ['office'] }),
          makeRule('ROUTE', '*', 'allow', { id: 'ssh', ports: '22' }),
        ],
        { precedence: 10, appliesTo: { users: ['u1'], groups: ['g1'], devices: ['d9'] } },
      ),
      makePolicy(
        'all',
        [
          // A deep exception under a blocked domain: `x.y.tracker.example` is listed, `y.tracker.example` is not.
          makeRule('dmn', 'x.y.tracker.example', 'allow', { id: 'deep-allow' }),
          makeRule('dmn', 'ads.example; *.tracker.example; evil.com\n@ IN A 1.2.3.4; "; drop', 'block', {
            id: 'ads',
          }),
          makeRule('dmn', '', 'block', { id: 'gambling', categories: ['cat1'] }),
          makeRule('app', 'app2', 'block', { id: 'app2' }),
          makeRule('app', 'app1', 'route', { id: 'app1', target: 'gw2', ports: '443' }),
          makeRule('DNS_REWRITE', 'search.example', 'rewrite', {
            id: 'safe-search',
            target: 'safe.search.example',
          }),
          makeRule('DNS_REWRITE', 'bet.example', 'rewrite', { id: 'bet', target: '10.1.2.3' }),
          makeRule('SQUID_KEYWORD', 'casino; "; drop; a.b', 'block', { id: 'keywords' }),
          makeRule('SQUID_FILEEXT', 'exe; .MSI; tar.gz', 'block', { id: 'exe', schedule: WORKDAY }),
          makeRule('url', '*/public; shop.example/Cart?x=1', 'allow', { id: 'public' }),
          makeRule('SQUID_DMN', 'video.example', 'block', { id: 'video', ports: '80, 8080-8090' }),
          makeRule('GEO', 'RU; cn; XX', 'block', { id: 'geo', schedule: NIGHTS }),
          makeRule('ROUTE', '203.0.113.0/24; 198.51.100.7; 2001:db8::/32', 'block', {
            id: 'ports',
            ports: '80,443,8000-8080',
          }),
          makeRule('ROUTE', '*', 'allow', { id: 'office-any', locations: ['office'] }),
          makeRule('dmn', 'off.example', 'block', { id: 'off', enabled: false }),
        ],
        { precedence: 20 },
      ),
      makePolicy('disabled', [makeRule('ROUTE', '*', 'block'), makeRule('dmn', '*', 'block')], {
        enabled: false,
        precedence: 0,
      }),
      makePolicy('qos', [makeRule('ROUTE', '*', 'qos', { target: 'gold' })], { type: 'qos' }),
      makePolicy('system-default-geo', [makeRule('GEO', '*', 'allow', { id: 'default-geo' })], {
        precedence: 2_000_000_000,
        system: true,
      }),
    ],
    OBJECTS,
  );
}

const SUBJECTS: SubjectAddresses = {
  users: { u1: ['10.64.0.2', 'fd00::2'] },
  groups: { g1: ['10.64.1.0/24', 'fd00:1::/64'] },
  devices: { d9: ['10.64.0.9'] },
};
const RANGES: Record<string, string[]> = {
  RU: ['5.0.0.0/8', '2a00::/12'],
  CN: ['1.0.0.0/8', '36.0.0.0-36.0.255.255'],
};

// ---------------------------------------------------------------------------------------------------------

describe('WireGuard: wg-quick and wg', () => {
  const peers = [
    {
      publicKey: key(),
      allowedIps: ['10.64.0.2/32', 'fd00::2/128'],
      name: 'laptop',
      persistentKeepalive: 25,
    },
    { publicKey: key(), allowedIps: ['10.64.0.3'], endpoint: '198.51.100.7:51820' },
    {
      publicKey: key(),
      allowedIps: ['192.168.10.0/24', '10.64.0.4'],
      name: 'branch',
      endpoint: '[2001:db8::7]:51821',
    },
  ];
  const config = () =>
    wireguardConfig({
      address: ['10.64.0.1/16', 'fd00::1/64'],
      listenPort: 51999,
      peers,
      privateKeyPlaceholder: true,
    });

  toolTest('wg-quick strip reads the configuration', ['wg-quick', 'wg', 'root'], () => {
    const name = unique();
    const path = file(`${name}.conf`, config().replace(PRIVATE_KEY_PLACEHOLDER, key()));
    const r = run('wg-quick', ['strip', path]);
    expect(r.status, r.output).toBe(0);
    expect(r.stdout).toContain('ListenPort = 51999');
    expect(r.stdout).not.toContain('Address');
    expect(r.stdout.match(/^\[Peer\]/gm)).toHaveLength(3);
  });

  toolTest(
    'wg setconf loads it into a wireguard-go interface, which holds exactly the peers and addresses',
    ['wg-quick', 'wg', 'wireguard-go', 'ip', 'root', 'tun'],
    () => {
      expect(netns).not.toBeNull();
      const name = unique();
      const path = file(`${name}.conf`, config().replace(PRIVATE_KEY_PLACEHOLDER, key()));
      const stripped = run('wg-quick', ['strip', path]);
      expect(stripped.status, stripped.output).toBe(0);
      const up = inNetns('wireguard-go', name);
      links.push(name);
      expect(up.status, up.output).toBe(0);
      const set = inNetns('wg', 'setconf', name, file(`${name}.stripped`, stripped.stdout));
      expect(set.status, set.output).toBe(0);
      const dump = inNetns('wg', 'show', name, 'dump');
      expect(dump.status, dump.output).toBe(0);
      const [iface, ...rows] = dump.stdout.trim().split('\n');
      expect(iface.split('\t')[2]).toBe('51999');
      const got = rows
        .map((row) => {
          const [publicKey, , endpoint, allowed, , , , keepalive] = row.split('\t');
          return { publicKey, endpoint, allowed: allowed.split(',').sort(), keepalive };
        })
        .sort((a, b) => a.publicKey.localeCompare(b.publicKey));
      const want = peers
        .map((p) => ({
          publicKey: p.publicKey,
          endpoint: p.endpoint ?? '(none)',
          allowed: p.allowedIps
            .map((a) => (a.includes('/') ? a : `${a}/${a.includes(':') ? 128 : 32}`))
            .sort(),
          keepalive: p.persistentKeepalive ? String(p.persistentKeepalive) : 'off',
        }))
        .sort((a, b) => a.publicKey.localeCompare(b.publicKey));
      expect(got).toEqual(want);
    },
  );
});

describe('nftables: nft', () => {
  const load = (name: string, text: string, check: boolean) =>
    inNetns('nft', ...(check ? ['-c'] : []), '-f', file(name, text));

  toolTest(
    'every network rule type, verdict and condition passes nft -c and loads twice (replacing itself)',
    ['nft', 'ip', 'root'],
    () => {
      expect(netns).not.toBeNull();
      const { text } = nftablesRuleset(everything(), {
        gatewayId: 'gw-test',
        subjectAddresses: SUBJECTS,
        lookupCountryRanges: (cc) => RANGES[cc] ?? [],
        routeMarks: { gw1: 0x10, gw2: 0x20 },
        interfaces: ['wg0', 'wg1'],
      });
      for (const verb of [
        'reject',
        'meta mark set 0x00000010 accept',
        'meta hour',
        'meta day',
        'ip6 saddr',
        'th dport',
      ]) {
        expect(text).toContain(verb);
      }
      const check = load('all.nft', text, true);
      expect(check.status, check.output).toBe(0);
      for (let i = 0; i < 2; i++) {
        const applied = load('all.nft', text, false);
        expect(applied.status, applied.output).toBe(0);
      }
      const listed = inNetns('nft', '-j', 'list', 'table', 'inet', 'palisade');
      expect(listed.status, listed.output).toBe(0);
      const items = JSON.parse(listed.stdout).nftables as Record<string, { comment?: string }>[];
      const rules = items.filter((i) => 'rule' in i);
      // Loaded twice, present once: every rule line of every chain (base chains, decide, one per rule).
      let inChain = false;
      const generated = text.split('\n').filter((l) => {
        if (/^\tchain \S+ \{$/.test(l)) inChain = true;
        else if (l === '\t}') inChain = false;
        else return inChain && /^\t\t[^#\t]/.test(l) && !l.includes('type filter');
        return false;
      });
      expect(generated.length).toBeGreaterThanOrEqual(12);
      expect(rules).toHaveLength(generated.length);
      // Every rule's chain logs its decision to NFLOG group 7 (and the default accept too).
      const logs = rules.filter((r) => JSON.stringify(r).includes('"group":7'));
      expect(logs).toHaveLength(text.match(/log prefix "pal /g)?.length ?? -1);
      expect(logs.length).toBeGreaterThanOrEqual(2);
      // The drop variant loads as well.
      const drop = nftablesRuleset(everything(), { subjectAddresses: SUBJECTS, blockVerdict: 'drop' });
      expect(load('drop.nft', drop.text, false).status).toBe(0);
    },
  );

  toolTest(
    'real packets: web flows decided in prerouting before a redirect, others in forward, for the sources named',
    ['nft', 'ip', 'socat', 'ss', 'root'],
    async () => {
      expect(netns).not.toBeNull();
      const gw = netns as string;
      const client = unique();
      const server = unique();
      const made: string[] = [];
      const sh = (ns: string, ...args: string[]) => {
        const r = run('ip', ['netns', 'exec', ns, ...args]);
        expect(r.status, `${args.join(' ')}: ${r.output}`).toBe(0);
      };
      const listen = (ns: string, port: number, answer: string) => {
        const child = spawn(
          'ip',
          ['netns', 'exec', ns, 'socat', `TCP-LISTEN:${port},fork,reuseaddr`, `SYSTEM:echo ${answer}`],
          { env: ENV, stdio: 'ignore' },
        );
        children.push(child);
      };
      try {
        for (const ns of [client, server]) {
          expect(run('ip', ['netns', 'add', ns]).status).toBe(0);
          made.push(ns);
        }
        // client (10.77.1.2) — gateway (forwarding, the ruleset) — server (10.77.2.2)
        for (const [ns, n] of [
          [client, 1],
          [server, 2],
        ] as const) {
          const inside = unique();
          const outside = unique();
          sh(gw, 'ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
          sh(gw, 'ip', 'link', 'set', inside, 'netns', ns);
          sh(gw, 'ip', 'address', 'add', `10.77.${n}.1/24`, 'dev', outside);
          sh(gw, 'ip', 'link', 'set', outside, 'up');
          sh(ns, 'ip', 'link', 'set', 'lo', 'up');
          sh(ns, 'ip', 'address', 'add', `10.77.${n}.2/24`, 'dev', inside);
          sh(ns, 'ip', 'link', 'set', inside, 'up');
          sh(ns, 'ip', 'route', 'add', 'default', 'via', `10.77.${n}.1`);
          if (n === 1) links.push(outside);
        }
        const tunnel = links[links.length - 1];
        sh(gw, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
        for (const port of [443, 22, 8080]) listen(server, port, `server-${port}`);
        // What the steering table does: new tcp/443 to the gateway's local intercept port (squid's, here socat).
        listen(gw, 8443, 'intercepted');
        const steer =
          'table ip pgc_steer {}\ndelete table ip pgc_steer\ntable ip pgc_steer {\n\tchain prerouting {\n\t\ttype nat hook prerouting priority dstnat; policy accept;\n\t\ttcp dport 443 fib daddr type != local redirect to :8443\n\t}\n}\n';
        expect(load('steer.nft', steer, false).status).toBe(0);
        const listening = async (ns: string, port: number) => {
          for (let i = 0; i < 50; i++) {
            if (
              run('ip', ['netns', 'exec', ns, 'ss', '-Hltn', `sport = :${port}`]).stdout.includes(`:${port}`)
            )
              return;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          throw new Error(`nothing listens on ${port}`);
        };
        for (const port of [443, 22, 8080]) await listening(server, port);
        await listening(gw, 8443);

        const policy = makeInput([
          makePolicy(
            'staff',
            [
              makeRule('ROUTE', '10.77.2.2', 'block', { id: 'no-web', ports: '443' }),
              makeRule('ROUTE', '10.77.2.0/24', 'block', { id: 'no-ssh', ports: '22' }),
            ],
            { appliesTo: { users: ['u1'], groups: [], devices: [] } },
          ),
        ]);
        const connect = (port: number) =>
          run(
            'ip',
            ['netns', 'exec', client, 'socat', '-T', '3', 'STDIO', `TCP:10.77.2.2:${port},connect-timeout=3`],
            '',
          );
        for (const [source, blocked] of [
          ['10.77.1.2', true],
          ['10.77.1.99', false],
        ] as const) {
          const { text } = nftablesRuleset(policy, {
            subjectAddresses: { users: { u1: [source] } },
            interfaces: [tunnel],
          });
          const applied = load('live.nft', text, false);
          expect(applied.status, applied.output).toBe(0);
          const web = connect(443);
          const ssh = connect(22);
          if (blocked) {
            // Rejected in prerouting, before the redirect; tcp/22 rejected in forward.
            expect(web.status, web.output).not.toBe(0);
            expect(web.output).toMatch(/No route to host/i);
            expect(ssh.status, ssh.output).not.toBe(0);
            expect(ssh.output).toMatch(/No route to host/i);
          } else {
            // Not the policy's source: tcp/443 passes the filter and is redirected, tcp/22 forwarded.
            expect(web.stdout.trim(), web.output).toBe('intercepted');
            expect(ssh.stdout.trim(), ssh.output).toBe('server-22');
          }
          expect(connect(8080).stdout.trim()).toBe('server-8080');
        }
      } finally {
        run('ip', ['netns', 'exec', gw, 'nft', 'delete', 'table', 'ip', 'pgc_steer']);
        for (const ns of made) run('ip', ['netns', 'del', ns]);
      }
    },
    60_000,
  );

  toolTest('holds 10 000 separate addresses in one interval verdict map', ['nft', 'ip', 'root'], () => {
    expect(netns).not.toBeNull();
    const addresses = Array.from({ length: 10_000 }, (_, i) => `10.${i >> 7}.${(i & 127) * 2}.1`);
    const input = makeInput([
      makePolicy('p', [makeRule('ROUTE', addresses.join(';'), 'block', { id: 'many' })]),
    ]);
    const { text } = nftablesRuleset(input);
    expect(text.match(/^\tchain r\d+ \{$/gm)).toHaveLength(1);
    const applied = load('many.nft', text, false);
    expect(applied.status, applied.output).toBe(0);
    const map = inNetns('nft', '-j', 'list', 'map', 'inet', 'palisade', 'r0_to');
    expect(map.status, map.output).toBe(0);
    const elements = JSON.parse(map.stdout).nftables.find((i: { map?: unknown }) => i.map).map.elem;
    expect(elements).toHaveLength(10_000);
  });
});

describe('RPZ: named-checkzone and unbound', () => {
  toolTest('named-checkzone accepts the zone of every DNS rule type', ['named-checkzone'], () => {
    const { text, skipped } = rpzZone(everything(), {
      serial: 2024010101,
      subject: { userId: 'u1', groups: ['g1'] },
    });
    expect(text).toMatch(/ IN A 10\.0\.0\.5$/m);
    expect(text).toMatch(/ IN CNAME safe\.search\.example\.$/m);
    expect(text).toMatch(/ IN CNAME rpz-passthru\.$/m);
    expect(skipped.map((s) => s.item)).toContain('@ in a 1.2.3.4');
    const r = run('named-checkzone', ['-k', 'fail', 'rpz.palisade.', file('rpz.zone', text)]);
    expect(r.status, r.output).toBe(0);
    const other = rpzZone(everything(), { serial: 1, origin: 'policy.gw-1.example.', ttl: 5 });
    const o = run('named-checkzone', ['-k', 'fail', 'policy.gw-1.example.', file('other.zone', other.text)]);
    expect(o.status, o.output).toBe(0);
  });

  toolTest('holds 10 000 names', ['named-checkzone'], () => {
    const domains = Array.from({ length: 10_000 }, (_, i) => `host${i}.example${i % 7}.net`);
    const input = makeInput([makePolicy('p', [makeRule('dmn', domains.join(';'), 'block')])]);
    const { text } = rpzZone(input, { serial: 3 });
    expect(text.match(/ IN CNAME \.$/gm)).toHaveLength(20_000);
    const r = run('named-checkzone', ['-k', 'fail', 'rpz.palisade.', file('big.zone', text)]);
    expect(r.status, r.output).toBe(0);
  });

  toolTest(
    'unbound answers like decide(): one zone per subject, chosen by client address (tags)',
    ['unbound', 'unbound-checkconf', 'ip', 'root'],
    async () => {
      expect(netns).not.toBeNull();
      const input = everything();
      const compiled = compile(input);
      // Viewers: everyone (the shared zone) and three subjects, each a client address with its tag.
      const viewers: { tag: string; address: string; subject?: EngineRequest }[] = [
        { tag: 'everyone', address: '127.0.2.1' },
        { tag: 'user1', address: '127.0.2.2', subject: { userId: 'u1', groups: [] } },
        { tag: 'group1', address: '127.0.2.3', subject: { userId: 'u7', groups: ['g1'] } },
        { tag: 'stranger', address: '127.0.2.4', subject: { userId: 'u8', groups: ['g8'] } },
      ];
      const hosts = [
        'ads.example',
        'www.ads.example',
        'a.tracker.example',
        'tracker.example',
        'evil.com',
        'evil.example',
        'x.c.evil.example',
        'casino.example',
        'bet.example',
        'ok.bet.example',
        'a.ok.bet.example',
        'app1.example',
        'x.app2.example',
        'app2.example',
        'search.example',
        'www.search.example',
        'intranet.corp',
        'a.intranet.corp',
        'safe.search.example',
        'off.example',
        'fine.example',
        'drop',
        'x.y.tracker.example',
        'a.x.y.tracker.example',
        'y.tracker.example',
        'z.y.tracker.example',
      ];
      // The "internet": a root zone unbound serves to itself (no query leaves the namespace).
      const root = [
        '$ORIGIN .',
        '$TTL 60',
        '. IN SOA a.root. h.root. 1 3600 600 86400 60',
        '. IN NS a.root.',
        'a.root. IN A 127.0.0.1',
        ...hosts.map((h, i) => `${h}. IN A 192.0.2.${i + 1}`),
      ].join('\n');
      const conf = [
        'server:',
        `  interface: 127.0.0.1@5353`,
        '  do-daemonize: no',
        '  username: ""',
        '  chroot: ""',
        `  directory: "${dir}"`,
        '  pidfile: ""',
        '  use-syslog: no',
        '  logfile: ""',
        '  do-ip6: no',
        '  module-config: "respip validator iterator"',
        '  access-control: 127.0.0.0/8 allow',
        `  define-tag: "${viewers.map((v) => v.tag).join(' ')}"`,
        ...viewers.map((v) => `  access-control-tag: ${v.address}/32 "${v.tag}"`),
        'auth-zone:',
        '  name: "."',
        `  zonefile: "${file('root.zone', `${root}\n`)}"`,
        '  for-upstream: yes',
        '  for-downstream: no',
        '  fallback-enabled: no',
        ...viewers.flatMap((v) => {
          const origin = `${v.tag}.rpz.palisade.`;
          const zone = rpzZone(input, { serial: 1, origin, ...(v.subject ? { subject: v.subject } : {}) });
          return [
            'rpz:',
            `  name: "${origin}"`,
            `  zonefile: "${file(`${v.tag}.zone`, zone.text)}"`,
            `  tags: "${v.tag}"`,
          ];
        }),
      ].join('\n');
      const confPath = file('unbound.conf', `${conf}\n`);
      const checked = run('unbound-checkconf', [confPath]);
      expect(checked.status, checked.output).toBe(0);
      const unbound = spawn('ip', ['netns', 'exec', netns!, 'unbound', '-d', '-c', confPath], {
        env: ENV,
        stdio: 'pipe',
      });
      children.push(unbound);
      let log = '';
      unbound.stderr?.on('data', (d) => (log += d));
      await waitFor(
        () => log.includes('start of service'),
        15_000,
        () => log,
      );

      const queries = viewers.flatMap((v) => hosts.map((host) => ({ host, src: v.address })));
      const client = file(
        'dns-client.mjs',
        `import { promises as dns } from 'node:dns';
const out = [];
for (const q of ${JSON.stringify(queries)}) {
  const r = new dns.Resolver({ timeout: 2000, tries: 2 });
  r.setServers(['127.0.0.1:5353']);
  r.setLocalAddress(q.src);
  try { out.push((await r.resolve4(q.host)).join(',')); } catch (e) { out.push(e.code); }
}
process.stdout.write(JSON.stringify(out));
`,
      );
      const answered = inNetns(process.execPath, client);
      expect(answered.status, answered.output).toBe(0);
      const answers: string[] = JSON.parse(answered.stdout);
      const addressOf = (h: string) => `192.0.2.${hosts.indexOf(h) + 1}`;
      let blocked = 0;
      queries.forEach((q, i) => {
        const v = viewers.find((x) => x.address === q.src)!;
        const engine = decide(compiled, { host: q.host, ...(v.subject ?? {}) });
        const target = engine.rewrite === null ? null : normalizeHost(engine.rewrite.trim());
        const expected =
          engine.decision === 'block'
            ? 'ENOTFOUND'
            : target === null
              ? addressOf(q.host)
              : /^[\d.]+$/.test(target)
                ? target
                : addressOf(target);
        if (engine.decision === 'block') blocked++;
        expect(answers[i], `${v.tag} ${q.host}`).toBe(expected);
      });
      expect(blocked).toBeGreaterThan(20);
    },
  );
});

describe('squid', () => {
  const minimal = (acl: string, port: number, extra: string[] = []) =>
    [
      `http_port 127.0.0.1:${port}`,
      'acl localnet src 10.0.0.0/8 127.0.0.0/8 fd00::/8',
      'http_access deny !localnet',
      `include ${acl}`,
      'cache deny all',
      'pid_filename none',
      'access_log none',
      'pinger_enable off',
      `cache_log ${join(dir, 'cache.log')}`,
      `coredump_dir ${dir}`,
      ...extra,
    ].join('\n');

  toolTest('squid -k parse accepts the include of every HTTP rule type', ['squid'], () => {
    const { text } = squidAcl(everything(), { subjectAddresses: SUBJECTS });
    for (const type of [
      'dstdomain -n',
      'dstdom_regex -n',
      'urlpath_regex -i',
      'urlpath_regex ^',
      ' src ',
      ' port ',
      ' time ',
    ]) {
      expect(text).toContain(type);
    }
    const conf = file('squid.conf', minimal(file('acl.conf', text), 3128));
    const r = run('squid', ['-k', 'parse', '-f', conf]);
    expect(r.status, r.output).toBe(0);
    expect(r.output).not.toMatch(/WARNING|ERROR|FATAL/);
  });

  toolTest('holds 10 000 domains in one ACL', ['squid'], () => {
    const domains = Array.from({ length: 10_000 }, (_, i) => `host${i}.example${i % 7}.net`);
    const input = makeInput([makePolicy('p', [makeRule('SQUID_DMN', domains.join(';'), 'block')])]);
    const { text } = squidAcl(input);
    const conf = file('squid-big.conf', minimal(file('acl-big.conf', text), 3128));
    const r = run('squid', ['-k', 'parse', '-f', conf]);
    expect(r.status, r.output.slice(-2000)).toBe(0);
    expect(r.output).not.toMatch(/WARNING|ERROR|FATAL/);
  });

  toolTest(
    'squid decides live requests like decide() (subjects by source address, ports, locations)',
    ['squid', 'ip', 'root'],
    async () => {
      expect(netns).not.toBeNull();
      const input = everything();
      const compiled = compile(input);
      // Clients inside the namespace: their loopback source addresses are their tunnel addresses.
      const clients = [
        { src: '127.0.1.2', who: { userId: 'u1', groups: [] } },
        { src: '127.0.1.9', who: { userId: 'u5', groups: ['g1'] } },
        { src: '127.0.3.3', who: { userId: 'u6', groups: [] } },
      ];
      const subjects: SubjectAddresses = { users: { u1: ['127.0.1.2'] }, groups: { g1: ['127.0.1.9'] } };
      const { text } = squidAcl(input, { subjectAddresses: subjects });
      const urls = [
        'http://shop.example/download/x',
        'http://shop.example/Cart?x=1',
        'http://shop.example/public/download',
        'http://a.shop.example/download',
        'http://news.example/',
        'http://www.news.example/a',
        'http://video.example/',
        'http://video.example:8085/',
        'http://video.example:443/',
        'http://x.example/casino',
        'http://x.example/CASINO?q',
        'http://x.example/a.b',
        'http://x.example/axb',
        'http://x.example/setup.exe',
        'http://x.example/b.tar.gz',
        'http://x.example/f.MSI?x',
        'http://192.0.2.1/public',
        'http://fine.example/',
      ];
      const hostsFile = file(
        'hosts',
        `127.0.0.1 ${[...new Set(urls.map((u) => new URL(u).hostname))].filter((h) => !/^\d/.test(h)).join(' ')}\n`,
      );
      const conf = file(
        'squid-live.conf',
        minimal(file('acl-live.conf', text), 3129, [
          `hosts_file ${hostsFile}`,
          'dns_nameservers 127.0.0.1',
          'shutdown_lifetime 0 seconds',
        ]),
      );
      const squid = spawn('ip', ['netns', 'exec', netns!, 'squid', '-N', '-f', conf], {
        env: ENV,
        stdio: 'pipe',
      });
      children.push(squid);
      let log = '';
      squid.stderr?.on('data', (d) => (log += d));
      squid.stdout?.on('data', (d) => (log += d));
      const requests = clients.flatMap((c) => urls.map((url) => ({ url, src: c.src })));
      const client = file(
        'http-client.mjs',
        `import http from 'node:http';
import net from 'node:net';
const ready = async () => { for (let i = 0; i < 150; i++) { const ok = await new Promise((r) => { const s = net.connect(3129, '127.0.0.1', () => { s.end(); r(true); }); s.on('error', () => r(false)); }); if (ok) return; await new Promise((r) => setTimeout(r, 100)); } throw new Error('squid did not start'); };
await ready();
const out = [];
for (const q of ${JSON.stringify(requests)}) {
  out.push(await new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: 3129, path: q.url, localAddress: q.src, headers: { host: new URL(q.url).host } }, (res) => { res.resume(); resolve(String(res.headers['x-squid-error'] ?? res.statusCode)); });
    req.on('error', (e) => resolve(e.code)); req.end();
  }));
}
process.stdout.write(JSON.stringify(out));
`,
      );
      const answered = inNetns(process.execPath, client);
      expect(answered.status, `${answered.output}\n${log}`).toBe(0);
      const answers: string[] = JSON.parse(answered.stdout);
      let denied = 0;
      requests.forEach((q, i) => {
        const c = clients.find((x) => x.src === q.src)!;
        const u = new URL(q.url);
        const port = u.port ? Number(u.port) : 80;
        const engineInput = {
          ...c.who,
          host: u.hostname,
          path: `${u.pathname}${u.search}`,
          port,
          sourceIp: q.src,
          time: Date.now(),
        };
        // Only the HTTP layer: what squid decides.
        const engine = decideLayer(compiled, engineInput);
        if (engine === 'block') denied++;
        expect(answers[i].startsWith('ERR_ACCESS_DENIED'), `${q.src} ${q.url} → ${answers[i]}`).toBe(
          engine === 'block',
        );
      });
      expect(denied).toBeGreaterThan(10);
    },
  );
});

/** The HTTP layer's decision alone: the engine on the policy's HTTP rules only. */
function decideLayer(compiled: ReturnType<typeof compile>, request: EngineRequest): 'allow' | 'block' {
  const httpOnly = compile({
    objects: compiled.objects,
    policies: compiled.policies.map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      enabled: p.enabled,
      precedence: p.precedence,
      appliesTo: p.everyone ? null : { users: [...p.users], groups: [...p.groups], devices: [...p.devices] },
      rules: compiled.rules
        .filter(
          (r) =>
            r.policy.id === p.id && ['url', 'SQUID_DMN', 'SQUID_KEYWORD', 'SQUID_FILEEXT'].includes(r.type),
        )
        .map((r) => r.rule),
    })),
  });
  return decide(httpOnly, request).decision;
}

async function waitFor(ok: () => boolean, ms: number, what: () => string) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
