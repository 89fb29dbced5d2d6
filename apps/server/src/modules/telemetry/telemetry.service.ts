import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  CONNECTION_CSV_COLUMNS,
  CONTROL_CHARACTER_MESSAGE,
  type ConnectionEvent,
  type ConnectionEventExportQuery,
  type ConnectionEventQuery,
  controlCharacterPaths,
  DECISION_CSV_COLUMNS,
  DEVICE_EVENT_CSV_COLUMNS,
  type DecisionEvent,
  type DecisionEventExportQuery,
  type DecisionEventQuery,
  type DeviceEvent,
  type DeviceEventData,
  type DeviceEventExportQuery,
  type DeviceEventQuery,
  ERRORS,
  type ErrorDetail,
  type ErrorEnvelope,
  GW_EVENTS_MAX_BATCH,
  type LiveTick,
  MINUTE_BUCKETS_UP_TO_HOURS,
  NUL_BYTE_MESSAGE,
  nulBytePaths,
  type PrivateAccessSummary,
  SITE_GATEWAY_KINDS,
  TELEMETRY_DATA,
  TELEMETRY_MAX_FUTURE_MS,
  TELEMETRY_RETENTION_DAYS,
  TelemetryLine,
  type TelemetryOverview,
  type TelemetryQuery,
  type TelemetryRange,
  type TelemetryTop,
  type TelemetryTopQuery,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { type ChangeBus, subjectsOf, watchCredential } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, invalid } from '../../lib/errors';
import { claimScheduledRun } from '../../lib/scheduled-runs';
import {
  DAY_MS,
  type EventStore,
  type ListedEvent,
  postgresEventStore,
  type StoredEvent,
  TELEMETRY_TOPIC,
} from './telemetry.repository';
import { appendBatch, startStreamConsumer } from './telemetry.stream';

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

/** A C0 control character in a raw NDJSON line; tab is JSON whitespace, a CR ends a CRLF line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW_CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f]/;
/** Our own messages (`validation.machineTime`, …) are kept; zod's own become `validation.invalid`. */
const lineMessage = (message: string) => (message.startsWith('validation.') ? message : 'validation.invalid');

/**
 * Checks an NDJSON batch of `POST /gw/events` before anything of it is acknowledged, appended to the stream or
 * written: every line must be JSON of a {@link TelemetryLine} (its kind's `data` in the same pass), hold no
 * control character (raw, or decoded from a `\u0000`-style escape in any string: PostgreSQL text cannot hold NUL,
 * and nothing a gateway names contains the others), and be dated as a machine's clock can be. Every bad line is a
 * 400 detail on `body.<line>` (`body.2.data.action`), and nothing is stored.
 */
export function parseEventLines(body: unknown): TelemetryLine[] {
  if (typeof body !== 'string' || body.trim() === '')
    throw invalid([{ path: 'body', message: 'validation.required' }]);
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > GW_EVENTS_MAX_BATCH) throw invalid([{ path: 'body', message: 'validation.tooMany' }]);
  const events: TelemetryLine[] = [];
  const details: ErrorDetail[] = [];
  for (const [index, raw] of lines.entries()) {
    const at = `body.${index + 1}`;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (RAW_CONTROL_CHARACTER.test(line)) {
      details.push({
        path: at,
        message: line.includes('\u0000') ? NUL_BYTE_MESSAGE : CONTROL_CHARACTER_MESSAGE,
      });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      details.push({ path: at, message: 'validation.invalid' });
      continue;
    }
    const nul = nulBytePaths(value, at);
    const control = controlCharacterPaths(value, at).filter((path) => !nul.includes(path));
    if (nul.length > 0 || control.length > 0) {
      for (const path of nul.slice(0, 5)) details.push({ path, message: NUL_BYTE_MESSAGE });
      for (const path of control.slice(0, 5)) details.push({ path, message: CONTROL_CHARACTER_MESSAGE });
      continue;
    }
    // The line and its kind's `data` in one pass; each problem named by its place (`body.2.data.action`).
    const parsed = TelemetryLine.safeParse(value);
    if (parsed.success) events.push(parsed.data);
    else {
      for (const issue of parsed.error.issues.slice(0, 5)) {
        details.push({ path: [at, ...issue.path].join('.'), message: lineMessage(issue.message) });
      }
    }
  }
  if (details.length > 0) throw invalid(details.slice(0, 100));
  return events;
}

/**
 * Stores the batch of one gateway, its lines already checked against their kinds (`TelemetryLine`): events older
 * than the retention or dated ahead of the server's clock are not kept (`rejected`); an event stored before counts
 * as a duplicate.
 */
export async function ingestGatewayEvents(
  database: Database,
  gateway: { tenantId: string; gatewayId: string },
  events: readonly TelemetryLine[],
  now = Date.now(),
): Promise<{ accepted: number; duplicates: number; rejected: number }> {
  const stored: StoredEvent[] = [];
  const oldest = dayOf(now) - (TELEMETRY_RETENTION_DAYS - 1) * DAY_MS;
  for (const event of events) {
    const at = Date.parse(event.at);
    if (at >= oldest && at <= now + TELEMETRY_MAX_FUTURE_MS) stored.push({ ...event, at: new Date(at) });
  }
  const rejected = events.length - stored.length;
  const batch = { tenantId: gateway.tenantId, gatewayId: gateway.gatewayId, events: stored };
  // Through the Redis stream when there is one: taken (and written by a consumer), duplicates not known yet.
  if (stored.length > 0 && (await appendBatch(database, batch))) {
    return { accepted: stored.length, duplicates: 0, rejected };
  }
  const accepted = await writeBatch(database, batch);
  return { accepted, duplicates: stored.length - accepted, rejected };
}

/** The most events one statement writes when it takes the batches that waited together. */
const MERGED_EVENTS_MAX = 20_000;
/**
 * How many statements of one tenant run at once: two keep both cores of a small instance busy (one statement's
 * raw insert runs while the other updates its rollups) without letting one tenant take every connection.
 */
const WRITERS_PER_TENANT = 2;

interface Waiting {
  gatewayId: string;
  events: readonly StoredEvent[];
  resolve: (accepted: number) => void;
  reject: (error: unknown) => void;
}
/** A tenant's batches waiting for a writer, and how many writers are running. */
interface TenantQueue {
  queue: Waiting[];
  writers: number;
}
/** Per database, per tenant: the batches waiting to be written. */
const waiting = new WeakMap<Database, Map<string, TenantQueue>>();

/**
 * Writes one gateway's checked batch to the event store; answers how many events were new once they are committed.
 * A tenant's batches are written by at most {@link WRITERS_PER_TENANT} statements at a time, and those that
 * arrive meanwhile go together into the next (one batch per gateway each, at most {@link MERGED_EVENTS_MAX}
 * events): fewer, larger statements share their rollup rows and commits.
 */
export function writeBatch(
  database: Database,
  batch: { tenantId: string; gatewayId: string; events: readonly StoredEvent[] },
): Promise<number> {
  if (batch.events.length === 0) return Promise.resolve(0);
  let tenants = waiting.get(database);
  if (!tenants) {
    tenants = new Map();
    waiting.set(database, tenants);
  }
  let tenant = tenants.get(batch.tenantId);
  if (!tenant) {
    tenant = { queue: [], writers: 0 };
    tenants.set(batch.tenantId, tenant);
  }
  const queued = tenant;
  return new Promise<number>((resolve, reject) => {
    queued.queue.push({ gatewayId: batch.gatewayId, events: batch.events, resolve, reject });
    if (queued.writers < WRITERS_PER_TENANT) {
      queued.writers++;
      void drain(database, tenants, batch.tenantId, queued);
    }
  });
}

/** The batches of `queue` one statement takes: one per gateway, at most {@link MERGED_EVENTS_MAX} events. */
function take(queue: Waiting[]): Waiting[] {
  const taken: Waiting[] = [];
  const gateways = new Set<string>();
  let size = 0;
  for (let i = 0; i < queue.length; ) {
    const w = queue[i];
    if (taken.length > 0 && (gateways.has(w.gatewayId) || size + w.events.length > MERGED_EVENTS_MAX)) {
      i++;
      continue;
    }
    taken.push(w);
    gateways.add(w.gatewayId);
    size += w.events.length;
    queue.splice(i, 1);
  }
  return taken;
}

/** One writer of a tenant: writes what waits, statement after statement, until nothing does. */
async function drain(
  database: Database,
  tenants: Map<string, TenantQueue>,
  tenantId: string,
  tenant: TenantQueue,
) {
  const store = eventStoreOf(database);
  const write = async (taken: readonly Waiting[]) => {
    const days = new Set(taken.flatMap((w) => w.events.map((event) => dayOf(event.at.getTime()))));
    await store.ensureDays([...days]);
    const accepted = await store.ingest(tenantId, taken);
    for (const [i, w] of taken.entries()) w.resolve(accepted[i]);
  };
  while (tenant.queue.length > 0) {
    const taken = take(tenant.queue);
    try {
      await write(taken);
    } catch (error) {
      // One batch's failure must not fail the others it was written with: each on its own then.
      if (taken.length === 1) taken[0].reject(error);
      else {
        for (const w of taken) await write([w]).catch(w.reject);
      }
    }
  }
  tenant.writers--;
  if (tenant.writers === 0) tenants.delete(tenantId);
}

/**
 * The source id of the events the console records itself (a device enrolled, its key rotated, its posture
 * changed, its agent upgraded): telemetry_events.gateway_id is part of the key and cannot be NULL, so these events
 * carry the nil uuid, which names no gateway; the event screens show them without a gateway.
 */
export const CONSOLE_SOURCE = '00000000-0000-0000-0000-000000000000';

/** An event the console records itself: its kind and data (checked), and when (now unless given). */
export type ConsoleEvent = { kind: 'device'; data: DeviceEventData; at?: Date };

/** Stores events the console itself saw, through the same path as a gateway's batch; answers how many. */
export async function recordConsoleEvents(
  database: Database,
  tenantId: string,
  events: readonly ConsoleEvent[],
  now = Date.now(),
): Promise<number> {
  if (events.length === 0) return 0;
  const stored = events.map(
    (event): StoredEvent => ({
      id: randomUUID(),
      at: event.at ?? new Date(now),
      kind: event.kind,
      data: TELEMETRY_DATA[event.kind].parse(event.data),
    }),
  );
  const batch = { tenantId, gatewayId: CONSOLE_SOURCE, events: stored };
  if (await appendBatch(database, batch)) return stored.length;
  return writeBatch(database, batch);
}

/** Who saw an event (the console's own carry {@link CONSOLE_SOURCE}) and the gateway that posted it. */
const sourceOf = (row: ListedEvent) =>
  row.gateway?.id === CONSOLE_SOURCE
    ? { source: 'console' as const, gateway: null }
    : { source: 'gateway' as const, gateway: row.gateway };

function connectionOf(row: ListedEvent): ConnectionEvent {
  return {
    id: row.id,
    at: row.at,
    ...sourceOf(row),
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
    ...sourceOf(row),
    user: row.user,
    device: row.device,
    action: row.action as DeviceEvent['action'],
    detail: row.detail,
  };
}

function decisionOf(row: ListedEvent): DecisionEvent {
  return {
    id: row.id,
    at: row.at,
    ...sourceOf(row),
    user: row.user,
    device: row.device,
    layer: row.layer as DecisionEvent['layer'],
    decision: row.action as DecisionEvent['decision'],
    destination: row.destination ?? '',
    port: row.port,
    protocol: row.protocol,
    category: row.category,
    app: row.app,
    country: row.country,
    ruleName: row.ruleName,
    threat: row.threat,
    bytes: row.bytesIn,
    simulated: row.simulated,
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

const decisionFilterOf = (query: DecisionEventExportQuery) => ({
  kind: 'decision' as const,
  from: query.from,
  to: query.to,
  userId: query.userId,
  deviceId: query.deviceId,
  gatewayId: query.gatewayId,
  layer: query.layer,
  decision: query.decision,
  destination: query.destination,
  category: query.category,
  app: query.app,
  country: query.country,
  threat: query.threat,
  rule: query.rule,
  source: query.source,
});

export async function listDecisionEvents(database: Database, ctx: Ctx, query: DecisionEventQuery) {
  const page = await eventStoreOf(database).list(ctx.tenant.id, decisionFilterOf(query), query);
  return { ...page, items: page.items.map(decisionOf) };
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

type Named = { name: string } | null;

/** The CSV of a list, page after page: the gateway, user and device by name. */
function exportNamed<T extends { source: 'gateway' | 'console'; gateway: Named; user: Named; device: Named }>(
  columns: readonly string[],
  list: (page: { limit: number; offset: number; cursor?: string; withTotal: 'false' }) => Promise<{
    items: T[];
    nextCursor: string | null;
  }>,
): Readable {
  return exportCsv(columns, async (cursor) => {
    const page = await list({ limit: EXPORT_BATCH, offset: 0, cursor, withTotal: 'false' });
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((e) => ({
        ...e,
        gateway: e.source === 'console' ? 'console' : nameOf(e.gateway),
        user: nameOf(e.user),
        device: nameOf(e.device),
      })),
    };
  });
}

export const exportConnectionEvents = (database: Database, ctx: Ctx, query: ConnectionEventExportQuery) =>
  exportNamed(CONNECTION_CSV_COLUMNS, (page) => listConnectionEvents(database, ctx, { ...query, ...page }));

export const exportDeviceEvents = (database: Database, ctx: Ctx, query: DeviceEventExportQuery) =>
  exportNamed(DEVICE_EVENT_CSV_COLUMNS, (page) => listDeviceEvents(database, ctx, { ...query, ...page }));

export const exportDecisionEvents = (database: Database, ctx: Ctx, query: DecisionEventExportQuery) =>
  exportNamed(DECISION_CSV_COLUMNS, (page) => listDecisionEvents(database, ctx, { ...query, ...page }));

// ─── Dashboards ─────────────────────────────────────────────────────────────────────────────────────────────

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The range's totals, its series with every bucket (empty ones as zeros) and its layers. */
export async function telemetryOverview(
  database: Database,
  ctx: Ctx,
  range: TelemetryQuery,
): Promise<TelemetryOverview> {
  const store = eventStoreOf(database);
  const from = new Date(range.from);
  const to = new Date(range.to);
  const bucket = to.getTime() - from.getTime() <= MINUTE_BUCKETS_UP_TO_HOURS * HOUR_MS ? 'minute' : 'hour';
  const [rows, layers, counts] = await Promise.all([
    store.series(ctx.tenant.id, from, to, bucket, range.source),
    store.layers(ctx.tenant.id, from, to, range.source),
    store.counts(ctx.tenant.id, from, to, range.source),
  ]);
  const step = bucket === 'minute' ? MINUTE_MS : HOUR_MS;
  const byAt = new Map(rows.map((row) => [row.at.getTime(), row]));
  const series: TelemetryOverview['series'] = [];
  for (let at = Math.floor(from.getTime() / step) * step; at < to.getTime(); at += step) {
    const row = byAt.get(at);
    series.push({
      at: new Date(at).toISOString(),
      allowed: row?.allowed ?? 0,
      blocked: row?.blocked ?? 0,
      connections: row?.connections ?? 0,
      bytes: row?.bytes ?? 0,
    });
  }
  const sum = (key: 'allowed' | 'blocked' | 'connections' | 'bytes') =>
    series.reduce((n, point) => n + point[key], 0);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    bucket,
    totals: {
      decisions: sum('allowed') + sum('blocked'),
      allowed: sum('allowed'),
      blocked: sum('blocked'),
      threats: counts.threats,
      connections: sum('connections'),
      deviceEvents: counts.deviceEvents,
      bytes: sum('bytes'),
      users: counts.users,
      devices: counts.devices,
      simulated: range.source === 'gateway' ? 0 : counts.simulated,
    },
    series,
    layers: (['dns', 'network', 'http'] as const).map((layer) => {
      const found = layers.find((l) => l.layer === layer);
      return { layer, allowed: found?.allowed ?? 0, blocked: found?.blocked ?? 0 };
    }),
  };
}

export async function telemetryTop(
  database: Database,
  ctx: Ctx,
  query: TelemetryTopQuery,
): Promise<TelemetryTop> {
  const store = eventStoreOf(database);
  const from = new Date(query.from);
  const to = new Date(query.to);
  const [items, simulated] = await Promise.all([
    store.top(ctx.tenant.id, from, to, query.dimension, query.decision, query.limit, query.source),
    store.simulatedDecisions(ctx.tenant.id, from, to, query.source),
  ]);
  return { dimension: query.dimension, items, simulated };
}

/** Secure private access: the site gateways' sessions in the range. */
export async function privateAccessSummary(
  database: Database,
  ctx: Ctx,
  range: TelemetryRange,
): Promise<PrivateAccessSummary> {
  const rows = await eventStoreOf(database).sessions(ctx.tenant.id, new Date(range.from), new Date(range.to));
  return {
    sites: rows
      .filter((row) => (SITE_GATEWAY_KINDS as readonly string[]).includes(row.gatewayKind))
      .map(({ gatewayId, gatewayName, gatewayKind: _, ...row }) => ({
        gateway: { id: gatewayId, name: gatewayName },
        ...row,
      })),
  };
}

/** The envelope a refusal is answered with (the error handler's, for a stream that cannot answer any more). */
function envelopeOf(error: unknown): ErrorEnvelope {
  return error instanceof AppError
    ? { errcode: error.errcode, code: error.code, message: error.message }
    : { errcode: ERRORS.internal_error.errcode, code: 'internal_error', message: 'Internal error.' };
}

/**
 * The live view of one tenant: every instance announces what it ingests on the change bus, per batch; this sums
 * the announcements of each second and hands `onTick` one {@link LiveTick} per second (zeros too, so a chart moves
 * on). It lasts only while the viewer's credential acts: `recheck` (the request's access check again) runs every
 * few seconds and at once when the session, the account or a tenant of `ctx` is announced changed (sign-out,
 * suspension, …); its refusal goes to `onEnd` and the ticks stop. A check before each tick would be a database
 * read a second per open view, so ticks between checks go out unchecked (for at most 5 s).
 * Answers the function that stops it.
 */
export function liveTicks(
  changes: ChangeBus,
  ctx: Ctx,
  recheck: () => Promise<unknown>,
  handlers: { onTick: (tick: LiveTick) => void; onEnd: (refusal: ErrorEnvelope) => void },
  source?: 'gateway',
): () => void {
  const tenantId = ctx.tenant.id;
  const { onTick } = handlers;
  let decisions = 0;
  let blocked = 0;
  let connections = 0;
  let simulated = 0;
  let destinations = new Map<string, { events: number; blocked: number }>();
  const prefix = `${tenantId}:`;
  const unsubscribe = changes.subscribe(TELEMETRY_TOPIC, (message) => {
    if (!message?.startsWith(prefix)) return;
    try {
      const batch = JSON.parse(message.slice(prefix.length)) as {
        decisions: number;
        blocked: number;
        connections: number;
        simulated?: number;
        destinations: { value: string; events: number; blocked: number }[];
        real?: {
          decisions: number;
          blocked: number;
          destinations: { value: string; events: number; blocked: number }[];
        };
      };
      // Only what the gateways saw: the announcement's `real` part (an older instance's has none: all of it).
      const counted = source === 'gateway' && batch.real ? batch.real : batch;
      decisions += counted.decisions;
      blocked += counted.blocked;
      connections += batch.connections;
      if (counted === batch) simulated += batch.simulated ?? 0;
      for (const d of counted.destinations) {
        const seen = destinations.get(d.value) ?? { events: 0, blocked: 0 };
        destinations.set(d.value, { events: seen.events + d.events, blocked: seen.blocked + d.blocked });
      }
    } catch {
      // Not a batch announcement: nothing to count.
    }
  });
  const timer = setInterval(() => {
    const tick: LiveTick = {
      at: new Date().toISOString(),
      decisions,
      blocked,
      connections,
      simulated,
      destinations: [...destinations]
        .map(([value, counts]) => ({ value, ...counts }))
        .sort((a, b) => b.events - a.events || a.value.localeCompare(b.value))
        .slice(0, 10),
    };
    decisions = 0;
    blocked = 0;
    connections = 0;
    simulated = 0;
    destinations = new Map();
    onTick(tick);
  }, 1000);
  const stop = () => {
    clearInterval(timer);
    unsubscribe();
    stopWatch();
  };
  const stopWatch = watchCredential(changes, {
    subjects: subjectsOf(ctx),
    recheck,
    onRefused: (error) => {
      stop();
      handlers.onEnd(envelopeOf(error));
    },
  });
  return stop;
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

/** The module's background work: the hourly upkeep, and with Redis this instance's stream consumer. */
export function startTelemetry(
  database: Database,
  redis: { url: string | null; keyPrefix: string },
  log: FastifyBaseLogger,
) {
  const stopUpkeep = startTelemetryMaintenance(database, log);
  const consumer = redis.url
    ? startStreamConsumer(redis.url, (batch) => writeBatch(database, batch).then(() => {}), log, {
        keyPrefix: redis.keyPrefix,
      })
    : null;
  return async () => {
    stopUpkeep();
    await consumer?.stop();
  };
}
