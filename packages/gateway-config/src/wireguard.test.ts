import { describe, expect, it } from 'vitest';
import { bundleVersion, GatewayConfigError, PRIVATE_KEY_PLACEHOLDER, wireguardConfig } from './index';

const KEY_A = 'GPxH5HLLfqTVoKi1B8BfnvPIhK95IWauvGix9DKHbmA=';
const KEY_B = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=';

const base = { address: '10.64.0.1/16', listenPort: 51820 };

function error(fn: () => unknown): GatewayConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayConfigError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

describe('wireguardConfig', () => {
  it('writes the interface without a private key and one sorted peer per device', () => {
    const text = wireguardConfig({
      ...base,
      address: ['10.64.0.1/16', 'FD00::1/64'],
      peers: [
        { publicKey: KEY_B, allowedIps: ['10.64.0.3/32', 'fd00:0:0:0::3', '10.64.0.3'], name: 'Phone' },
        {
          publicKey: KEY_A,
          allowedIps: ['192.168.7.99/24', '10.64.0.2'],
          name: 'Branch office',
          endpoint: '198.51.100.7:51820',
          persistentKeepalive: 25,
        },
      ],
    });
    expect(text).toBe(
      [
        '# Palisade gateway tunnel (wg-quick). Generated from the tenant configuration: do not edit.',
        '[Interface]',
        'Address = 10.64.0.1/16, fd00::1/64',
        'ListenPort = 51820',
        '# No PrivateKey: the gateway sets its own (wg set <interface> private-key <file>).',
        '',
        '# Branch_office',
        '[Peer]',
        `PublicKey = ${KEY_A}`,
        'AllowedIPs = 10.64.0.2, 192.168.7.0/24',
        'Endpoint = 198.51.100.7:51820',
        'PersistentKeepalive = 25',
        '',
        '# Phone',
        '[Peer]',
        `PublicKey = ${KEY_B}`,
        'AllowedIPs = 10.64.0.3, fd00::3',
        '',
      ].join('\n'),
    );
  });

  it('writes the placeholder or a PostUp that loads the key file when asked', () => {
    const text = wireguardConfig({
      ...base,
      peers: [],
      privateKeyPlaceholder: true,
      privateKeyFile: '/etc/palisade/wg.key',
    });
    expect(text).toContain(`PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`);
    expect(text).toContain('PostUp = wg set %i private-key /etc/palisade/wg.key');
    expect(error(() => wireguardConfig({ ...base, peers: [], privateKeyFile: 'key; rm -rf /' })).field).toBe(
      'privateKeyFile',
    );
  });

  it('accepts IPv6 and host name endpoints and leaves out an empty AllowedIPs', () => {
    const text = wireguardConfig({
      ...base,
      peers: [
        { publicKey: KEY_A, allowedIps: [], endpoint: '[2001:DB8::1]:51820' },
        { publicKey: KEY_B, allowedIps: ['10.64.0.5'], endpoint: 'GW.Example.com:443' },
      ],
    });
    expect(text).toContain('Endpoint = [2001:db8::1]:51820');
    expect(text).toContain('Endpoint = gw.example.com:443');
    expect(text.match(/AllowedIPs/g)).toHaveLength(1);
  });

  it.each([
    ['a short key', { publicKey: 'abc=', allowedIps: [] }, 'invalid-key', 'peers[0].publicKey'],
    [
      'a key of 33 bytes',
      { publicKey: `${KEY_A.slice(0, 42)}B=`, allowedIps: [] },
      'invalid-key',
      'peers[0].publicKey',
    ],
    [
      'a key with a newline',
      { publicKey: `${KEY_A}\n[Peer]`, allowedIps: [] },
      'invalid-key',
      'peers[0].publicKey',
    ],
    [
      'a bad CIDR',
      { publicKey: KEY_A, allowedIps: ['10.0.0.0/33'] },
      'invalid-address',
      'peers[0].allowedIps[0]',
    ],
    [
      'an address with text after it',
      { publicKey: KEY_A, allowedIps: ['10.0.0.1\nEndpoint = x:1'] },
      'invalid-address',
      'peers[0].allowedIps[0]',
    ],
    [
      'a leading zero',
      { publicKey: KEY_A, allowedIps: ['010.0.0.1'] },
      'invalid-address',
      'peers[0].allowedIps[0]',
    ],
    [
      'an endpoint without a port',
      { publicKey: KEY_A, allowedIps: [], endpoint: '198.51.100.7' },
      'invalid-endpoint',
      'peers[0].endpoint',
    ],
    [
      'an endpoint with a bad host',
      { publicKey: KEY_A, allowedIps: [], endpoint: 'a b:1' },
      'invalid-endpoint',
      'peers[0].endpoint',
    ],
    [
      'a bad IPv4 endpoint',
      { publicKey: KEY_A, allowedIps: [], endpoint: '300.1.1.1:1' },
      'invalid-endpoint',
      'peers[0].endpoint',
    ],
    [
      'a keepalive too large',
      { publicKey: KEY_A, allowedIps: [], persistentKeepalive: 70_000 },
      'invalid-port',
      'peers[0].persistentKeepalive',
    ],
  ])('refuses %s', (_, peer, code, field) => {
    const e = error(() => wireguardConfig({ ...base, peers: [peer] }));
    expect([e.code, e.field]).toEqual([code, field]);
  });

  it('writes a client (device) config: no ListenPort, the resolvers as DNS, and refuses a block as resolver', () => {
    const text = wireguardConfig({
      address: '100.64.0.2/32',
      dns: ['100.100.0.1'],
      privateKeyPlaceholder: true,
      peers: [{ publicKey: KEY_A, allowedIps: ['100.100.0.0/24'], endpoint: '198.51.100.7:51820' }],
    });
    expect(text).not.toContain('ListenPort');
    expect(text).toContain('Address = 100.64.0.2/32\nDNS = 100.100.0.1\n');
    expect(text).toContain(`PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`);
    expect(
      error(() => wireguardConfig({ address: '100.64.0.2/32', dns: ['100.100.0.0/24'], peers: [] })).field,
    ).toBe('dns[0]');
  });

  it('refuses bad interface options, a key given twice and a block routed to two peers', () => {
    expect(error(() => wireguardConfig({ ...base, address: 'x', peers: [] })).code).toBe('invalid-address');
    expect(error(() => wireguardConfig({ ...base, address: [], peers: [] })).code).toBe('invalid-address');
    expect(error(() => wireguardConfig({ ...base, listenPort: 0, peers: [] })).code).toBe('invalid-port');
    const twice = [
      { publicKey: KEY_A, allowedIps: ['10.64.0.2'] },
      { publicKey: KEY_A, allowedIps: ['10.64.0.3'] },
    ];
    expect(error(() => wireguardConfig({ ...base, peers: twice })).code).toBe('duplicate-peer');
    const overlap = [
      { publicKey: KEY_A, allowedIps: ['10.64.0.2/32'] },
      { publicKey: KEY_B, allowedIps: ['10.64.0.2'] },
    ];
    expect(error(() => wireguardConfig({ ...base, peers: overlap })).code).toBe('duplicate-allowed-ip');
    // A wider block beside a narrower one is routing by longest prefix, not a conflict.
    const nested = [
      { publicKey: KEY_A, allowedIps: ['10.64.0.0/16'] },
      { publicKey: KEY_B, allowedIps: ['10.64.0.2'] },
    ];
    expect(() => wireguardConfig({ ...base, peers: nested })).not.toThrow();
  });
});

describe('bundleVersion', () => {
  it('is a stable 16-digit hash that ignores key order and tells artefacts apart', () => {
    const v = bundleVersion({ nftables: 'a', rpz: 'b', squid: 'c', wireguard: 'd' });
    expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(bundleVersion({ wireguard: 'd', squid: 'c', rpz: 'b', nftables: 'a' })).toBe(v);
    expect(bundleVersion({ nftables: 'ab', rpz: '', squid: 'c', wireguard: 'd' })).not.toBe(v);
    expect(bundleVersion({ nftables: 'a', rpz: 'b', squid: 'c', wireguard: 'e' })).not.toBe(v);
    // Pinned: the hash must not change between releases for the same artefacts.
    expect(bundleVersion({ rpz: 'zone' })).toBe('c837eafcd8f46c8c');
  });
});
