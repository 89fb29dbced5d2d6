import { isIPv4, isIPv6 } from 'node:net';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import {
  cidrContains,
  cidrsOverlap,
  formatIpv4,
  ipFamily,
  ipFromBigInt,
  ipRange,
  ipToBigInt,
  ipv4BlockEnd,
  ipv4Mask,
  isCidr,
  isIp,
  isIpInCidr,
  isIpOrCidr,
  isIpv4,
  isIpv6,
  normaliseCidr,
  parseCidr,
  parseIp,
  parseIpOrCidr,
  parseIpv4,
  parseIpv4Cidr,
  parseIpv4OrCidr,
  unmapIpv4,
} from './ip';

describe('parseIp', () => {
  it.each([
    ['0.0.0.0', '0.0.0.0'],
    ['192.168.1.10', '192.168.1.10'],
    ['255.255.255.255', '255.255.255.255'],
    ['::', '::'],
    ['::1', '::1'],
    ['FD00:0:0:0::1', 'fd00::1'],
    ['2001:0DB8:0000:0000:0000:0000:0002:0001', '2001:db8::2:1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['1::8', '1::8'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
    ['::FFFF:192.0.2.1', '::ffff:c000:201'],
    // IPv4-compatible (deprecated), not IPv4-mapped: ipaddr.js alone would read it as ::ffff:1.2.3.4.
    ['::1.2.3.4', '::102:304'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ])('%s → %s', (text, normalised) => {
    expect(parseIp(text)).toBe(normalised);
    expect(isIp(text)).toBe(true);
  });

  it.each([
    // IPv4 pitfalls: octal, hex, short and long forms, out of range, signs, whitespace.
    '010.1.1.1',
    '01.2.3.4',
    '1.2.3.00',
    '0x0a.1.1.1',
    '0xa000001',
    '167772161',
    '1.2.3',
    '1.2',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.-4',
    '+1.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1..3.4',
    '1.2.3.4/32',
    // IPv6 pitfalls: zone ids, brackets, two `::`, too many or too few hextets, long hextets, bad embedded IPv4.
    'fe80::1%eth0',
    'fe80::1%1',
    '[::1]',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2:3:4:5:6:7:8',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    '12345::1',
    'g::1',
    '::ffff:010.1.1.1',
    '::ffff:0x1.2.3.4',
    '::ffff:1.2.3',
    '::ffff:256.1.1.1',
    '1.2.3.4::',
    '::/0',
    '',
    'localhost',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeNull();
    expect(isIp(text)).toBe(false);
    expect(ipFamily(text)).toBeNull();
  });

  it('refuses what is not a string', () => {
    for (const value of [null, undefined, 1, {}, ['1.2.3.4']]) expect(parseIp(value as string)).toBeNull();
  });

  it('tells the families apart', () => {
    expect(ipFamily('10.0.0.1')).toBe(4);
    expect(ipFamily('::ffff:10.0.0.1')).toBe(6);
    expect(isIpv4('10.0.0.1')).toBe(true);
    expect(isIpv4('::ffff:10.0.0.1')).toBe(false);
    expect(isIpv6('::ffff:10.0.0.1')).toBe(true);
    expect(isIpv6('10.0.0.1')).toBe(false);
    expect(isIpv6('fe80::1%eth0')).toBe(false);
  });

  it('reads IPv4 exactly as ipaddr.js does after its own strict check (isValidFourPartDecimal)', () => {
    const text = fc.oneof(
      fc.ipV4(),
      fc.stringMatching(/^[0-9.]{1,16}$/),
      fc.stringMatching(/^[0-9.xa-f:]{1,16}$/),
    );
    fc.assert(
      fc.property(text, (ip) => {
        const strict = ipaddr.IPv4.isValidFourPartDecimal(ip);
        const octets = strict ? ipaddr.IPv4.parse(ip).octets : null;
        expect(parseIpv4(ip)).toBe(
          octets ? ((octets[0] * 256 + octets[1]) * 256 + octets[2]) * 256 + octets[3] : null,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts an IPv4 address exactly where node:net does', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.x+ -]{1,16}$/), (text) => {
        expect(isIpv4(text)).toBe(isIPv4(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(parseIp(ip)).toBe(ip);
      }),
    );
  });

  it('accepts an IPv6 address exactly where node:net does (zone ids aside) and normalises it as WHATWG URL', () => {
    const text = fc.oneof(
      fc.ipV6(),
      fc.ipV6().map((ip) => ip.toUpperCase()),
      fc.stringMatching(/^[0-9a-fA-F:.]{2,45}$/),
      fc
        .tuple(fc.array(fc.stringMatching(/^[0-9a-f]{0,5}$/), { minLength: 1, maxLength: 9 }), fc.boolean())
        .map(([groups, dotted]) => `${groups.join(':')}${dotted ? ':1.2.3.4' : ''}`),
    );
    fc.assert(
      fc.property(text, (ip) => {
        expect(isIpv6(ip)).toBe(isIPv6(ip));
        if (isIPv6(ip)) expect(parseIp(ip)).toBe(new URL(`http://[${ip}]/`).hostname.slice(1, -1));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('unmapIpv4 and ipRange', () => {
  it('gives an IPv4-mapped address as its IPv4 address', () => {
    expect(unmapIpv4('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(unmapIpv4('::FFFF:c000:201')).toBe('192.0.2.1');
    expect(unmapIpv4('192.0.2.1')).toBe('192.0.2.1');
    expect(unmapIpv4('2001:DB8::1')).toBe('2001:db8::1');
    expect(unmapIpv4('::1.2.3.4')).toBe('::102:304');
    expect(unmapIpv4('::ffff:010.0.0.1')).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.1.1', 'linkLocal'],
    ['203.0.113.7', 'reserved'],
    ['8.8.8.8', 'unicast'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700::1111', 'unicast'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['010.0.0.1', null],
  ])('%s is %s', (ip, range) => {
    expect(ipRange(ip)).toBe(range);
  });
});

describe('addresses as numbers', () => {
  it('round-trips both families through bigints', () => {
    expect(ipToBigInt('10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
    expect(ipToBigInt('::ffff:1.2.3.4')).toEqual({ family: 6, value: 0xffff01020304n });
    expect(ipToBigInt('1.2.3')).toBeNull();
    expect(ipFromBigInt(4, 0xc0a8010an)).toBe('192.168.1.10');
    expect(ipFromBigInt(6, 1n)).toBe('::1');
    expect(ipFromBigInt(6, (1n << 128n) - 1n)).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
        const n = ipToBigInt(ip)!;
        expect(ipFromBigInt(n.family, n.value)).toBe(parseIp(ip));
      }),
    );
  });

  it('reads IPv4 as unsigned 32-bit values', () => {
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIpv4('128.0.0.0')).toBe(2 ** 31);
    expect(parseIpv4('010.1.1.1')).toBeNull();
    expect(parseIpv4('::ffff:1.2.3.4')).toBeNull();
    expect(formatIpv4(0x0a000001)).toBe('10.0.0.1');
    expect(formatIpv4(-1)).toBe('255.255.255.255');
    expect(ipv4Mask(0)).toBe(0);
    expect(ipv4Mask(24)).toBe(0xffffff00);
    expect(ipv4Mask(32)).toBe(0xffffffff);
    expect(ipv4BlockEnd({ network: 0x0a000000, prefix: 8 })).toBe(0x0affffff);
    expect(parseIpv4OrCidr('10.0.0.7')).toEqual({ network: 0x0a000007, prefix: 32 });
    expect(parseIpv4OrCidr('10.0.0.7/24')).toEqual({ network: 0x0a000000, prefix: 24 });
    expect(parseIpv4OrCidr('fd00::/8')).toBeNull();
    expect(parseIpv4Cidr('10.0.0.7')).toBeNull();
    expect(parseIpv4Cidr('fd00::/8')).toBeNull();
  });
});

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', { family: 4, address: '10.0.0.0', prefix: 8, host: '10.0.0.0' }],
    ['10.1.2.3/8', { family: 4, address: '10.0.0.0', prefix: 8, host: '10.1.2.3' }],
    ['1.2.3.4/0', { family: 4, address: '0.0.0.0', prefix: 0, host: '1.2.3.4' }],
    ['1.2.3.4/32', { family: 4, address: '1.2.3.4', prefix: 32, host: '1.2.3.4' }],
    ['FD00::1/64', { family: 6, address: 'fd00::', prefix: 64, host: 'fd00::1' }],
    [
      '2001:db8:1:2:aaaa::1/64',
      { family: 6, address: '2001:db8:1:2::', prefix: 64, host: '2001:db8:1:2:aaaa::1' },
    ],
    ['::/0', { family: 6, address: '::', prefix: 0, host: '::' }],
    ['::1/128', { family: 6, address: '::1', prefix: 128, host: '::1' }],
    ['::ffff:10.0.0.1/120', { family: 6, address: '::ffff:a00:0', prefix: 120, host: '::ffff:a00:1' }],
    ['ffff::/9', { family: 6, address: 'ff80::', prefix: 9, host: 'ffff::' }],
  ] as const)('%s', (text, expected) => {
    expect(parseCidr(text)).toEqual(expected);
    expect(isCidr(text)).toBe(true);
    expect(normaliseCidr(text)).toBe(`${expected.address}/${expected.prefix}`);
  });

  it.each([
    '10.0.0.0',
    '::1',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '::/0128',
    '10.0.0.0/-1',
    '10.0.0.0/ 8',
    '10.0.0/8',
    '010.0.0.0/8',
    '10.0.0.0/8/8',
    'fe80::1%eth0/64',
    '[::1]/128',
    '/8',
    '',
  ])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeNull();
    expect(isCidr(text)).toBe(false);
    expect(normaliseCidr(text)).toBeNull();
  });

  it('takes a bare address as its one-address block where asked', () => {
    expect(parseIpOrCidr('10.0.0.7')).toEqual({
      family: 4,
      address: '10.0.0.7',
      prefix: 32,
      host: '10.0.0.7',
    });
    expect(parseIpOrCidr('FD00::7')).toEqual({ family: 6, address: 'fd00::7', prefix: 128, host: 'fd00::7' });
    expect(parseIpOrCidr('10.0.0.7/24')?.address).toBe('10.0.0.0');
    expect(parseIpOrCidr('1.2.3')).toBeNull();
    expect(isIpOrCidr('10.0.0.0/8')).toBe(true);
    expect(isIpOrCidr('fd00::/8')).toBe(true);
    expect(isIpOrCidr('fd00::/8', 4)).toBe(false);
    expect(isIpOrCidr('fd00::/8', 6)).toBe(true);
    expect(isIpOrCidr('10.0.0.1', 4)).toBe(true);
    expect(isIpOrCidr('*')).toBe(false);
  });

  it('clears exactly the host bits (IPv4 against the numeric mask)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.integer({ min: 0, max: 32 }), (n, prefix) => {
        const cidr = parseCidr(`${formatIpv4(n)}/${prefix}`)!;
        expect(parseIpv4(cidr.address)).toBe((n & ipv4Mask(prefix)) >>> 0);
      }),
    );
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
        fc.integer({ min: 0, max: 128 }),
        (n, prefix) => {
          const cidr = parseCidr(`${ipFromBigInt(6, n)}/${prefix}`)!;
          const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(128 - prefix);
          expect(ipToBigInt(cidr.address)!.value).toBe(n & mask);
        },
      ),
    );
  });
});

describe('containment and overlap', () => {
  it.each([
    ['10.0.0.0/8', '10.1.2.3', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '10.20.0.0/16', true],
    ['10.20.0.0/16', '10.0.0.0/8', false],
    ['10.0.0.0/8', '10.0.0.0/8', true],
    ['10.0.0.1', '10.0.0.1/32', true],
    ['0.0.0.0/0', '255.255.255.255', true],
    ['2001:db8::/32', '2001:DB8:1::/48', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::/0', '::1', true],
    ['fe80::/10', 'febf::1', true],
    ['fe80::/10', 'fec0::1', false],
    // Families never mix, not even through an IPv4-mapped address.
    ['10.0.0.0/8', '::ffff:10.0.0.1', false],
    ['::ffff:0:0/96', '10.0.0.1', false],
    ['0.0.0.0/0', '::', false],
    ['10.0.0.0/8', 'bad', false],
    ['bad', '10.0.0.1', false],
  ])('%s contains %s → %s', (outer, inner, expected) => {
    expect(cidrContains(outer, inner)).toBe(expected);
  });

  it.each([
    ['10.0.0.0/8', '10.20.0.0/16', true],
    ['10.20.0.0/16', '10.0.0.0/8', true],
    ['10.0.0.0/25', '10.0.0.128/25', false],
    ['10.0.0.7', '10.0.0.0/29', true],
    ['10.0.0.8', '10.0.0.0/29', false],
    ['fd00::/64', 'fd00:0:0:1::/64', false],
    ['fd00::/63', 'FD00:0:0:1::1', true],
    ['::/0', '0.0.0.0/0', false],
    ['10.0.0.0/8', '10.0.0.0/33', false],
  ])('%s overlaps %s → %s', (a, b, expected) => {
    expect(cidrsOverlap(a, b)).toBe(expected);
    expect(cidrsOverlap(b, a)).toBe(expected);
  });

  it('isIpInCidr wants an address and a block, of one family', () => {
    expect(isIpInCidr('fd00::1', 'fd00::/8')).toBe(true);
    expect(isIpInCidr('fd00::1', 'fd00::1')).toBe(false);
    expect(isIpInCidr('fd00::/16', 'fd00::/8')).toBe(false);
    expect(isIpInCidr('::ffff:10.0.0.1', '10.0.0.0/8')).toBe(false);
  });

  it('overlap is containment one way or the other', () => {
    const block = fc.oneof(
      fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, p]) => `${ip}/${p}`),
      fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([ip, p]) => `${ip}/${p}`),
    );
    fc.assert(
      fc.property(block, block, (a, b) => {
        expect(cidrsOverlap(a, b)).toBe(cidrContains(a, b) || cidrContains(b, a));
      }),
    );
  });
});
