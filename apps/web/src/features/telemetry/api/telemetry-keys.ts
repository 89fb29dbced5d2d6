import type {
  ConnectionEventExportQuery,
  ConnectionEventQuery,
  DeviceEventExportQuery,
  DeviceEventQuery,
} from '@palisade/contracts';

/** The list queries as the screens send them: every field may be left to the contract's default. */
export type ConnectionEventsParams = Partial<ConnectionEventQuery>;
export type DeviceEventsParams = Partial<DeviceEventQuery>;
/** The export queries: the lists' filters and order, every page. */
export type ConnectionEventsExportParams = Partial<ConnectionEventExportQuery>;
export type DeviceEventsExportParams = Partial<DeviceEventExportQuery>;

/** The two event screens. */
export type TelemetryKind = 'connections' | 'devices';

/**
 * Query keys of the event screens, all under `['tenant', tenant, 'telemetry']`, so a tenant switch never shows
 * another tenant's cache.
 */
export const telemetryKeys = {
  all: (tenant: string) => ['tenant', tenant, 'telemetry'] as const,
  lists: (tenant: string, kind: TelemetryKind) => ['tenant', tenant, 'telemetry', kind, 'list'] as const,
  list: (tenant: string, kind: TelemetryKind, query: ConnectionEventsParams | DeviceEventsParams) =>
    ['tenant', tenant, 'telemetry', kind, 'list', query] as const,
  /** The choices of the user, device and gateway filters (`q`: the search text; `id`: one picked entry). */
  options: (tenant: string, entity: 'users' | 'devices' | 'gateways', q: string) =>
    ['tenant', tenant, 'telemetry', 'options', entity, q] as const,
  option: (tenant: string, entity: 'users' | 'devices' | 'gateways', id: string) =>
    ['tenant', tenant, 'telemetry', 'option', entity, id] as const,
};
