import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
import {
  MACHINE_CLOCK_SKEW_MS,
  machineBytes,
  machineCount,
  machinePercent,
  machineTime,
} from './machine-values';
import { DECISIONS } from './policies';
import { TenantParams } from './tenants';

/**
 * Telemetry (issue 12): what the gateways saw, as they post it (`POST /api/gw/events`, one NDJSON line per event:
 * `{id, at, kind, data}`) and as the event screens show it. Each kind has its own `data`:
 * - `connection`: a device connected or disconnected, a tunnel came up or went down (with how long it lasted);
 * - `decision`: what the policy decided for one DNS, network or HTTP request;
 * - `device`: something happened to a device (enrolled, key rotated, posture changed, upgraded);
 * - `metric`: the gateway's load.
 * Unknown fields of `data` are dropped; a line whose `data` does not fit its kind is refused with the batch.
 */

export const DECISION_LAYERS = ['dns', 'network', 'http'] as const;
export type DecisionLayer = (typeof DECISION_LAYERS)[number];
export const CONNECTION_ACTIONS = ['connected', 'disconnected', 'tunnel_up', 'tunnel_down'] as const;
export type ConnectionAction = (typeof CONNECTION_ACTIONS)[number];
export const DEVICE_EVENT_ACTIONS = ['enrolled', 'key_rotated', 'posture_changed', 'upgraded'] as const;
export type DeviceEventAction = (typeof DEVICE_EVENT_ACTIONS)[number];
/**
 * Who made a decision event: `gateway` — the gateway saw the request (Unbound's log, NFLOG, squid's access log);
 * `simulated` — `--simulate-traffic` made it up for a demo or a benchmark. The console marks simulated figures and
 * can leave them out.
 */
export const TELEMETRY_SOURCES = ['gateway', 'simulated'] as const;
export type TelemetrySource = (typeof TELEMETRY_SOURCES)[number];

/** How long raw telemetry events are kept, in days (rollups are kept longer). */
export const TELEMETRY_RETENTION_DAYS = 30;
/**
 * How far ahead of the server's clock an event may be dated (a gateway's clock drifts a little); a line dated
 * further ahead, or before 2000, is refused with its batch (machine-values.ts).
 */
export const TELEMETRY_MAX_FUTURE_MS = MACHINE_CLOCK_SKEW_MS;

const Name = z.string().trim().min(1).max(253);
const Short = z.string().trim().min(1).max(100);
/** Bytes and milliseconds a gateway counts: whole, from 0 to 2^53 − 1 (machine-values.ts). */
const Count = machineBytes();
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const ConnectionEventData = z.object({
  action: z.enum(CONNECTION_ACTIONS),
  deviceId: optional(Uuid),
  userId: optional(Uuid),
  /** The device's or the peer gateway's WireGuard public key. */
  peer: optional(z.string().max(64)),
  /** Where the tunnel's packets came from (`203.0.113.7:51820`). */
  endpoint: optional(z.string().max(64)),
  /** On `disconnected` and `tunnel_down`: how long it was up. */
  durationMs: optional(Count),
  bytesIn: optional(Count),
  bytesOut: optional(Count),
});
export type ConnectionEventData = z.infer<typeof ConnectionEventData>;

export const DecisionEventData = z.object({
  layer: z.enum(DECISION_LAYERS),
  decision: z.enum(DECISIONS),
  /** A host name (DNS, HTTP) or an address (network). */
  destination: Name,
  port: optional(z.number().int().min(1).max(65535)),
  protocol: optional(z.enum(['tcp', 'udp', 'icmp'])),
  userId: optional(Uuid),
  deviceId: optional(Uuid),
  category: optional(Short),
  app: optional(Short),
  /** ISO 3166-1 alpha-2 of the destination. */
  country: optional(z.string().regex(/^[A-Z]{2}$/)),
  /** The deciding rule, if one decided (else the default). */
  ruleId: optional(Short),
  ruleName: optional(Short),
  /** The threat-intelligence feed that named the destination. */
  threat: optional(Short),
  bytes: optional(Count),
  /** Seen by the gateway (the default when absent) or made up by `--simulate-traffic`. */
  source: optional(z.enum(TELEMETRY_SOURCES)),
});
export type DecisionEventData = z.infer<typeof DecisionEventData>;

export const DeviceEventData = z.object({
  action: z.enum(DEVICE_EVENT_ACTIONS),
  deviceId: Uuid,
  userId: optional(Uuid),
  /** What changed, in words a person reads (`agent 1.4.2 → 1.5.0`, `disk encryption off`). */
  detail: optional(z.string().max(500)),
});
export type DeviceEventData = z.infer<typeof DeviceEventData>;

export const MetricEventData = z.object({
  throughputBps: Count,
  activePeers: machineCount(),
  cpuPercent: optional(machinePercent()),
  memoryBytes: optional(Count),
});
export type MetricEventData = z.infer<typeof MetricEventData>;

/** The `data` of each kind. */
export const TELEMETRY_DATA = {
  connection: ConnectionEventData,
  decision: DecisionEventData,
  device: DeviceEventData,
  metric: MetricEventData,
} as const;

/**
 * One line of a `POST /gw/events` batch with its `data` checked against its kind, in one pass (the wire shape is
 * `GwEvent` of gateways.ts; this is what the server stores).
 */
const lineOf = <K extends keyof typeof TELEMETRY_DATA>(kind: K) =>
  z.object({
    id: z.string().min(1).max(64),
    /** From 2000 to 5 minutes ahead of the server's clock, read when the line is checked. */
    at: machineTime(),
    kind: z.literal(kind),
    data: TELEMETRY_DATA[kind],
  });
export const TelemetryLine = z.discriminatedUnion('kind', [
  lineOf('connection'),
  lineOf('decision'),
  lineOf('device'),
  lineOf('metric'),
]);
export type TelemetryLine = z.infer<typeof TelemetryLine>;

// ─── The event screens ──────────────────────────────────────────────────────────────────────────────────────

const IsoDateTime = z.iso.datetime({ offset: true, message: 'validation.format' });
const Named = z.object({ id: z.string(), name: z.string() }).nullable();

/** One event as the screens show it: the gateway, user and device named (null: unknown or deleted since). */
const EventRow = z.object({
  /** `<gateway id>.<the gateway's event id>`: unique in the tenant. */
  id: z.string(),
  at: z.string(),
  /** Who saw it: a gateway (named in `gateway`, null when deleted since), or the console itself. */
  source: z.enum(['gateway', 'console']),
  gateway: Named,
  user: Named,
  device: Named,
});

export const ConnectionEvent = EventRow.extend({
  action: z.enum(CONNECTION_ACTIONS),
  peer: z.string().nullable(),
  endpoint: z.string().nullable(),
  durationMs: z.number().nullable(),
  bytesIn: z.number().nullable(),
  bytesOut: z.number().nullable(),
});
export type ConnectionEvent = z.infer<typeof ConnectionEvent>;

export const DeviceEvent = EventRow.extend({
  action: z.enum(DEVICE_EVENT_ACTIONS),
  detail: z.string().nullable(),
});
export type DeviceEvent = z.infer<typeof DeviceEvent>;

/** `from` must not be after `to`. */
const orderedRange = (value: { from?: string; to?: string }) =>
  !value.from || !value.to || Date.parse(value.from) <= Date.parse(value.to);
const rangeIssue = { message: 'validation.invalid', path: ['to'] };

/** Filters of both event screens, shared by the list and the export (newest first, or oldest with `order=asc`). */
const filterFields = {
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  userId: Uuid.optional(),
  deviceId: Uuid.optional(),
  gatewayId: Uuid.optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
};

export const ConnectionEventQuery = KeysetPageQuery.omit({ q: true, order: true })
  .extend({ ...filterFields, action: z.enum(CONNECTION_ACTIONS).optional() })
  .refine(orderedRange, rangeIssue);
export type ConnectionEventQuery = z.infer<typeof ConnectionEventQuery>;
export const ConnectionEventExportQuery = z
  .object({ ...filterFields, action: z.enum(CONNECTION_ACTIONS).optional() })
  .refine(orderedRange, rangeIssue);
export type ConnectionEventExportQuery = z.infer<typeof ConnectionEventExportQuery>;

export const DeviceEventQuery = KeysetPageQuery.omit({ q: true, order: true })
  .extend({ ...filterFields, action: z.enum(DEVICE_EVENT_ACTIONS).optional() })
  .refine(orderedRange, rangeIssue);
export type DeviceEventQuery = z.infer<typeof DeviceEventQuery>;
export const DeviceEventExportQuery = z
  .object({ ...filterFields, action: z.enum(DEVICE_EVENT_ACTIONS).optional() })
  .refine(orderedRange, rangeIssue);
export type DeviceEventExportQuery = z.infer<typeof DeviceEventExportQuery>;

export const DecisionEvent = EventRow.extend({
  layer: z.enum(DECISION_LAYERS),
  decision: z.enum(DECISIONS),
  destination: z.string(),
  port: z.number().nullable(),
  protocol: z.string().nullable(),
  category: z.string().nullable(),
  app: z.string().nullable(),
  country: z.string().nullable(),
  ruleName: z.string().nullable(),
  threat: z.string().nullable(),
  bytes: z.number().nullable(),
  /** Made up by `--simulate-traffic`, not seen on real traffic. */
  simulated: z.boolean(),
});
export type DecisionEvent = z.infer<typeof DecisionEvent>;

/** The decisions a chart's segment stands for (its drill-down): the event filters and the dimension's value. */
const decisionFilterFields = {
  ...filterFields,
  layer: z.enum(DECISION_LAYERS).optional(),
  decision: z.enum(DECISIONS).optional(),
  destination: z.string().trim().toLowerCase().max(253).optional(),
  category: z.string().trim().max(100).optional(),
  app: z.string().trim().max(100).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'validation.format' })
    .optional(),
  threat: z.string().trim().max(100).optional(),
  rule: z.string().trim().max(100).optional(),
  /** Only what the gateways saw (`gateway`) or only simulated decisions; both when absent. */
  source: z.enum(TELEMETRY_SOURCES).optional(),
};
export const DecisionEventQuery = KeysetPageQuery.omit({ q: true, order: true })
  .extend(decisionFilterFields)
  .refine(orderedRange, rangeIssue);
export type DecisionEventQuery = z.infer<typeof DecisionEventQuery>;
export const DecisionEventExportQuery = z.object(decisionFilterFields).refine(orderedRange, rangeIssue);
export type DecisionEventExportQuery = z.infer<typeof DecisionEventExportQuery>;

// ─── Dashboards ─────────────────────────────────────────────────────────────────────────────────────────────

/** The most a dashboard range spans (the hourly rollups' retention). */
export const MAX_DASHBOARD_RANGE_DAYS = 400;
/** Ranges up to this many hours are drawn per minute (from the per-minute rollups), longer ones per hour. */
export const MINUTE_BUCKETS_UP_TO_HOURS = 6;

/** A dashboard's time range: both ends required, `from` before `to`, at most {@link MAX_DASHBOARD_RANGE_DAYS}. */
export const TelemetryRange = z
  .object({ from: IsoDateTime, to: IsoDateTime })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), rangeIssue)
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= MAX_DASHBOARD_RANGE_DAYS * 86_400_000, {
    message: 'validation.tooLong',
    path: ['from'],
  });
export type TelemetryRange = z.infer<typeof TelemetryRange>;

/** A decision dashboard's range and whose decisions it counts: both sources when `source` is absent. */
export const TelemetryQuery = TelemetryRange.and(z.object({ source: z.enum(TELEMETRY_SOURCES).optional() }));
export type TelemetryQuery = z.infer<typeof TelemetryQuery>;

/** One bucket of a series: its start, the decisions allowed and blocked, the connections, the bytes. */
export const SeriesPoint = z.object({
  at: z.string(),
  allowed: z.number(),
  blocked: z.number(),
  connections: z.number(),
  bytes: z.number(),
});
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const TelemetryOverview = z.object({
  from: z.string(),
  to: z.string(),
  /** The series' bucket: a minute for ranges up to 6 hours, an hour beyond. */
  bucket: z.enum(['minute', 'hour']),
  totals: z.object({
    decisions: z.number(),
    allowed: z.number(),
    blocked: z.number(),
    /** Decisions a threat-intelligence feed named. */
    threats: z.number(),
    connections: z.number(),
    deviceEvents: z.number(),
    bytes: z.number(),
    /** Distinct users and devices with a decision in the range. */
    users: z.number(),
    devices: z.number(),
    /** Of `decisions`, how many `--simulate-traffic` made up (the screens mark the figures when not 0). */
    simulated: z.number(),
  }),
  /** Every bucket of the range, empty ones as zeros. */
  series: z.array(SeriesPoint),
  layers: z.array(z.object({ layer: z.enum(DECISION_LAYERS), allowed: z.number(), blocked: z.number() })),
});
export type TelemetryOverview = z.infer<typeof TelemetryOverview>;

export const TELEMETRY_DIMENSIONS = [
  'destination',
  'category',
  'app',
  'country',
  'threat',
  'user',
  'device',
  'rule',
  'gateway',
] as const;
export type TelemetryDimension = (typeof TELEMETRY_DIMENSIONS)[number];

export const TelemetryTopQuery = TelemetryRange.and(
  z.object({
    dimension: z.enum(TELEMETRY_DIMENSIONS),
    /** Only decisions of one verdict; both when absent. */
    decision: z.enum(DECISIONS).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    source: z.enum(TELEMETRY_SOURCES).optional(),
  }),
);
export type TelemetryTopQuery = z.infer<typeof TelemetryTopQuery>;

/** The values of a dimension with the most decisions in the range (users, devices and gateways named). */
export const TelemetryTop = z.object({
  dimension: z.enum(TELEMETRY_DIMENSIONS),
  items: z.array(
    z.object({
      /** What the drill-down filters on (an id for users, devices and gateways). */
      value: z.string(),
      /** What is shown: the value, or the user's, device's or gateway's name. */
      label: z.string(),
      allowed: z.number(),
      blocked: z.number(),
    }),
  ),
  /** Decisions of the range (of the source asked) that `--simulate-traffic` made up: the list is marked when not 0. */
  simulated: z.number(),
});
export type TelemetryTop = z.infer<typeof TelemetryTop>;

/** Secure private access: per site gateway, the users and devices connected in the range and their sessions. */
export const PrivateAccessSummary = z.object({
  sites: z.array(
    z.object({
      gateway: z.object({ id: z.string(), name: z.string() }),
      users: z.number(),
      devices: z.number(),
      sessions: z.number(),
      /** Summed durations of the sessions that ended in the range. */
      durationMs: z.number(),
      bytes: z.number(),
    }),
  ),
});
export type PrivateAccessSummary = z.infer<typeof PrivateAccessSummary>;

/** Whose decisions the live view counts: only what the gateways saw (`gateway`), or all (absent). */
export const LiveQuery = z.object({ source: z.enum(['gateway']).optional() });
export type LiveQuery = z.infer<typeof LiveQuery>;

/** One second of the live view (server-sent events, `event: tick`): what the gateways posted in it. */
export const LiveTick = z.object({
  at: z.string(),
  decisions: z.number(),
  blocked: z.number(),
  connections: z.number(),
  /** Of `decisions`, how many were simulated (`--simulate-traffic`). */
  simulated: z.number(),
  /** The destinations of this second's decisions, most first (at most 10). */
  destinations: z.array(z.object({ value: z.string(), events: z.number(), blocked: z.number() })),
});
export type LiveTick = z.infer<typeof LiveTick>;

export const CONNECTION_CSV_COLUMNS = [
  'at',
  'action',
  'gateway',
  'user',
  'device',
  'peer',
  'endpoint',
  'durationMs',
  'bytesIn',
  'bytesOut',
] as const;
export const DEVICE_EVENT_CSV_COLUMNS = ['at', 'action', 'gateway', 'user', 'device', 'detail'] as const;
export const DECISION_CSV_COLUMNS = [
  'at',
  'layer',
  'decision',
  'destination',
  'port',
  'protocol',
  'category',
  'app',
  'country',
  'ruleName',
  'threat',
  'gateway',
  'user',
  'device',
  'bytes',
] as const;

export const telemetryEndpoints = {
  listConnectionEvents: endpoint({
    method: 'GET',
    path: '/events/connections/:tenant',
    access: 'events:view',
    summary:
      'Devices connecting and disconnecting, tunnels up and down, as the gateways saw them (newest first)',
    tags: ['events'],
    params: TenantParams,
    query: ConnectionEventQuery,
    response: KeysetPage(ConnectionEvent),
  }),
  exportConnectionEvents: endpoint({
    method: 'GET',
    path: '/events/connections/:tenant/export',
    access: 'events:view',
    summary: 'Every connection event of the filters as CSV, streamed',
    tags: ['events'],
    params: TenantParams,
    query: ConnectionEventExportQuery,
    response: z.string(),
  }),
  listDeviceEvents: endpoint({
    method: 'GET',
    path: '/events/devices/:tenant',
    access: 'events:view',
    summary: 'Devices enrolled, keys rotated, posture changed, agents upgraded (newest first)',
    tags: ['events'],
    params: TenantParams,
    query: DeviceEventQuery,
    response: KeysetPage(DeviceEvent),
  }),
  exportDeviceEvents: endpoint({
    method: 'GET',
    path: '/events/devices/:tenant/export',
    access: 'events:view',
    summary: 'Every device event of the filters as CSV, streamed',
    tags: ['events'],
    params: TenantParams,
    query: DeviceEventExportQuery,
    response: z.string(),
  }),
  listDecisionEvents: endpoint({
    method: 'GET',
    path: '/events/decisions/:tenant',
    access: 'events:view',
    summary:
      'What the policy decided for DNS, network and HTTP requests (a chart’s drill-down), newest first',
    tags: ['events'],
    params: TenantParams,
    query: DecisionEventQuery,
    response: KeysetPage(DecisionEvent),
  }),
  exportDecisionEvents: endpoint({
    method: 'GET',
    path: '/events/decisions/:tenant/export',
    access: 'events:view',
    summary: 'Every decision of the filters as CSV, streamed',
    tags: ['events'],
    params: TenantParams,
    query: DecisionEventExportQuery,
    response: z.string(),
  }),
  telemetryOverview: endpoint({
    method: 'GET',
    path: '/telemetry/:tenant/overview',
    access: 'dashboard:view',
    summary: 'Totals, the series (per minute up to 6 h, per hour beyond) and the layers of a time range',
    tags: ['dashboards'],
    params: TenantParams,
    query: TelemetryQuery,
    response: TelemetryOverview,
  }),
  telemetryTop: endpoint({
    method: 'GET',
    path: '/telemetry/:tenant/top',
    access: 'dashboard:view',
    summary:
      'The destinations, categories, apps, countries, threats, users, devices, rules or gateways with most decisions',
    tags: ['dashboards'],
    params: TenantParams,
    query: TelemetryTopQuery,
    response: TelemetryTop,
  }),
  privateAccessSummary: endpoint({
    method: 'GET',
    path: '/telemetry/:tenant/private-access',
    access: 'dashboard:view',
    summary: 'Per site gateway: users, devices, sessions, their durations and bytes in a time range',
    tags: ['dashboards'],
    params: TenantParams,
    query: TelemetryRange,
    response: PrivateAccessSummary,
  }),
  liveTelemetry: endpoint({
    method: 'GET',
    path: '/telemetry/:tenant/live',
    access: 'dashboard:view',
    summary: 'Server-sent events: one `tick` (LiveTick) per second with what the gateways posted in it',
    tags: ['dashboards'],
    params: TenantParams,
    query: LiveQuery,
    response: z.string(),
  }),
};
