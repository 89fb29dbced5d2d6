import type { Readable } from 'node:stream';
import {
  CONNECTION_CSV_COLUMNS,
  type ConnectionEvent,
  type ConnectionEventExportQuery,
  type ConnectionEventQuery,
  DEVICE_EVENT_CSV_COLUMNS,
  type DeviceEvent,
  type DeviceEventExportQuery,
  type DeviceEventQuery,
  type ErrorDetail,
  type GwEvent,
  TELEMETRY_DATA,
  TELEMETRY_MAX_FUTURE_MS,
  TELEMETRY_RETENTION_DAYS,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { invalid } from '../../lib/errors';
import { claimScheduledRun } from '../../lib/scheduled-runs';
import {
  DAY_MS,
  type EventStore,
  type ListedEvent,
  postgresEventStore,
  type StoredEvent,
} from './telemetry.repository';

/**
 * Telemetry (contracts: telemetry.ts): what the gateways post goes into the event store (telemetry.repository.ts) and
 * comes back out on the event screens; the store's days are made ahead and dropped past retention hourly.
 */

/** Per-minute rollups are kept this long (the live view and short ranges), hourly ones for long ranges. */
const MINUTE_ROLLUP_DAYS = 8;
const HOUR_ROLLUP_DAYS = 400;
/** Days made ahead of today, so ingest never waits on DDL around midnight. */
const DAYS_AHEAD = 2;

const stores = new WeakMap<Database, EventStore>();
/** The event store of a database (one per database, shared by the modules that post to it and read it). */
export function eventStoreOf(database: Database): EventStore {
  let store = stores.get(database);
  if (!store) {
    store = postgresEventStore(database);
    stores.set(database, store);
  }
  return store;
}

const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Checks each event's `data` against its kind (a line that does not fit refuses the batch, naming the line) and
 * stores the batch of one gateway: events older than the retention or dated ahead of the server's clock are not
 * kept (`rejected`); an event stored before counts as a duplicate.
 */
export async function ingestGatewayEvents(
  database: Database,
  gateway: { tenantId: string; gatewayId: string },
  events: readonly GwEvent[],
  now = Date.now(),
): Promise<{ accepted: number; duplicates: number; rejected: number }> {
  const details: ErrorDetail[] = [];
  const stored: StoredEvent[] = [];
  const oldest = dayOf(now) - (TELEMETRY_RETENTION_DAYS - 1) * DAY_MS;
  let rejected = 0;
  for (const [index, event] of events.entries()) {
    const parsed = TELEMETRY_DATA[event.kind].safeParse(event.data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 5)) {
        details.push({
          path: ['body', index + 1, 'data', ...issue.path].join('.'),
          message: 'validation.invalid',
        });
      }
      continue;
    }
    const at = Date.parse(event.at);
    if (at < oldest || at > now + TELEMETRY_MAX_FUTURE_MS) {
      rejected++;
      continue;
    }
    stored.push({ id: event.id, at: new Date(at), kind: event.kind, data: parsed.data } as StoredEvent);
  }
  if (details.length > 0) throw invalid(details.slice(0, 100));
  const store = eventStoreOf(database);
  await store.ensureDays([...new Set(stored.map((event) => dayOf(event.at.getTime())))]);
  const accepted = await store.ingest(gateway.tenantId, gateway.gatewayId, stored);
  return { accepted, duplicates: stored.length - accepted, rejected };
}

function connectionOf(row: ListedEvent): ConnectionEvent {
  return {
    id: row.id,
    at: row.at,
    gateway: row.gateway,
    user: row.user,
    device: row.device,
    action: row.action as ConnectionEvent['action'],
    peer: row.peer,
    endpoint: row.endpoint,
    durationMs: row.durationMs,
    bytesIn: row.bytesIn,
    bytesOut: row.bytesOut,
  };
}

function deviceEventOf(row: ListedEvent): DeviceEvent {
  return {
    id: row.id,
    at: row.at,
    gateway: row.gateway,
    user: row.user,
    device: row.device,
    action: row.action as DeviceEvent['action'],
    detail: row.detail,
  };
}

const filterOf = (
  kind: 'connection' | 'device',
  query: ConnectionEventExportQuery | DeviceEventExportQuery,
) => ({
  kind,
  from: query.from,
  to: query.to,
  userId: query.userId,
  deviceId: query.deviceId,
  gatewayId: query.gatewayId,
  action: query.action,
});

export async function listConnectionEvents(database: Database, ctx: Ctx, query: ConnectionEventQuery) {
  const page = await eventStoreOf(database).list(ctx.tenant.id, filterOf('connection', query), query);
  return { ...page, items: page.items.map(connectionOf) };
}

export async function listDeviceEvents(database: Database, ctx: Ctx, query: DeviceEventQuery) {
  const page = await eventStoreOf(database).list(ctx.tenant.id, filterOf('device', query), query);
  return { ...page, items: page.items.map(deviceEventOf) };
}

const EXPORT_BATCH = 1000;

/** Every event of the filters as CSV, page after page, written as the reader takes it (no row cap). */
function exportCsv<T extends Record<string, unknown>>(
  columns: readonly string[],
  pageOf: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Readable {
  const out = stringify({ header: true, columns: [...columns], escape_formulas: true });
  (async () => {
    let cursor: string | undefined;
    do {
      const page = await pageOf(cursor);
      for (const item of page.items) {
        if (!out.write(item)) await new Promise((resolve) => out.once('drain', resolve));
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

const nameOf = (named: { name: string } | null) => named?.name ?? '';

export function exportConnectionEvents(database: Database, ctx: Ctx, query: ConnectionEventExportQuery) {
  return exportCsv(CONNECTION_CSV_COLUMNS, async (cursor) => {
    const page = await listConnectionEvents(database, ctx, {
      ...query,
      limit: EXPORT_BATCH,
      offset: 0,
      cursor,
      withTotal: 'false',
    });
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((e) => ({
        ...e,
        gateway: nameOf(e.gateway),
        user: nameOf(e.user),
        device: nameOf(e.device),
      })),
    };
  });
}

export function exportDeviceEvents(database: Database, ctx: Ctx, query: DeviceEventExportQuery) {
  return exportCsv(DEVICE_EVENT_CSV_COLUMNS, async (cursor) => {
    const page = await listDeviceEvents(database, ctx, {
      ...query,
      limit: EXPORT_BATCH,
      offset: 0,
      cursor,
      withTotal: 'false',
    });
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((e) => ({
        ...e,
        gateway: nameOf(e.gateway),
        user: nameOf(e.user),
        device: nameOf(e.device),
      })),
    };
  });
}

// ─── Days ahead and retention ───────────────────────────────────────────────────────────────────────────────

const MAINTENANCE_MS = 3_600_000;

/**
 * Makes today's and the next days' partitions and drops those past retention (raw events 30 days, minute rollups
 * 8, hourly ones 400), on one instance per hour; answers the days dropped (null: another instance's turn).
 */
export async function maintainTelemetry(database: Database, now = Date.now()): Promise<string[] | null> {
  const store = eventStoreOf(database);
  const today = dayOf(now);
  await store.ensureDays(Array.from({ length: DAYS_AHEAD + 1 }, (_, i) => today + i * DAY_MS));
  if (!(await claimScheduledRun(database.db, 'telemetry-retention', MAINTENANCE_MS - 60_000))) return null;
  return store.dropBefore(
    today - (TELEMETRY_RETENTION_DAYS - 1) * DAY_MS,
    new Date(today - MINUTE_ROLLUP_DAYS * DAY_MS),
    new Date(today - HOUR_ROLLUP_DAYS * DAY_MS),
  );
}

/** Starts the hourly upkeep (at once, then every hour); answers the function that stops it. */
export function startTelemetryMaintenance(database: Database, log: FastifyBaseLogger): () => void {
  const run = () =>
    database.background(
      maintainTelemetry(database)
        .then((dropped) => {
          if (dropped?.length) log.info({ dropped }, 'dropped telemetry days past retention');
        })
        .catch((err: unknown) => log.error({ err }, 'telemetry upkeep failed')),
    );
  run();
  const timer = setInterval(run, MAINTENANCE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
