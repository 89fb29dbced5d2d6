/**
 * The site artefacts: unit tests on the text, and the real tools where they are installed — `nft -c -f` and
 * loading (twice) in a private network namespace, and the interfaces script run (twice) against veth
 * interfaces there. As in tools.test.ts, a missing tool (or not running as root, which namespaces need) skips the
 * test with a warning naming what is missing (CI=true fails instead); `bash scripts/net-tools.sh` installs nft.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SiteConfig } from '@palisade/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfigError, SITE_FLOW_MARKS, siteArtefacts } from './index';

const EMPTY: SiteConfig = {
  lans: [],
  vlans: [],
  wan: { mode: 'dhcp', ips: [], dns: [] },
  portForwards: [],
  trafficFlows: [],
};

const FULL: SiteConfig = {
  lans: [
    { id: 2, name: 'Guests', address: '192.168.20.1', prefix: 24, lanDhcp: false },
    {
      id: 1,
      name: 'Office',
      address: '192.168.1.1',
      prefix: 24,
      lanDhcp: true,
      dhcpStart: '192.168.1.100',
      dhcpEnd: '192.168.1.200',
    },
  ],
  vlans: [
    { vlanId: 20, name: 'Cameras', lanId: 2, address: '10.20.0.1', prefix: 24 },
    { vlanId: 10, name: 'Voice', lanId: 1, address: '10.10.0.1', prefix: 16 },
  ],
  wan: {
    mode: 'static',
    ips: [{ address: '203.0.113.10', prefix: 28 }],
    gateway: '203.0.113.1',
    dns: ['9.9.9.9', '1.1.1.1'],
  },
  portForwards: [
    {
      name: 'Web',
      protocol: 'tcp',
      ports: '443,80, 8000-8080,8080-8090',
      ip: '192.168.1.10',
      toPort: 8443,
      source: 'any',
    },
    { name: 'VoIP', protocol: 'udp', ports: '5060', ip: '10.10.0.5', source: '198.51.100.7/24' },
  ],
  trafficFlows: [
    { name: 'SaaS direct', lanId: 1, via: 'wan', destination: '203.0.113.0/24' },
    { name: 'Rest via cybernode', lanId: 1, via: 'tunnel', destination: 'any' },
    { name: 'Guests out', lanId: 2, via: 'wan', destination: 'any' },
  ],
};

/** The rule lines (not comments, not chain headers) of one chain. */
function chain(text: string, name: string): string[] {
  const start = text.indexOf(`\tchain ${name} {`);
  expect(start, name).toBeGreaterThan(0);
  const body = text.slice(start, text.indexOf('\n\t}', start)).split('\n').slice(1);
  return body.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('type '));
}

describe('siteArtefacts: nftables', () => {
  it('replaces its own table atomically; with nothing configured only the LAN port is closed', () => {
    const { nftables, interfaces } = siteArtefacts(EMPTY, { gatewayId: 'gw-1' });
    expect(nftables).toContain(
      'table inet palisade_site {}\ndelete table inet palisade_site\ntable inet palisade_site {',
    );
    expect(nftables).toContain('# Palisade site gateway gw-1');
    expect(nftables).not.toContain('set site_nets');
    expect(chain(nftables, 'port_forwards')).toEqual([]);
    expect(chain(nftables, 'nat_out')).toEqual([]);
    expect(chain(nftables, 'input')).toEqual(['meta l4proto { tcp, udp } th dport 9630 drop']);
    expect(interfaces).toContain("# WAN: DHCP (the gateway's DHCP client configures wan0)");
    expect(interfaces).not.toContain('ip addr');
  });

  it('forwards ports with DNAT on the WAN interface only, addresses and ports canonical', () => {
    const { nftables } = siteArtefacts(FULL, { wanInterface: 'eth1' });
    expect(chain(nftables, 'port_forwards')).toEqual([
      'iifname "eth1" tcp dport { 80, 443, 8000-8090 } dnat ip to 192.168.1.10:8443 comment "forward 1 Web"',
      'iifname "eth1" ip saddr 198.51.100.0/24 udp dport 5060 dnat ip to 10.10.0.5 comment "forward 2 VoIP"',
    ]);
    expect(chain(nftables, 'nat_out')).toEqual(['oifname "eth1" ip saddr @site_nets masquerade']);
    expect(nftables).toContain('elements = { 10.10.0.0/16, 10.20.0.0/24, 192.168.1.0/24, 192.168.20.0/24 }');
    expect(chain(nftables, 'forward')).toEqual([
      'ct state established,related accept',
      'iifname "eth1" ct status dnat accept',
      'iifname "eth1" drop',
      `oifname "eth1" meta mark 0x0000${SITE_FLOW_MARKS.tunnel.toString(16)} drop`,
    ]);
  });

  it('accepts the LAN port 9630 only from the LAN and VLAN networks on their interfaces', () => {
    const { nftables } = siteArtefacts(FULL, { lanInterfaces: { 1: 'eth2', 2: 'eth3' } });
    expect(chain(nftables, 'input')).toEqual([
      'meta l4proto { tcp, udp } th dport 9630 iifname { "eth2", "eth2.10", "eth3", "eth3.20" } ip saddr @site_nets accept',
      'meta l4proto { tcp, udp } th dport 9630 drop',
    ]);
  });

  it('marks traffic flows in their order, the first match deciding', () => {
    const { nftables } = siteArtefacts(FULL, { marks: { wan: 0x10, tunnel: 0x20 } });
    expect(chain(nftables, 'flows')).toEqual([
      'iifname "lan0" ip saddr 192.168.1.0/24 ip daddr 203.0.113.0/24 meta mark set 0x00000010 accept comment "flow 1 SaaS_direct"',
      'iifname "lan0" ip saddr 192.168.1.0/24 meta mark set 0x00000020 accept comment "flow 2 Rest_via_cybernode"',
      'iifname "lan1" ip saddr 192.168.20.0/24 meta mark set 0x00000010 accept comment "flow 3 Guests_out"',
    ]);
    expect(nftables).toContain('oifname "wan0" meta mark 0x00000020 drop');
  });

  it('is deterministic: the order of LAN and VLAN rows does not matter', () => {
    const shuffled = { ...FULL, lans: [...FULL.lans].reverse(), vlans: [...FULL.vlans].reverse() };
    expect(siteArtefacts(shuffled, { gatewayId: 'g' })).toEqual(siteArtefacts(FULL, { gatewayId: 'g' }));
  });

  it('keeps names out of the syntax: comments hold safe characters only', () => {
    const evil = 'x" accept\nflush ruleset #';
    const config: SiteConfig = {
      ...FULL,
      lans: FULL.lans.map((lan) => ({ ...lan, name: evil })),
      vlans: FULL.vlans.map((vlan) => ({ ...vlan, name: evil })),
      portForwards: FULL.portForwards.map((f) => ({ ...f, name: evil })),
      trafficFlows: FULL.trafficFlows.map((f) => ({ ...f, name: evil })),
    };
    const { nftables, interfaces } = siteArtefacts(config, { gatewayId: 'gw"\n1' });
    for (const text of [nftables, interfaces]) {
      expect(text).not.toContain('flush ruleset');
      expect(text).not.toContain('x"');
      for (const m of text.matchAll(/comment "([^"]*)"/g)) expect(m[1]).toMatch(/^[A-Za-z0-9._:@/+= -]*$/);
    }
    expect(nftables).toContain('comment "forward 1 x__accept_flush_ruleset__"');
  });

  it('refuses what the caller must fix', () => {
    const fails = (config: SiteConfig, options = {}) => {
      try {
        siteArtefacts(config, options);
      } catch (err) {
        expect(err).toBeInstanceOf(GatewayConfigError);
        return (err as GatewayConfigError).field;
      }
      throw new Error('did not throw');
    };
    expect(fails({ ...FULL, vlans: [{ ...FULL.vlans[0], lanId: 9 }] })).toBe('vlans[0].lanId');
    expect(fails({ ...FULL, trafficFlows: [{ ...FULL.trafficFlows[0], lanId: 9 }] })).toBe(
      'trafficFlows[0].lanId',
    );
    expect(fails({ ...FULL, portForwards: [{ ...FULL.portForwards[0], ip: '192.168.1.010' }] })).toBe(
      'portForwards[0].ip',
    );
    expect(fails({ ...FULL, portForwards: [{ ...FULL.portForwards[0], ports: '0-80' }] })).toBe(
      'portForwards[0].ports',
    );
    expect(fails(FULL, { wanInterface: 'wan0; reboot' })).toBe('wanInterface');
    expect(fails(FULL, { lanInterfaces: { 1: 'a-longer-name' } })).toBe('vlans[1].vlanId');
  });
});

describe('siteArtefacts: interfaces', () => {
  it('brings up LANs, VLANs on their LAN and the static WAN, canonically and re-runnably', () => {
    const { interfaces } = siteArtefacts(FULL);
    const commands = interfaces.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(commands).toEqual([
      'set -e',
      'ip link set dev lan0 up',
      'ip addr replace 192.168.1.1/24 dev lan0',
      'ip link set dev lan1 up',
      'ip addr replace 192.168.20.1/24 dev lan1',
      'ip link show dev lan0.10 >/dev/null 2>&1 || ip link add link lan0 name lan0.10 type vlan id 10',
      'ip link set dev lan0.10 up',
      'ip addr replace 10.10.0.1/16 dev lan0.10',
      'ip link show dev lan1.20 >/dev/null 2>&1 || ip link add link lan1 name lan1.20 type vlan id 20',
      'ip link set dev lan1.20 up',
      'ip addr replace 10.20.0.1/24 dev lan1.20',
      'ip link set dev wan0 up',
      'ip addr replace 203.0.113.10/28 dev wan0',
      'ip route replace default via 203.0.113.1 dev wan0',
    ]);
    expect(interfaces).toContain('# LAN 1 Office: 192.168.1.0/24, DHCP 192.168.1.100-192.168.1.200');
    expect(interfaces).toContain('# WAN: static 203.0.113.10/28 via 203.0.113.1, DNS 9.9.9.9 1.1.1.1');
  });
});

// ─── The real tools ────────────────────────────────────────────────────────────────────────────────────────

const PATH = `${process.env.PATH ?? ''}:/usr/local/sbin:/usr/sbin:/sbin`;
const ENV = { ...process.env, PATH, TZ: 'UTC' };
const which = (cmd: string) => PATH.split(':').some((dir) => dir !== '' && existsSync(join(dir, cmd)));
const IS_ROOT = process.getuid?.() === 0;

/** As tools.test.ts: skipped with a warning naming what is missing; with CI=true it fails instead. */
function toolTest(name: string, needs: string[], fn: () => unknown) {
  const absent = needs.filter((n) => (n === 'root' ? !IS_ROOT : !which(n)));
  const why = `missing ${absent.join(', ')} (bash scripts/net-tools.sh installs the tools; namespaces need root)`;
  if (absent.length > 0 && process.env.CI === 'true') {
    return it(name, () => {
      throw new Error(`CI=true: ${why}`);
    });
  }
  if (absent.length > 0) console.warn(`gateway-config site tools: "${name}" SKIPPED: ${why}`);
  return it.skipIf(absent.length > 0)(name, fn);
}

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { env: ENV, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout ?? '', output: `${r.stdout}${r.stderr}` };
};

let dir = '';
let netns: string | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgc-site-'));
  if (IS_ROOT && which('ip')) {
    const name = `pgc${randomBytes(3).toString('hex')}`;
    if (run('ip', ['netns', 'add', name]).status === 0) netns = name;
  }
});

afterAll(() => {
  if (netns) run('ip', ['netns', 'del', netns]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inNetns = (cmd: string, ...args: string[]) =>
  run('ip', ['netns', 'exec', netns as string, cmd, ...args]);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o644 });
  return path;
};

describe('siteArtefacts: nft and ip', () => {
  toolTest('the ruleset passes nft -c and loads twice, replacing itself', ['nft', 'ip', 'root'], () => {
    expect(netns).not.toBeNull();
    for (const [name, config] of [
      ['full', FULL],
      ['empty', EMPTY],
    ] as const) {
      const { nftables } = siteArtefacts(config, { gatewayId: 'gw-test' });
      const path = file(`${name}.nft`, nftables);
      const check = inNetns('nft', '-c', '-f', path);
      expect(check.status, check.output).toBe(0);
      for (let i = 0; i < 2; i++) {
        const applied = inNetns('nft', '-f', path);
        expect(applied.status, applied.output).toBe(0);
      }
      const listed = inNetns('nft', '-j', 'list', 'table', 'inet', 'palisade_site');
      expect(listed.status, listed.output).toBe(0);
      const rules = (JSON.parse(listed.stdout).nftables as Record<string, unknown>[]).filter(
        (i) => 'rule' in i,
      );
      // Loaded twice, present once: every rule line of the text.
      const lines = nftables
        .split('\n')
        .filter((l) => /^\t\t[^#\t]/.test(l) && !/^\t\t(type|flags|elements)\b/.test(l));
      expect(rules).toHaveLength(lines.length);
    }
  });

  toolTest(
    'the interfaces script brings up the LANs and the static WAN, and runs again',
    ['ip', 'root'],
    () => {
      expect(netns).not.toBeNull();
      for (const name of ['lan0', 'lan1', 'wan0']) {
        const made = inNetns('ip', 'link', 'add', name, 'type', 'veth', 'peer', 'name', `${name}p`);
        expect(made.status, made.output).toBe(0);
        expect(inNetns('ip', 'link', 'set', `${name}p`, 'up').status).toBe(0);
      }
      const { interfaces } = siteArtefacts({ ...FULL, vlans: [] });
      const path = file('interfaces.sh', interfaces);
      for (let i = 0; i < 2; i++) {
        const ran = inNetns('sh', path);
        expect(ran.status, ran.output).toBe(0);
      }
      const addresses = inNetns('ip', '-4', '-o', 'addr', 'show');
      expect(addresses.stdout).toMatch(/lan0\s+inet 192\.168\.1\.1\/24/);
      expect(addresses.stdout).toMatch(/lan1\s+inet 192\.168\.20\.1\/24/);
      expect(addresses.stdout).toMatch(/wan0\s+inet 203\.0\.113\.10\/28/);
      expect(inNetns('ip', 'route', 'show', 'default').stdout).toContain('default via 203.0.113.1 dev wan0');

      // With VLANs: the script is valid shell; it runs where the kernel makes VLAN links (8021q).
      const withVlans = file('interfaces-vlans.sh', siteArtefacts(FULL).interfaces);
      expect(run('sh', ['-n', withVlans]).status).toBe(0);
      const probe = inNetns(
        'ip',
        'link',
        'add',
        'link',
        'lan0',
        'name',
        'lan0.4000',
        'type',
        'vlan',
        'id',
        '4000',
      );
      if (probe.status !== 0) {
        console.warn(
          `gateway-config site tools: the VLAN links SKIPPED: this kernel makes none (${probe.output.trim()})`,
        );
        return;
      }
      const ran = inNetns('sh', withVlans);
      expect(ran.status, ran.output).toBe(0);
      expect(inNetns('ip', '-4', '-o', 'addr', 'show', 'dev', 'lan0.10').stdout).toContain('10.10.0.1/16');
    },
  );
});
