import { afterEach, describe, expect, it, vi } from 'vitest';
import { GwHeartbeat } from './gateways';
import { machineBytes, machineCount, machinePercent, machineTime } from './machine-values';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('machineTime', () => {
  afterEach(() => vi.useRealTimers());

  it('takes a time from 2000 to 5 minutes ahead, kept as UTC, and refuses the rest once each', () => {
    const time = machineTime();
    expect(time.parse('2024-01-01T00:00:00+02:00')).toBe('2023-12-31T22:00:00.000Z');
    expect(time.parse('2000-01-01T00:00:00Z')).toBe('2000-01-01T00:00:00.000Z');
    for (const bad of [
      'infinity',
      '-infinity',
      '1970-01-01T00:00:00Z',
      '3000-01-01T00:00:00Z',
      'yesterday',
    ]) {
      expect(messages(time.safeParse(bad)), bad).toEqual(['validation.machineTime']);
    }
    expect(time.safeParse(new Date(Date.now() + 6 * 60_000).toISOString()).success).toBe(false);
  });

  it('reads the clock when it parses, not when the schema was made', () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
    const time = machineTime();
    const later = '2030-01-01T01:00:00.000Z';
    expect(time.safeParse(later).success).toBe(false);
    vi.setSystemTime(Date.UTC(2030, 0, 1, 1));
    expect(time.parse(later)).toBe(later);
  });
});

describe('machine numbers', () => {
  it('refuses what is not finite, negative, fractional where whole, or beyond the bound', () => {
    for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, -1, 1.5, 2 ** 60, '12']) {
      expect(messages(machineBytes().safeParse(bad)), String(bad)).toEqual(['validation.numberRange']);
    }
    expect(machineBytes().parse(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(messages(machineBytes().safeParse(undefined))).toEqual(['validation.required']);
    expect(machineCount().safeParse(1_000_001).success).toBe(false);
    expect(machinePercent().safeParse(100.5).success).toBe(false);
  });

  it('bounds every number and time of a heartbeat, JSON 1e999 included', () => {
    const beat = JSON.parse(
      '{"version":"1.0.0","enforcedVersion":null,"peers":[{"publicKey":"4Ob5eD0m0R3lEdXO5Q0b8yxeqRBAQgZYJvB9WK2P2xE=","lastHandshakeAt":"infinity","rxBytes":1e999,"txBytes":0}],' +
        '"metrics":{"cpuPercent":1,"memoryPercent":1,"throughputBps":1e999,"uptimeSeconds":1,"activePeers":1,"connectedUsers":1}}',
    );
    const result = GwHeartbeat.safeParse(beat);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'metrics.throughputBps',
      'peers.0.lastHandshakeAt',
      'peers.0.rxBytes',
    ]);
  });
});
