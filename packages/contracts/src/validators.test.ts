import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIpv4, ipAtOffset, isAllowedPrivateRange, isIpInCidr, parseIpv4, parseIpv4Cidr } from './ip';
import {
  Cidr,
  DomainOrUrl,
  findDuplicates,
  findIpSourceConflicts,
  hasFieldError,
  isNonEmptyString,
  isTxtFileName,
  isValidDomainOrUrl,
  isValidPort,
  isValidPortList,
  PortList,
  TxtFileName,
} from './validators';

const cidrArb = fc
  .tuple(fc.nat({ max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
  .map(([ip, prefix]) => ({ ip, prefix, cidr: `${formatIpv4(ip)}/${prefix}` }));

describe('isValidPort', () => {
  it.each([
    ['1', true],
    ['80', true],
    ['65535', true],
    ['0', false],
    ['65536', false],
    ['99999', false],
    ['', false],
    ['+80', false],
    ['-80', false],
    ['80.0', false],
    ['8 0', false],
    [' 80', false],
    ['080', false],
    ['abc', false],
    ['1-2', true],
    ['8000-8080', true],
    ['1-65535', true],
    ['80-80', false],
    ['90-80', false],
    ['0-80', false],
    ['80-65536', false],
    ['80 - 90', false],
    ['80-', false],
    ['-', false],
    ['1-2-3', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidPort(value)).toBe(expected);
  });

  it('accepts every integer 1..65535', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 65_535 }), (n) => isValidPort(String(n))));
  });

  it('rejects integers outside 1..65535', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1_000_000, max: 0 }), fc.integer({ min: 65_536, max: 10_000_000 })),
        (n) => !isValidPort(String(n)),
      ),
    );
  });

  it('accepts a range a-b iff a < b', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65_535 }), fc.integer({ min: 1, max: 65_535 }), (a, b) => {
        expect(isValidPort(`${a}-${b}`)).toBe(a < b);
      }),
    );
  });
});

describe('isValidPortList', () => {
  it.each([
    ['80', true],
    ['80,443', true],
    [' 80 , 443 ,8000-8080 ', true],
    ['', false],
    [' ', false],
    ['80,', false],
    [',80', false],
    ['80,,443', false],
    ['80,0', false],
    ['80;443', false],
    ['443,90-80', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidPortList(value)).toBe(expected);
  });

  it('is valid iff every item is valid', () => {
    const item = fc.oneof(
      fc.integer({ min: -5, max: 70_000 }).map(String),
      fc
        .tuple(fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 70_000 }))
        .map(([a, b]) => `${a}-${b}`),
    );
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', ' ', '  '),
        (items, pad) => {
          const list = items.map((i) => pad + i + pad).join(',');
          expect(isValidPortList(list)).toBe(items.every(isValidPort));
        },
      ),
    );
  });
});

describe('isValidDomainOrUrl', () => {
  it.each([
    ['example.com', true],
    ['EXAMPLE.COM', true],
    ['sub.example.co.uk', true],
    ['http://example.com', true],
    ['https://example.com', true],
    ['HTTPS://Example.com/', true],
    ['a-b.c-d.io', true],
    ['123.example.org', true],
    ['xn--bcher-kva.de', true],
    [`${'a'.repeat(63)}.com`, true],
    [`${'a'.repeat(64)}.com`, false],
    ['example.com//', false],
    ['example.com/path', false],
    ['example', false],
    ['localhost', false],
    ['example.c', false],
    ['example.c0m', false],
    ['-example.com', false],
    ['example-.com', false],
    ['exa_mple.com', false],
    ['example..com', false],
    ['.example.com', false],
    ['example.com.', false],
    ['ftp://example.com', false],
    ['http//example.com', false],
    ['https://', false],
    ['example.com:8080', false],
    [' example.com', false],
    ['10.0.0.1', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidDomainOrUrl(value)).toBe(expected);
  });

  it('rejects host names longer than 253 characters', () => {
    const host = `${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}.com`;
    expect(host.length).toBeGreaterThan(253);
    expect(isValidDomainOrUrl(host)).toBe(false);
  });

  it('accepts any well-formed labels with any prefix, and rejects a label with a leading hyphen', () => {
    const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
    const tld = fc.stringMatching(/^[a-z]{2,6}$/);
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 4 }),
        tld,
        fc.constantFrom('', 'http://', 'https://'),
        fc.constantFrom('', '/'),
        (labels, top, prefix, slash) => {
          const host = [...labels, top].join('.');
          expect(isValidDomainOrUrl(prefix + host + slash)).toBe(true);
          expect(isValidDomainOrUrl(prefix + host.toUpperCase() + slash)).toBe(true);
          expect(isValidDomainOrUrl(`${prefix}-${host}${slash}`)).toBe(false);
        },
      ),
    );
  });
});

describe('isTxtFileName', () => {
  it.each([
    ['list.txt', true],
    ['LIST.TXT', true],
    ['my.list.Txt', true],
    ['a.txt', true],
    ['.txt', false],
    ['  .txt', false],
    ['list.csv', false],
    ['list.txt.csv', false],
    ['listtxt', false],
    ['list.txt ', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isTxtFileName(value)).toBe(expected);
  });
});

describe('parseIpv4 / formatIpv4', () => {
  it.each([
    ['0.0.0.0', 0],
    ['255.255.255.255', 0xffffffff],
    ['10.0.0.1', 0x0a000001],
    ['192.168.1.10', 3_232_235_786],
    ['128.0.0.0', 2 ** 31],
  ])('%s → %d', (value, expected) => {
    expect(parseIpv4(value)).toBe(expected);
  });

  it.each([
    '256.0.0.0',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.00',
    '1.2.3.-4',
    '+1.2.3.4',
    '1.2.3.4 ',
    '1..3.4',
    '1.2.3.4/32',
    'a.b.c.d',
    '',
  ])('rejects %j', (value) => {
    expect(parseIpv4(value)).toBeNull();
  });

  it('round-trips every 32-bit address', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), (n) => {
        expect(parseIpv4(formatIpv4(n))).toBe(n);
      }),
    );
  });

  it('parses exactly what fast-check generates as IPv4', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const n = parseIpv4(ip);
        expect(n).not.toBeNull();
        expect(formatIpv4(n!)).toBe(ip);
      }),
    );
  });
});

describe('parseIpv4Cidr', () => {
  it.each([
    ['10.0.0.0/8', { network: 0x0a000000, prefix: 8 }],
    ['10.1.2.3/8', { network: 0x0a000000, prefix: 8 }],
    ['192.168.1.77/24', { network: 0xc0a80100, prefix: 24 }],
    ['1.2.3.4/0', { network: 0, prefix: 0 }],
    ['1.2.3.4/32', { network: 0x01020304, prefix: 32 }],
    ['255.255.255.255/1', { network: 0x80000000, prefix: 1 }],
  ])('%s', (value, expected) => {
    expect(parseIpv4Cidr(value)).toEqual(expected);
  });

  it.each([
    '10.0.0.0',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/-1',
    '10.0.0/8',
    '10.0.0.0/8/8',
    '/8',
  ])('rejects %j', (value) => {
    expect(parseIpv4Cidr(value)).toBeNull();
  });
});

describe('isIpInCidr', () => {
  it.each([
    ['10.1.2.3', '10.0.0.0/8', true],
    ['11.0.0.0', '10.0.0.0/8', false],
    ['9.255.255.255', '10.0.0.0/8', false],
    ['192.168.1.255', '192.168.1.0/24', true],
    ['192.168.2.0', '192.168.1.0/24', false],
    ['1.2.3.4', '0.0.0.0/0', true],
    ['1.2.3.4', '1.2.3.4/32', true],
    ['1.2.3.5', '1.2.3.4/32', false],
    ['172.31.255.255', '172.16.0.0/12', true],
    ['172.32.0.0', '172.16.0.0/12', false],
    ['bad', '10.0.0.0/8', false],
    ['10.0.0.1', 'bad', false],
  ])('%s in %s → %s', (ip, cidr, expected) => {
    expect(isIpInCidr(ip, cidr)).toBe(expected);
  });

  it('every address is in its own /prefix block', () => {
    fc.assert(fc.property(cidrArb, ({ ip, cidr }) => isIpInCidr(formatIpv4(ip), cidr)));
  });

  it('an address differing in a network bit is outside the block', () => {
    fc.assert(
      fc.property(
        cidrArb.filter((c) => c.prefix > 0),
        fc.nat(),
        ({ ip, prefix, cidr }, pick) => {
          const bit = 31 - (pick % prefix);
          const flipped = (ip ^ (1 << bit)) >>> 0;
          expect(isIpInCidr(formatIpv4(flipped), cidr)).toBe(false);
        },
      ),
    );
  });
});

describe('ipAtOffset', () => {
  it.each([
    ['192.168.0.0/30', 0, '192.168.0.0'],
    ['192.168.0.0/30', 3, '192.168.0.3'],
    ['192.168.0.0/30', 4, null],
    ['192.168.0.0/30', -1, null],
    ['192.168.0.0/30', 1.5, null],
    ['10.0.0.0/8', 256, '10.0.1.0'],
    ['10.0.0.0/8', 2 ** 24 - 1, '10.255.255.255'],
    ['10.0.0.0/8', 2 ** 24, null],
    ['1.2.3.4/32', 0, '1.2.3.4'],
    ['1.2.3.4/32', 1, null],
    ['0.0.0.0/0', 2 ** 32 - 1, '255.255.255.255'],
    ['0.0.0.0/0', 2 ** 32, null],
    ['10.0.0.9/24', 0, '10.0.0.0'],
    ['bad', 0, null],
    ['10.0.0.0/8', Number.NaN, null],
  ])('%s + %d → %s', (cidr, offset, expected) => {
    expect(ipAtOffset(cidr, offset)).toBe(expected);
  });

  it('is inside the block for 0 <= k < size and null for k >= size', () => {
    fc.assert(
      fc.property(
        cidrArb,
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.nat(),
        (c, f, extra) => {
          const size = 2 ** (32 - c.prefix);
          const k = Math.floor(f * size);
          const inside = ipAtOffset(c.cidr, k);
          expect(inside).not.toBeNull();
          expect(isIpInCidr(inside!, c.cidr)).toBe(true);
          expect(ipAtOffset(c.cidr, size + extra)).toBeNull();
        },
      ),
    );
  });

  it('distinct offsets give distinct addresses in order', () => {
    fc.assert(
      fc.property(
        cidrArb.filter((c) => c.prefix < 32),
        (c) => {
          const first = parseIpv4(ipAtOffset(c.cidr, 0)!)!;
          const second = parseIpv4(ipAtOffset(c.cidr, 1)!)!;
          expect(second - first).toBe(1);
        },
      ),
    );
  });
});

describe('isAllowedPrivateRange', () => {
  it.each([
    ['10.0.0.0/8', true],
    ['10.20.0.0/16', true],
    ['10.1.2.3/32', true],
    ['172.16.0.0/12', true],
    ['172.31.0.0/16', true],
    ['192.168.0.0/16', true],
    ['192.168.10.0/24', true],
    ['10.0.0.0/7', false],
    ['172.16.0.0/11', false],
    ['172.0.0.0/8', false],
    ['172.32.0.0/16', false],
    ['192.168.0.0/15', false],
    ['192.169.0.0/16', false],
    ['8.8.8.0/24', false],
    ['0.0.0.0/0', false],
    ['10.0.0.0', false],
    ['', false],
  ])('%j → %s', (cidr, expected) => {
    expect(isAllowedPrivateRange(cidr)).toBe(expected);
  });

  it('is allowed iff both ends of the block are in one RFC 1918 range', () => {
    const ranges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];
    fc.assert(
      fc.property(cidrArb, ({ cidr }) => {
        const block = parseIpv4Cidr(cidr)!;
        const last = formatIpv4(block.network + 2 ** (32 - block.prefix) - 1);
        const expected = ranges.some((r) => isIpInCidr(formatIpv4(block.network), r) && isIpInCidr(last, r));
        expect(isAllowedPrivateRange(cidr)).toBe(expected);
      }),
    );
  });
});

describe('findDuplicates', () => {
  it.each([
    [[], []],
    [['a', 'b', 'c'], []],
    [
      ['a', 'b', 'b', 'a', 'a'],
      ['b', 'a'],
    ],
    [[1, '1', 1], [1]],
    [[Number.NaN, Number.NaN], [Number.NaN]],
  ])('%j → %j', (items: unknown[], expected: unknown[]) => {
    expect(findDuplicates(items)).toEqual(expected);
  });

  it('compares by key and reports the first occurrence', () => {
    const rows = [
      { id: 1, name: 'Alpha' },
      { id: 2, name: 'beta' },
      { id: 3, name: 'alpha' },
      { id: 4, name: 'BETA' },
    ];
    expect(findDuplicates(rows, (r) => r.name.toLowerCase()).map((r) => r.id)).toEqual([1, 2]);
  });

  it('reports each value that occurs more than once, exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }), (items) => {
        const dups = findDuplicates(items);
        const expected = [...new Set(items)].filter((v) => items.indexOf(v) !== items.lastIndexOf(v));
        expect(new Set(dups).size).toBe(dups.length);
        expect([...dups].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      }),
    );
  });
});

describe('findIpSourceConflicts', () => {
  it('reports the ip and both sources', () => {
    expect(
      findIpSourceConflicts([
        { ip: '10.0.0.1', source: 'lan' },
        { ip: '10.0.0.2', source: 'wan' },
        { ip: '10.0.0.1', source: 'vpn' },
      ]),
    ).toEqual([{ ip: '10.0.0.1', sources: ['lan', 'vpn'] }]);
  });

  it('reports every later use of an ip against the first, trimming ips', () => {
    expect(
      findIpSourceConflicts([
        { ip: '10.0.0.1', source: 'a' },
        { ip: ' 10.0.0.1', source: 'b' },
        { ip: '10.0.0.1 ', source: 'c' },
      ]),
    ).toEqual([
      { ip: '10.0.0.1', sources: ['a', 'b'] },
      { ip: '10.0.0.1', sources: ['a', 'c'] },
    ]);
  });

  it('reports nothing when every ip is distinct', () => {
    expect(
      findIpSourceConflicts([
        { ip: '10.0.0.1', source: 'a' },
        { ip: '10.0.0.2', source: 'a' },
      ]),
    ).toEqual([]);
  });

  it('yields entries.length minus distinct ips conflicts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ip: fc.constantFrom('1.1.1.1', '2.2.2.2', '3.3.3.3'), source: fc.string() })),
        (entries) => {
          const conflicts = findIpSourceConflicts(entries);
          expect(conflicts.length).toBe(entries.length - new Set(entries.map((e) => e.ip)).size);
          for (const c of conflicts) {
            expect(c.sources[0]).toBe(entries.find((e) => e.ip === c.ip)!.source);
          }
        },
      ),
    );
  });
});

describe('hasFieldError', () => {
  it.each([
    ['required', true],
    ['', false],
    ['   ', false],
    [true, true],
    [false, false],
    [null, false],
    [undefined, false],
    [0, false],
    [1, false],
    [{}, false],
    [[], false],
    [{ message: 'Too long' }, true],
    [{ error: 'bad' }, true],
    [{ errorMessage: 'bad' }, true],
    [{ message: '' }, false],
    [{ message: ' ' }, false],
    [{ error: true }, false],
    [{ message: 42 }, false],
    [{ other: 'x' }, false],
    [new Error('boom'), true],
  ])('%j → %s', (value, expected) => {
    expect(hasFieldError(value)).toBe(expected);
  });
});

describe('isNonEmptyString', () => {
  it.each([
    ['a', true],
    [' a ', true],
    ['', false],
    [' \t\n', false],
    [0, false],
    [null, false],
    [undefined, false],
    [['a'], false],
  ])('%j → %s', (value, expected) => {
    expect(isNonEmptyString(value)).toBe(expected);
  });

  it('agrees with trimmed length for any string', () => {
    fc.assert(fc.property(fc.string(), (s) => isNonEmptyString(s) === s.trim().length > 0));
  });
});

describe('zod refinements', () => {
  it.each([
    [PortList, '80,443', '80,0', 'validation.portList'],
    [DomainOrUrl, 'https://example.com', 'nope', 'validation.domain'],
    [Cidr, '10.0.0.0/8', '10.0.0.0/40', 'validation.cidr'],
    [TxtFileName, 'ips.txt', 'ips.csv', 'validation.txtFile'],
  ] as const)('%#: accepts the good value and reports the key on a bad one', (schema, good, bad, key) => {
    expect(schema.safeParse(good).success).toBe(true);
    const result = schema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(key);
  });
});
