import { describe, expect, it } from 'vitest';
import { formatThroughput } from '../../../lib/throughput';
import { formatBucket, formatLatency, formatPercent, tickFormatter } from './format';
import { parseAddress, toParams, toSearchParams } from './site-params';

const ID = '11111111-1111-4111-8111-111111111111';

describe('site performance figures', () => {
  it('writes each measure with the numbers and units of the language', () => {
    expect(formatLatency(27, 'en')).toBe('27 ms');
    expect(formatLatency(3.25, 'de')).toBe('3,3 ms');
    expect(formatPercent(99.75, 'en')).toBe('99.8%');
    expect(formatPercent(99.75, 'de')).toBe('99,8\u00a0%');
    expect(formatThroughput(1_562_500, 'en')).toBe('12.5 Mb/s');
    expect(formatThroughput(1_562_500, 'de')).toBe('12,5 Mb/s');
    expect(formatThroughput(0, 'en')).toBe('0 bit/s');
  });

  it('names the width of a point in minutes or hours', () => {
    expect(formatBucket(60_000, 'en')).toBe('1 minute');
    expect(formatBucket(900_000, 'en')).toBe('15 minutes');
    expect(formatBucket(7_200_000, 'de')).toBe('2 Stunden');
  });

  it('labels the time axis in the language', () => {
    const at = Date.UTC(2026, 2, 2, 9, 15);
    expect(tickFormatter('24h', 'en')(at)).toMatch(/^\d\d:\d\d/);
    expect(tickFormatter('7d', 'de')(at)).toMatch(/^(Mo|Di|Mi|Do|Fr|Sa|So)\.?/);
  });
});

describe('site performance address', () => {
  it('reads the range and the site, falling back to 24 hours and all sites', () => {
    expect(parseAddress(new URLSearchParams(`range=7d&gateway=${ID}`))).toEqual({ range: '7d', gateway: ID });
    expect(parseAddress(new URLSearchParams('range=1y&gateway=berlin'))).toEqual({
      range: '24h',
      gateway: '',
    });
  });

  it('writes them back, keeping the rest of the address', () => {
    const next = toSearchParams(new URLSearchParams(`lng=de&gateway=${ID}`), { range: '1h', gateway: '' });
    expect(next.toString()).toBe('lng=de&range=1h');
    expect(toParams({ range: '1h', gateway: ID })).toEqual({ range: '1h', gatewayId: ID });
    expect(toParams({ range: '1h', gateway: '' })).toEqual({ range: '1h' });
  });
});
