import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TOOL_ENV } from './exec';
import {
  canonicalNetwork,
  NAT_TABLE,
  natRuleset,
  outermostV4,
  peerAllowedIps,
  routeDiff,
  wantedRoutes,
} from './forwarding';
import { hasCommand } from './test-kit';

const KEY_A = `${'A'.repeat(42)}A=`;
const KEY_B = `${'B'.repeat(42)}A=`;

const bundleConfig = [
  '[Interface]',
  'Address = 100.100.3.1/24',
  'ListenPort = 51820',
  'PrivateKey = secret',
  '',
  '# Laptop',
  '[Peer]',
  `PublicKey = ${KEY_A}`,
  'AllowedIPs = 100.64.0.2/32',
  '',
  '[Peer]',
  `PublicKey = ${KEY_B}`,
  'AllowedIPs = 100.64.0.3, 192.168.7.9/24 ,fd00::1/64',
  'PersistentKeepalive = 25',
  '',
].join('\n');

describe('the routes wg-quick would add', () => {
  it('reads every peer network, canonical (host bits cleared, prefix written), once each', () => {
    expect(peerAllowedIps(bundleConfig)).toEqual([
      '100.64.0.2/32',
      '100.64.0.3/32',
      '192.168.7.0/24',
      // IPv6 as IPv4: host bits cleared, compressed as `ip -6 route` prints it.
      'fd00::/64',
    ]);
    // AllowedIPs outside a [Peer] section are not peers'.
    expect(peerAllowedIps('[Interface]\nAllowedIPs = 10.0.0.0/8\n')).toEqual([]);
    expect(canonicalNetwork('10.99.0.7/24')).toBe('10.99.0.0/24');
    expect(canonicalNetwork('10.99.0.7')).toBe('10.99.0.7/32');
    expect(canonicalNetwork('FD00::1')).toBe('fd00::1/128');
    expect(canonicalNetwork('FD00:0:0::1/64')).toBe('fd00::/64');
    expect(canonicalNetwork('fe80::1%eth0/64')).toBeNull();
    expect(canonicalNetwork('010.0.0.1/8')).toBeNull();
    expect(canonicalNetwork('10.0.0.0/33')).toBeNull();
    expect(canonicalNetwork('example.com')).toBeNull();
  });

  it('leaves out a default route and the networks the interface is on already', () => {
    expect(
      wantedRoutes(
        ['100.100.3.0/24', '100.64.0.2/32', '0.0.0.0/0', '10.99.0.0/24', '100.64.0.2'],
        ['100.100.3.1/24'],
      ),
    ).toEqual({ routes: ['100.64.0.2/32', '10.99.0.0/24'], skipped: ['0.0.0.0/0'] });
  });

  it('adds what is missing and deletes what no peer has any more, reading `ip route` forms', () => {
    expect(routeDiff([], ['100.64.0.2/32'])).toEqual({ add: ['100.64.0.2/32'], del: [] });
    // `ip -j route` prints a /32 without its prefix.
    expect(routeDiff(['100.64.0.2', '100.64.0.9'], ['100.64.0.2/32', '100.64.0.3/32'])).toEqual({
      add: ['100.64.0.3/32'],
      del: ['100.64.0.9/32'],
    });
    expect(routeDiff(['100.64.0.2', 'default'], ['100.64.0.2/32'])).toEqual({ add: [], del: ['0.0.0.0/0'] });
    expect(routeDiff(['100.64.0.2'], ['100.64.0.2/32'])).toEqual({ add: [], del: [] });
  });
});

describe('masquerading the tunnel networks', () => {
  it('keeps the outermost IPv4 blocks only, sorted', () => {
    expect(
      outermostV4(['100.64.0.3/32', '100.100.3.1/24', '100.64.0.0/16', '100.64.0.3', 'fd00::/64']),
    ).toEqual(['100.64.0.0/16', '100.100.3.0/24']);
    expect(outermostV4(['10.0.0.1/32', '10.0.0.1'])).toEqual(['10.0.0.1/32']);
  });

  it('writes a table of its own that replaces itself and masquerades what leaves by other interfaces', () => {
    const text = natRuleset({
      interfaceName: 'pal-1a2b3c4d',
      sources: ['100.100.3.1/24', '100.64.0.2/32', '100.64.0.3/32', '0.0.0.0/0', 'fd00::1/64'],
    });
    expect(text).toBe(
      [
        '#!/usr/sbin/nft -f',
        '# Palisade gateway: masquerades what the devices of pal-1a2b3c4d send through it. Generated.',
        `table ip ${NAT_TABLE} {}`,
        `delete table ip ${NAT_TABLE}`,
        `table ip ${NAT_TABLE} {`,
        '\tchain postrouting {',
        '\t\ttype nat hook postrouting priority srcnat; policy accept;',
        '\t\tip saddr { 100.64.0.2/32, 100.64.0.3/32, 100.100.3.0/24 } oifname != "pal-1a2b3c4d" counter masquerade comment "tunnel to the networks behind the gateway"',
        '\t}',
        '}',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('palisade {');
    expect(natRuleset({ interfaceName: 'wg0', sources: [] })).not.toContain('ip saddr');
    expect(() => natRuleset({ interfaceName: 'wg0"; drop', sources: [] })).toThrow();
  });

  it.skipIf(!hasCommand('nft') || process.getuid?.() !== 0)('is a ruleset nft accepts (nft -c)', () => {
    const text = natRuleset({ interfaceName: 'wg0', sources: ['100.100.3.1/24', '100.64.0.2/32'] });
    // -c checks without loading; the delete of a table not there yet is what the empty declaration is for.
    const r = spawnSync('nft', ['-c', '-f', '-'], { input: text, env: TOOL_ENV, encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
});
