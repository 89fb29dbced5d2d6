import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLUMN_WIDTH_STEPS,
  columnWidth,
  formatDuration,
  formatDurationText,
  formatRelativeTime,
  groupThousands,
  type RelativeTimeUnit,
  relativeTime,
  roundToNearest5,
} from './format';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('formatDuration', () => {
  it.each([
    [0, { days: 0, hours: 0, minutes: 0, seconds: 0 }],
    [999, { days: 0, hours: 0, minutes: 0, seconds: 0 }],
    [1000, { days: 0, hours: 0, minutes: 0, seconds: 1 }],
    [D + 2 * H + 3 * M + 4 * S, { days: 1, hours: 2, minutes: 3, seconds: 4 }],
    [3_600_000, { days: 0, hours: 1, minutes: 0, seconds: 0 }],
    [40 * D + 23 * H + 59 * M + 59 * S + 999, { days: 40, hours: 23, minutes: 59, seconds: 59 }],
    [-5000, { days: 0, hours: 0, minutes: 0, seconds: 0 }],
    [Number.NaN, { days: 0, hours: 0, minutes: 0, seconds: 0 }],
  ])('%d ms', (ms, expected) => {
    expect(formatDuration(ms)).toEqual(expected);
  });

  it('recombines to the floored seconds, with every unit in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * D }), (ms) => {
        const { days, hours, minutes, seconds } = formatDuration(ms);
        expect(((days * 24 + hours) * 60 + minutes) * 60 + seconds).toBe(Math.floor(ms / 1000));
        expect(hours).toBeLessThan(24);
        expect(minutes).toBeLessThan(60);
        expect(seconds).toBeLessThan(60);
      }),
    );
  });
});

describe('formatDurationText', () => {
  it.each([
    [0, '0s'],
    [500, '0s'],
    [4 * S, '4s'],
    [3 * M + 4 * S, '3m 4s'],
    [D + 2 * H + 3 * M + 4 * S, '1d 2h 3m 4s'],
    [H + 5 * S, '1h 0m 5s'],
    [D, '1d 0h 0m 0s'],
  ])('%d ms → %s', (ms, expected) => {
    expect(formatDurationText(ms)).toBe(expected);
  });

  it('renders each unit through t', () => {
    const t = (unit: string, n: number) => `${n} ${unit}`;
    expect(formatDurationText(2 * H + 30 * S, t)).toBe('2 hours 0 minutes 30 seconds');
    expect(formatDurationText(0, t)).toBe('0 seconds');
  });
});

describe('relativeTime', () => {
  const now = Date.UTC(2025, 0, 1);
  it.each([
    [0, 0, 'second'],
    [59 * S, 59, 'second'],
    [60 * S, 1, 'minute'],
    [59 * M + 59 * S, 59, 'minute'],
    [H, 1, 'hour'],
    [23 * H + 59 * M, 23, 'hour'],
    [D, 1, 'day'],
    [29 * D + 23 * H, 29, 'day'],
    [30 * D, 1, 'month'],
    [59 * D, 1, 'month'],
    [60 * D, 2, 'month'],
    [364 * D, 12, 'month'],
    [365 * D, 1, 'year'],
    [3 * 365 * D + 10 * D, 3, 'year'],
  ] as const)('%d ms ago → %d %s', (ago, value, unit) => {
    expect(relativeTime(now - ago, now)).toEqual({ value, unit, isFuture: false });
    if (ago > 0) expect(relativeTime(now + ago, now)).toEqual({ value, unit, isFuture: true });
  });

  const rank: Record<RelativeTimeUnit, number> = { second: 0, minute: 1, hour: 2, day: 3, month: 4, year: 5 };

  it('is monotonic in the distance: unit never shrinks, and the value never shrinks within a unit', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 20 * 365 * D }),
        fc.nat({ max: 20 * 365 * D }),
        fc.boolean(),
        (a, b, future) => {
          const [near, far] = a <= b ? [a, b] : [b, a];
          const sign = future ? 1 : -1;
          const x = relativeTime(now + sign * near, now);
          const y = relativeTime(now + sign * far, now);
          expect(rank[y.unit]).toBeGreaterThanOrEqual(rank[x.unit]);
          if (x.unit === y.unit) expect(y.value).toBeGreaterThanOrEqual(x.value);
        },
      ),
    );
  });

  it('is symmetric in direction and never negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 * 365 * D }), (d) => {
        const past = relativeTime(now - d, now);
        const future = relativeTime(now + d, now);
        expect(past.isFuture).toBe(false);
        expect(future.isFuture).toBe(true);
        expect(future.value).toBe(past.value);
        expect(future.unit).toBe(past.unit);
        expect(past.value).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('formatRelativeTime', () => {
  const now = Date.UTC(2025, 0, 1);
  it.each([
    [now - 5 * M, 'en', '5 minutes ago'],
    [now + 2 * H, 'en', 'in 2 hours'],
    [now - D, 'en', '1 day ago'],
    [now + D, 'en', 'in 1 day'],
    [now - 400 * D, 'en', '1 year ago'],
    [now, 'en', '0 seconds ago'],
    [now - 5 * M, 'de', 'vor 5 Minuten'],
    [now + 3 * 30 * D, 'de', 'in 3 Monaten'],
  ])('%d in %s → %s', (from, locale, expected) => {
    expect(formatRelativeTime(from, now, locale)).toBe(expected);
  });
});

describe('groupThousands', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    [1234.5, '1,234.5'],
    [-1234567.125, '-1,234,567.125'],
    [0.5, '0.5'],
    [100000, '100,000'],
    [1e21, '1,000,000,000,000,000,000,000'],
    [1e-7, '1e-7'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ])('%d → %s', (n, expected) => {
    expect(groupThousands(n)).toBe(expected);
  });

  it('round-trips when the commas are removed', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(Number(groupThousands(n).replaceAll(',', ''))).toBe(n === 0 ? 0 : n);
      }),
    );
  });

  it('puts a comma before every complete group of three integer digits', () => {
    fc.assert(
      fc.property(fc.integer(), (n) => {
        const [integer] = groupThousands(n).replace('-', '').split('.');
        expect(integer).toMatch(/^\d{1,3}(,\d{3})*$/);
      }),
    );
  });
});

describe('roundToNearest5', () => {
  it.each([
    [2.5, 5],
    [7.4, 5],
    [7.5, 10],
    [-2, 0],
    [-2.5, 0],
    [-2.6, -5],
    [0, 0],
    [12, 10],
    [13, 15],
    [100, 100],
  ])('%d → %d', (n, expected) => {
    expect(roundToNearest5(n)).toBe(expected);
  });

  it('never returns -0', () => {
    expect(Object.is(roundToNearest5(-2), 0)).toBe(true);
    expect(Object.is(roundToNearest5(-0), 0)).toBe(true);
  });

  it('returns a multiple of 5 within 2.5 of n', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (n) => {
        const r = roundToNearest5(n);
        expect(Math.abs(r % 5)).toBe(0);
        expect(Math.abs(r - n)).toBeLessThanOrEqual(2.5 + 1e-6);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (n) => {
        const r = roundToNearest5(n);
        expect(roundToNearest5(r)).toBe(r);
      }),
    );
  });
});

describe('columnWidth', () => {
  it.each([
    ['', 150],
    ['Name', 150],
    ['a'.repeat(18), 150],
    ['a'.repeat(19), 200],
    ['a'.repeat(25), 200],
    ['a'.repeat(26), 235],
    ['a'.repeat(29), 235],
    ['a'.repeat(30), 250],
    ['a'.repeat(31), 250],
    ['a'.repeat(32), 300],
    ['a'.repeat(37), 300],
    ['a'.repeat(38), 304],
    ['a'.repeat(50), 400],
    ['  Name  ', 150],
    ['ü'.repeat(19), 200],
    ['😀'.repeat(18), 150],
  ])('%j → %d', (label, expected) => {
    expect(columnWidth(label)).toBe(expected);
  });

  it('always fits 8 px per character and uses the smallest step that does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (raw) => {
        const label = raw.trim();
        const need = label.length * 8;
        const width = columnWidth(label);
        expect(width).toBeGreaterThanOrEqual(need);
        if (need <= 300) {
          expect(COLUMN_WIDTH_STEPS).toContain(width);
          for (const step of COLUMN_WIDTH_STEPS) if (step < width) expect(step).toBeLessThan(need);
        } else {
          expect(width).toBe(need);
        }
      }),
    );
  });

  it('never narrows as the label grows', () => {
    fc.assert(
      fc.property(fc.nat({ max: 80 }), fc.nat({ max: 80 }), (a, b) => {
        const [short, long] = a <= b ? [a, b] : [b, a];
        expect(columnWidth('x'.repeat(long))).toBeGreaterThanOrEqual(columnWidth('x'.repeat(short)));
      }),
    );
  });
});
