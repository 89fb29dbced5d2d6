import { describe, expect, it } from 'vitest';
import { formatThroughput } from '../../../lib/throughput';
import { FRANKFURT, NEW_NODE } from '../testing/gateway-fixtures';
import { formatUptime, installCommand, isSiteKind, policyStateOf } from './gateway-facts';
import { gatewaysListCodec, toGatewaysQuery } from './list-params';

describe('gateway facts', () => {
  it('tells current, behind, drifting and nothing to compare apart', () => {
    expect(policyStateOf(FRANKFURT)).toBe('current');
    expect(policyStateOf({ ...FRANKFURT, enforcedVersion: 'old' })).toBe('behind');
    // Enrolled, but no bundle taken yet: behind too.
    expect(policyStateOf({ ...FRANKFURT, enforcedVersion: null })).toBe('behind');
    expect(policyStateOf({ ...FRANKFURT, enforcedVersion: 'old', isDrifting: true })).toBe('drifting');
    expect(policyStateOf(NEW_NODE)).toBe('none');
    expect(policyStateOf({ ...FRANKFURT, currentVersion: null })).toBe('none');
    expect(policyStateOf({ ...FRANKFURT, status: 'retired', enforcedVersion: 'old' })).toBe('none');
  });

  it('writes uptimes in their two largest units, in the language', () => {
    expect(formatUptime(3 * 86_400 + 4 * 3_600 + 59, 'en')).toBe('3 days, 4 hours');
    expect(formatUptime(3 * 86_400 + 59, 'en')).toBe('3 days');
    expect(formatUptime(2 * 3_600 + 5 * 60, 'de')).toBe('2 Stunden, 5 Minuten');
    expect(formatUptime(1, 'en')).toBe('1 second');
    expect(formatUptime(0, 'en')).toBe('0 seconds');
  });

  it('writes throughput as bits per second in the largest fitting unit', () => {
    expect(formatThroughput(0, 'en')).toBe('0 bit/s');
    expect(formatThroughput(1_562_500, 'en')).toBe('12.5 Mb/s');
    expect(formatThroughput(250_000_000, 'en')).toBe('2 Gb/s');
  });

  it('knows the site gateway kinds and builds the install command', () => {
    expect(['cgw', 'cgwr', 'lgw'].every((kind) => isSiteKind(kind as 'cgw'))).toBe(true);
    expect(isSiteKind('virtual')).toBe(false);
    expect(installCommand('gwe_x', 'https://console.example')).toBe(
      'npm run gateway -- --server https://console.example --token gwe_x',
    );
  });

  it('keeps kind and status in the address and sends only what narrows the list', () => {
    const state = gatewaysListCodec.parse(new URLSearchParams('kind=site&status=offline&sort=region&page=2'));
    expect(state).toMatchObject({ kind: 'site', status: 'offline', sort: 'region', page: 2 });
    expect(gatewaysListCodec.toSearchParams(state).toString()).toBe(
      'page=2&sort=region&kind=site&status=offline',
    );
    expect(toGatewaysQuery(state)).toEqual({
      limit: 25,
      offset: 25,
      sort: 'region',
      order: 'asc',
      kind: 'site',
      status: 'offline',
    });
    // The virtual screen fixes the kind, whatever the address says.
    expect(toGatewaysQuery(state, 'virtual').kind).toBe('virtual');
    // Malformed values fall back to "all".
    expect(gatewaysListCodec.parse(new URLSearchParams('kind=cgw&status=up'))).toMatchObject({
      kind: 'all',
      status: 'all',
    });
    expect(toGatewaysQuery(gatewaysListCodec.parse(new URLSearchParams()))).toEqual({
      limit: 25,
      offset: 0,
      sort: 'name',
      order: 'asc',
    });
  });
});
