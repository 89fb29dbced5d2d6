import { z } from 'zod';
import { KeysetPage, KeysetPageQuery, Uuid } from './common';
import { endpoint } from './endpoint';
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

/** How long raw telemetry events are kept, in days (rollups are kept longer). */
export const TELEMETRY_RETENTION_DAYS = 30;
/** How far ahead of the server's clock an event may be dated (a gateway's clock drifts a little). */
export const TELEMETRY_MAX_FUTURE_MS = 5 * 60_000;

const Name = z.string().trim().min(1).max(253);
const Short = z.string().trim().min(1).max(100);
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
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
  activePeers: Count,
  cpuPercent: optional(z.number().min(0).max(100)),
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

// ─── The event screens ──────────────────────────────────────────────────────────────────────────────────────

const IsoDateTime = z.iso.datetime({ offset: true, message: 'validation.format' });
const Named = z.object({ id: z.string(), name: z.string() }).nullable();

/** One event as the screens show it: the gateway, user and device named (null: unknown or deleted since). */
const EventRow = z.object({
  /** `<gateway id>.<the gateway's event id>`: unique in the tenant. */
  id: z.string(),
  at: z.string(),
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
};
