import { describe, expect, it } from 'vitest';
import { formatBlock, formatInterval, mergeIntervals, parseAddress, parseBlock, parseInterval } from './net';

describe('addresses', () => {
  it.each([
    ['::', '::'],
    ['::1', '::1'],
    ['FD00:0:0:0::1', 'fd00::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0000:0000:0002:0001', '2001:db8::2:1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['192.0.2.1', '192.0.2.1'],
  ])('reads %s and prints it canonically', (text, canonical) => {
    const b = parseBlock(text)!;
    expect(formatBlock(b)).toBe(canonical);
  });

  it.each([
    '',
    '1.2.3.4 x',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '256.1.1.1',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/08',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    'fe80::1%eth0',
    'g::1',
    '::/129',
    '[::1]',
  ])('refuses %j', (text) => {
    expect(parseBlock(text)).toBeNull();
  });

  it('clears host bits, keeps the address as written', () => {
    const b = parseBlock('10.64.3.7/16')!;
    expect(formatBlock(b)).toBe('10.64.0.0/16');
    expect(b.address).toBe(parseAddress('10.64.3.7')!.value);
  });

  it('merges overlapping and adjacent intervals per family and prints blocks where it can', () => {
    const merged = mergeIntervals(
      [
        '10.0.0.0/25',
        '10.0.0.128/25',
        '10.0.1.5',
        '10.0.1.0-10.0.1.4',
        'fd00::/64',
        'fd00:0:0:1::/64',
        '0.0.0.0/0',
      ].map((t) => parseInterval(t)!),
    );
    expect(merged.map(formatInterval)).toEqual(['0.0.0.0/0', 'fd00::/63']);
    const odd = mergeIntervals(['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((t) => parseInterval(t)!));
    expect(odd.map(formatInterval)).toEqual(['10.0.0.1-10.0.0.3']);
    expect(parseInterval('10.0.0.9-10.0.0.1')).toBeNull();
    expect(parseInterval('10.0.0.1-fd00::1')).toBeNull();
  });
});
