import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError, SQUID_PORTS, STEERING_TABLE, steeringRuleset } from './index';

const rules = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('iifname'));

describe('steeringRuleset', () => {
  it('redirects new web connections of the tunnel to squid; plain HTTP to the gateway to the block-page port', () => {
    const text = steeringRuleset({ interfaceName: 'pal0', gatewayAddresses: ['10.64.0.1/24', 'fd00::1/64'] });
    expect(text).toContain(`table ip ${STEERING_TABLE} {`);
    expect(text).toContain('type nat hook prerouting priority dstnat; policy accept;');
    // In this order: the block-page port first, the gateway's own services left alone, then the redirects.
    expect(rules(text)).toEqual([
      `iifname "pal0" ip daddr { 10.64.0.1 } tcp dport 80 ct state new redirect to :${SQUID_PORTS.page}`,
      'iifname "pal0" fib daddr type local accept',
      `iifname "pal0" tcp dport 80 ct state new redirect to :${SQUID_PORTS.http}`,
      `iifname "pal0" tcp dport 443 ct state new redirect to :${SQUID_PORTS.https}`,
    ]);
    // Replaced in one transaction, like the policy's table.
    expect(text.indexOf(`delete table ip ${STEERING_TABLE}`)).toBeLessThan(
      text.indexOf(`table ip ${STEERING_TABLE} {`),
    );
  });

  it('takes other ports, and leaves out the block-page line without an IPv4 address', () => {
    const text = steeringRuleset({
      interfaceName: 'wg-a',
      gatewayAddresses: ['fd00::1'],
      httpPort: 8128,
      httpsPort: 8129,
      pagePort: 8130,
    });
    expect(rules(text)).toEqual([
      'iifname "wg-a" fib daddr type local accept',
      'iifname "wg-a" tcp dport 80 ct state new redirect to :8128',
      'iifname "wg-a" tcp dport 443 ct state new redirect to :8129',
    ]);
  });

  it('refuses an interface name or port that does not fit', () => {
    expect(() => steeringRuleset({ interfaceName: 'a" accept', gatewayAddresses: [] })).toThrow(
      GatewayConfigError,
    );
    expect(() => steeringRuleset({ interfaceName: 'x'.repeat(16), gatewayAddresses: [] })).toThrow(
      GatewayConfigError,
    );
    expect(() => steeringRuleset({ interfaceName: 'pal0', gatewayAddresses: [], httpPort: 0 })).toThrow(
      GatewayConfigError,
    );
  });

  const nft = ['/usr/sbin/nft', '/sbin/nft'].find((p) => existsSync(p));
  const root = process.getuid?.() === 0;
  const why = 'missing nft or root (bash scripts/net-tools.sh; the check mode needs CAP_NET_ADMIN)';
  if ((!nft || !root) && process.env.CI === 'true') {
    it('nft -c accepts it', () => {
      throw new Error(`CI=true: ${why}`);
    });
  } else {
    if (!nft || !root) console.warn(`gateway-config steering: "nft -c" SKIPPED: ${why}`);
    it.skipIf(!nft || !root)('nft -c accepts it (in a private network namespace)', () => {
      const text = steeringRuleset({
        interfaceName: 'pal0',
        gatewayAddresses: ['10.64.0.1/24', '10.64.0.2'],
      });
      // The file deletes the table first: declared once before, as the gateway's first load finds it.
      const r = spawnSync('unshare', ['-n', nft!, '-c', '-f', '-'], { input: text, encoding: 'utf8' });
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    });
  }
});
