import { describe, expect, it } from 'vitest';
import { countryRanges, lookupCountry } from './geoip';

const toNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const parsed = new Map<readonly string[], [number, number][]>();
const within = (ip: string, ranges: readonly string[]) => {
  let list = parsed.get(ranges);
  if (!list) {
    list = ranges.map((range) => range.split('-').map(toNumber) as [number, number]);
    parsed.set(ranges, list);
  }
  const n = toNumber(ip);
  return list.some(([first, last]) => first <= n && n <= last);
};

/** Addresses spread over the whole IPv4 space, the same every run. */
function sampleAddresses(count: number): string[] {
  const out: string[] = [];
  let x = 0x9e3779b9;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    out.push(`${x >>> 24}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`);
  }
  return out;
}

describe('country ranges for the gateways', () => {
  it('holds every address in the ranges of the country lookupCountry gives it, and in no other', () => {
    let checked = 0;
    for (const ip of sampleAddresses(400)) {
      const country = lookupCountry(ip);
      if (!country) continue;
      checked++;
      expect(within(ip, countryRanges(country)), `${ip} in ${country}`).toBe(true);
      expect(within(ip, countryRanges(country === 'US' ? 'CN' : 'US')), `${ip} not elsewhere`).toBe(false);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('leaves out special-purpose blocks as lookupCountry does (private networks are no country)', () => {
    expect(lookupCountry('192.168.1.1')).toBeNull();
    for (const code of ['AU', 'US', 'DE']) {
      expect(within('192.168.1.1', countryRanges(code))).toBe(false);
      expect(within('10.1.2.3', countryRanges(code))).toBe(false);
    }
    expect(countryRanges('de').length).toBeGreaterThan(100);
    expect(countryRanges('XX')).toEqual([]);
  });
});
