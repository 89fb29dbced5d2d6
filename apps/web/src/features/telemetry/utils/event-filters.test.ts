import { CONNECTION_ACTIONS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { telemetryListCodec, toFilterQuery, toListQuery } from './event-filters';

const codec = telemetryListCodec(CONNECTION_ACTIONS);
const ID = '11111111-1111-4111-8111-111111111111';
const NOW = Date.parse('2026-03-10T12:00:00.000Z');

describe('event screen address', () => {
  it('falls back to the defaults for anything missing or malformed, and leaves defaults out', () => {
    const state = codec.parse(
      new URLSearchParams(
        'page=0&size=7&order=up&range=2y&userId=nope&action=enrolled&from=2026-03-01T09:30',
      ),
    );
    expect(state).toEqual({
      page: 1,
      pageSize: 25,
      order: 'desc',
      range: '24h',
      from: '',
      to: '',
      userId: '',
      deviceId: '',
      gatewayId: '',
      action: '',
    });
    expect(codec.toSearchParams(state).toString()).toBe('');
  });

  it('round-trips a custom range with filters, paging and order', () => {
    const search = `range=custom&from=2026-03-01T09%3A30&to=2026-03-02T18%3A00&userId=${ID}&action=tunnel_down&page=3&size=50&order=asc`;
    expect(codec.toSearchParams(codec.parse(new URLSearchParams(search))).toString()).toBe(search);
  });

  it('counts a preset back from the given moment and leaves its end open', () => {
    const state = codec.parse(new URLSearchParams(`range=1h&deviceId=${ID}&page=2`));
    expect(toListQuery(state, NOW)).toEqual({
      limit: 25,
      offset: 25,
      order: 'desc',
      from: '2026-03-10T11:00:00.000Z',
      deviceId: ID,
    });
  });

  it('sends no end before the start of a custom range', () => {
    const state = codec.parse(new URLSearchParams('range=custom&from=2026-03-02T00:00&to=2026-03-01T00:00'));
    expect(toFilterQuery(state, NOW)).toEqual({
      order: 'desc',
      from: new Date('2026-03-02T00:00').toISOString(),
    });
  });
});
