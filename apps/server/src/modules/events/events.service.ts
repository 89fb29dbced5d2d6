import { Readable } from 'node:stream';
import {
  type AdminEvent,
  type AdminEventDetail,
  type AdminEventExportQuery,
  type AdminEventListQuery,
  diffEventFields,
  type EventRetention,
  eventRetentionLimit,
  MAX_EVENT_EXPORT_ROWS,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify/sync';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import { claimScheduledRun } from '../../lib/scheduled-runs';
import { subscriptionSummaries } from '../subscriptions/subscriptions.service';
import * as repo from './events.repository';

/** How often the purge job deletes events past each tenant's retention. */
export const EVENT_PURGE_INTERVAL_MS = 3_600_000;
/** Rows per query (and per CSV piece) of an export. */
export const EXPORT_CHUNK_ROWS = 2_000;

type SummaryRow = Awaited<ReturnType<typeof repo.listEvents>>['items'][number];
type FullRow = NonNullable<Awaited<ReturnType<typeof repo.getEvent>>>;

function presentEvent(row: SummaryRow): AdminEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actorName,
    actingFrom: row.actingFrom,
    action: row.action,
    objectType: row.objectType,
    objectId: row.objectId,
    objectName: row.objectName,
    ip: row.ip,
  };
}

function presentEventDetail(row: FullRow): AdminEventDetail {
  return { ...presentEvent(row), before: row.before ?? null, after: row.after ?? null };
}

export function listEvents(database: Database, ctx: Ctx, query: AdminEventListQuery) {
  const { limit, offset, order, cursor, withTotal, ...filter } = query;
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const page = await repo.listEvents(tx, ctx.tenant.id, filter, {
      limit,
      offset,
      order,
      cursor,
      withTotal,
    });
    return { ...page, items: page.items.map(presentEvent) };
  });
}

export async function getEvent(database: Database, ctx: Ctx, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => repo.getEvent(tx, ctx.tenant.id, id));
  if (!row) throw notFound('Event');
  return presentEventDetail(row);
}

export function eventFacets(database: Database, ctx: Ctx) {
  return database.tenantTx(ctx.tenant.id, (tx) => repo.eventFacets(tx, ctx.tenant.id));
}

// ---- CSV export ----

export const CSV_HEADER = [
  'Time',
  'Actor',
  'IP',
  'Action',
  'Object type',
  'Object ID',
  'Object name',
  'Changed fields',
];

/**
 * RFC 4180 CSV (CRLF, fields with quotes, commas or line breaks quoted, quotes doubled) with cells that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`…) prefixed with `'`.
 */
export function toCsv(rows: string[][]): string {
  return stringify(rows, {
    record_delimiter: '\r\n',
    // Without this, an explicit record delimiter stops the library quoting a lone LF or CR.
    quote_record_delimiter: true,
    escape_formulas: true,
    eof: true,
  });
}

/** The names of the fields an event changed, space-separated (added, removed or changed). */
export function changedFields(before: unknown, after: unknown): string {
  return diffEventFields(before, after)
    .filter((d) => d.change !== 'unchanged')
    .map((d) => d.field)
    .join(' ');
}

function csvRow(row: Awaited<ReturnType<typeof repo.eventChunk>>[number]): string[] {
  return [
    row.at.toISOString(),
    row.actorName,
    row.ip ?? '',
    row.action,
    row.objectType,
    row.objectId ?? '',
    row.objectName ?? '',
    changedFields(row.before, row.after),
  ];
}

/**
 * The filtered log as a CSV stream, at most {@link MAX_EVENT_EXPORT_ROWS} rows, read in keyset chunks so memory
 * stays flat. The first chunk is read before the stream is returned, so a failing query still answers 500.
 */
export async function exportEvents(
  database: Database,
  ctx: Ctx,
  query: AdminEventExportQuery,
): Promise<Readable> {
  const { order, sort: _sort, ...filter } = query;
  const readChunk = (cursor: repo.EventCursor | null, limit: number) =>
    database.tenantTx(ctx.tenant.id, (tx) =>
      repo.eventChunk(tx, ctx.tenant.id, filter, order, cursor, limit),
    );
  const first = await readChunk(null, Math.min(EXPORT_CHUNK_ROWS, MAX_EVENT_EXPORT_ROWS));

  async function* pieces() {
    yield toCsv([CSV_HEADER]);
    let chunk = first;
    let sent = 0;
    while (chunk.length > 0) {
      sent += chunk.length;
      yield toCsv(chunk.map(csvRow));
      const remaining = MAX_EVENT_EXPORT_ROWS - sent;
      if (chunk.length < EXPORT_CHUNK_ROWS || remaining <= 0) return;
      const last = chunk[chunk.length - 1];
      chunk = await readChunk({ at: last.cursorAt, id: last.id }, Math.min(EXPORT_CHUNK_ROWS, remaining));
    }
  }
  return Readable.from(pieces());
}

// ---- Retention ----

/** Tenants per query when the purge reads what their subscriptions allow. */
const LIMIT_CHUNK = 500;

/**
 * The most days each given tenant keeps its events, by its subscription (contracts `eventRetentionLimit`: 90, 365
 * with Extended log retention, 3650 without a subscription), read through the subscriptions module's service.
 */
async function retentionLimits(database: Database, tenantIds: readonly string[]) {
  const limits = new Map<string, number>();
  for (let i = 0; i < tenantIds.length; i += LIMIT_CHUNK) {
    const ids = tenantIds.slice(i, i + LIMIT_CHUNK);
    const subscriptions = await subscriptionSummaries(database, ids);
    for (const id of ids) limits.set(id, eventRetentionLimit(subscriptions.get(id) ?? null));
  }
  return limits;
}

const maxDaysOf = async (database: Database, tenantId: string) =>
  (await retentionLimits(database, [tenantId])).get(tenantId) ?? eventRetentionLimit(null);

/** How long the tenant keeps its events: the stored days, at most what its subscription allows (`maxDays`). */
export async function getRetention(database: Database, ctx: Ctx): Promise<EventRetention> {
  const maxDays = await maxDaysOf(database, ctx.tenant.id);
  const days = await database.tenantTx(ctx.tenant.id, (tx) => repo.getRetentionDays(tx, ctx.tenant.id));
  if (days === null) throw notFound('Tenant');
  return { days: Math.min(days, maxDays), maxDays };
}

/**
 * Changes the retention and records the change in the log itself, in one transaction. More days than the
 * subscription allows answers 400 (`body.days` `validation.retentionAboveMaximum`, `values.max`) and changes
 * nothing.
 */
export async function updateRetention(database: Database, ctx: Ctx, days: number): Promise<EventRetention> {
  const maxDays = await maxDaysOf(database, ctx.tenant.id);
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const before = await repo.getRetentionDays(tx, ctx.tenant.id);
    if (before === null) throw notFound('Tenant');
    if (days > maxDays) {
      throw invalid([
        { path: 'body.days', message: 'validation.retentionAboveMaximum', values: { max: String(maxDays) } },
      ]);
    }
    await repo.setRetentionDays(tx, ctx.tenant.id, days);
    await recordEvent(tx, ctx, {
      action: 'tenant.eventRetention.update',
      objectType: 'tenant',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before: { eventRetentionDays: before },
      after: { eventRetentionDays: days },
    });
    return { days, maxDays };
  });
}

/**
 * Deletes every tenant's events older than its retention — the stored days, at most what its subscription allows
 * (as `getRetention` answers) — one tenant per transaction (as that tenant, so row-level security still applies).
 * Returns how many events went. The hourly job calls it; tests call it directly.
 */
export async function purgeExpiredEvents(database: Database): Promise<number> {
  const tenants = await repo.tenantRetentions(database.db);
  const limits = await retentionLimits(
    database,
    tenants.map((tenant) => tenant.id),
  );
  let deleted = 0;
  for (const tenant of tenants) {
    const days = Math.min(tenant.days, limits.get(tenant.id) ?? eventRetentionLimit(null));
    deleted += await database.tenantTx(tenant.id, (tx) => repo.deleteEventsOlderThan(tx, tenant.id, days));
  }
  return deleted;
}

/**
 * One tick of the hourly purge: purges only when no server instance has in the last interval (less a minute
 * for timer drift), claimed atomically in the database, so several instances purge once an hour between them.
 * Answers how many events went, or null when the run belonged to another instance.
 */
export async function runScheduledPurge(database: Database): Promise<number | null> {
  const isMine = await claimScheduledRun(database.db, 'event-purge', EVENT_PURGE_INTERVAL_MS - 60_000);
  return isMine ? purgeExpiredEvents(database) : null;
}

/** Starts the hourly purge; returns the function that stops it (the app's close() calls it). */
export function startEventPurge(database: Database, log: FastifyBaseLogger): () => void {
  const timer = setInterval(() => {
    database.background(
      runScheduledPurge(database)
        .then((deleted) => {
          if (deleted) log.info({ deleted }, 'purged admin events past retention');
        })
        .catch((err: unknown) => log.error({ err }, 'admin event purge failed')),
    );
  }, EVENT_PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The newest events of a tenant (for other modules, in their transaction: the dashboard). */
export const recentEvents = (tx: Tx, tenantId: string, limit: number) =>
  repo.recentEvents(tx, tenantId, limit);
