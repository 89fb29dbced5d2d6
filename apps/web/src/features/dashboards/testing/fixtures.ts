import {
  type DecisionEvent,
  type LiveTick,
  type PrivateAccessSummary,
  type TelemetryDimension,
  type TelemetryOverview,
  type TelemetryTop,
  telemetryEndpoints,
} from '@palisade/contracts';
import { type FakeApi, fakeApi, fileResponse, keysetPage } from '../../../testing/fake-api';

export const ANN = { id: '0a1b2c3d-0000-4000-8000-000000000001', name: 'Ann Archer' };
export const BEN = { id: '0a1b2c3d-0000-4000-8000-000000000002', name: 'Ben Baker' };
export const LAPTOP = { id: '0a1b2c3d-0000-4000-8000-000000000011', name: 'Ann’s laptop' };
export const FRANKFURT = { id: '0a1b2c3d-0000-4000-8000-000000000021', name: 'Frankfurt' };
export const BERLIN = { id: '0a1b2c3d-0000-4000-8000-000000000022', name: 'Berlin office' };

/** The totals every overview answers: large enough to need thousands grouping. */
export const TOTALS: TelemetryOverview['totals'] = {
  decisions: 1_234_567,
  allowed: 1_200_000,
  blocked: 34_567,
  threats: 4_321,
  connections: 890,
  deviceEvents: 12,
  bytes: 1_500_000_000,
  users: 1_234,
  devices: 2_345,
  simulated: 0,
};

/** The overview of a range as the server answers it: three buckets from its start (per minute up to 6 h). */
export function overviewOf(from: string, to: string, simulated = 0): TelemetryOverview {
  const bucket = Date.parse(to) - Date.parse(from) <= 6 * 3_600_000 ? 'minute' : 'hour';
  const step = bucket === 'minute' ? 60_000 : 3_600_000;
  const at = (index: number) => new Date(Date.parse(from) + index * step).toISOString();
  return {
    from,
    to,
    bucket,
    totals: { ...TOTALS, simulated },
    series: [
      { at: at(0), allowed: 1_500, blocked: 12, connections: 4, bytes: 10_000 },
      { at: at(1), allowed: 0, blocked: 0, connections: 0, bytes: 0 },
      { at: at(2), allowed: 2_500, blocked: 34, connections: 6, bytes: 20_000 },
    ],
    layers: [
      { layer: 'dns', allowed: 800_000, blocked: 20_000 },
      { layer: 'network', allowed: 300_000, blocked: 10_000 },
      { layer: 'http', allowed: 100_000, blocked: 4_567 },
    ],
  };
}

const item = (value: string, allowed: number, blocked: number, label = value) => ({
  value,
  label,
  allowed,
  blocked,
});

/** The items of each dimension's top list. */
export const TOP_ITEMS: Record<TelemetryDimension, TelemetryTop['items']> = {
  destination: [item('example.com', 5_000, 10), item('malware.test', 0, 2_345)],
  category: [item('Gambling', 100, 1_234), item('News', 9_876, 0)],
  app: [item('Dropbox', 4_321, 5)],
  country: [item('DE', 10_000, 1_234), item('US', 5_000, 56), item('RU', 0, 7_890)],
  threat: [item('Phishing feed', 0, 321)],
  user: [item(ANN.id, 7_000, 70, ANN.name), item(BEN.id, 3_000, 0, BEN.name)],
  device: [item(LAPTOP.id, 6_000, 60, LAPTOP.name)],
  rule: [item('Block gambling', 0, 1_234)],
  gateway: [item(FRANKFURT.id, 12_000, 300, FRANKFURT.name)],
};

/** A decision as the drill-down lists it. */
export function makeDecision(id: string, overrides: Partial<DecisionEvent> = {}): DecisionEvent {
  return {
    id: `${FRANKFURT.id}.${id}`,
    at: '2026-03-02T09:30:00.000Z',
    source: 'gateway',
    gateway: FRANKFURT,
    user: ANN,
    device: LAPTOP,
    layer: 'dns',
    decision: 'block',
    destination: 'casino.example',
    port: null,
    protocol: null,
    category: 'Gambling',
    app: null,
    country: 'DE',
    ruleName: 'Block gambling',
    threat: null,
    bytes: 1_234,
    simulated: false,
    ...overrides,
  };
}

/** The private access of two site gateways. */
export const PRIVATE_ACCESS: PrivateAccessSummary = {
  sites: [
    {
      gateway: FRANKFURT,
      users: 1_234,
      devices: 2_000,
      sessions: 5_678,
      durationMs: 93_784_000,
      bytes: 2_500_000,
    },
    { gateway: BERLIN, users: 3, devices: 4, sessions: 5, durationMs: 65_000, bytes: 999 },
  ],
};

/** A second of the live view. */
export function makeTick(at: string, overrides: Partial<LiveTick> = {}): LiveTick {
  return {
    at,
    decisions: 1_234,
    blocked: 56,
    connections: 7,
    simulated: 0,
    destinations: [
      { value: 'example.com', events: 1_000, blocked: 6 },
      { value: 'malware.test', events: 50, blocked: 50 },
    ],
    ...overrides,
  };
}

/** Options of {@link fakeDashboardsApi}. */
export interface FakeDashboardsOptions {
  privateAccess?: PrivateAccessSummary;
  /** The decisions of the drill-down's first page; a second page follows its cursor. */
  decisions?: DecisionEvent[];
  /** How many decisions of each range were simulated (none when the query leaves them out). */
  simulated?: number;
}

/**
 * The fake API of the dashboards: the overview and top lists of any range, private access, and the decisions of
 * a drill-down in two pages (the first names a cursor, the second follows it) with their CSV export.
 */
export function fakeDashboardsApi({
  privateAccess = PRIVATE_ACCESS,
  decisions = [makeDecision('1')],
  simulated = 0,
}: FakeDashboardsOptions = {}): FakeApi {
  return fakeApi()
    .on(telemetryEndpoints.telemetryOverview, ({ query }) =>
      overviewOf(query.from, query.to, query.source === 'gateway' ? 0 : simulated),
    )
    .on(telemetryEndpoints.telemetryTop, ({ query }) => ({
      dimension: query.dimension,
      simulated: query.source === 'gateway' ? 0 : simulated,
      items: TOP_ITEMS[query.dimension]
        .filter((entry) => query.decision !== 'block' || entry.blocked > 0)
        .map((entry) => (query.decision === 'block' ? { ...entry, allowed: 0 } : entry))
        .slice(0, query.limit),
    }))
    .on(telemetryEndpoints.privateAccessSummary, () => privateAccess)
    .on(telemetryEndpoints.listDecisionEvents, ({ query }) =>
      query.cursor
        ? {
            items: [makeDecision('2', { destination: 'poker.example' })],
            total: null,
            totalIsEstimate: false,
            nextCursor: null,
          }
        : { ...keysetPage(decisions, decisions.length + 1), nextCursor: 'page2' },
    )
    .on(telemetryEndpoints.exportDecisionEvents, () => fileResponse('at,layer\r\n', 'decisions-acme.csv'));
}
