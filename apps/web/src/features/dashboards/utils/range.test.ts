import { describe, expect, it } from 'vitest';
import { isoToLocal, parseRange, resolveRange, writeRange } from './range';

const NOW = Date.parse('2026-03-02T09:45:30.000Z');

describe('dashboard range', () => {
  it('reads the address, falling back to the last 24 hours', () => {
    expect(parseRange(new URLSearchParams(''))).toEqual({ range: '24h', from: '', to: '' });
    expect(parseRange(new URLSearchParams('range=7d&from=2026-03-01T09:30'))).toEqual({
      range: '7d',
      from: '',
      to: '',
    });
    expect(parseRange(new URLSearchParams('range=nonsense'))).toEqual({ range: '24h', from: '', to: '' });
    expect(parseRange(new URLSearchParams('range=custom&from=2026-03-01T09:30&to=junk'))).toEqual({
      range: 'custom',
      from: '2026-03-01T09:30',
      to: '',
    });
  });

  it('writes the range and keeps the other parameters, leaving the default out', () => {
    const written = writeRange(new URLSearchParams('tab=x&range=7d'), { range: '24h', from: '', to: '' });
    expect(written.toString()).toBe('tab=x');
    expect(
      writeRange(new URLSearchParams(), {
        range: 'custom',
        from: '2026-03-01T09:30',
        to: '2026-03-02T10:00',
      }).toString(),
    ).toBe('range=custom&from=2026-03-01T09%3A30&to=2026-03-02T10%3A00');
  });

  it('ends a preset at the next minute and starts it the preset’s length before', () => {
    expect(resolveRange({ range: '1h', from: '', to: '' }, NOW)).toEqual({
      ok: true,
      from: '2026-03-02T08:46:00.000Z',
      to: '2026-03-02T09:46:00.000Z',
    });
    expect(resolveRange({ range: '30d', from: '', to: '' }, NOW)).toMatchObject({
      from: '2026-01-31T09:46:00.000Z',
    });
  });

  it('refuses a custom range that is incomplete, inverted or too long', () => {
    expect(resolveRange({ range: 'custom', from: '2026-03-01T09:30', to: '' }, NOW)).toEqual({
      ok: false,
      reason: 'incomplete',
    });
    expect(resolveRange({ range: 'custom', from: '2026-03-02T09:30', to: '2026-03-01T09:30' }, NOW)).toEqual({
      ok: false,
      reason: 'inverted',
    });
    expect(resolveRange({ range: 'custom', from: '2024-01-01T00:00', to: '2026-03-01T09:30' }, NOW)).toEqual({
      ok: false,
      reason: 'tooLong',
    });
    const custom = resolveRange({ range: 'custom', from: '2026-03-01T09:30', to: '2026-03-02T09:30' }, NOW);
    expect(custom.ok).toBe(true);
  });

  it('writes an instant as a local date-time to the minute, rounding the end up', () => {
    const iso = new Date(2026, 2, 2, 9, 45, 30).toISOString();
    expect(isoToLocal(iso)).toBe('2026-03-02T09:45');
    expect(isoToLocal(iso, true)).toBe('2026-03-02T09:46');
  });
});
