import type {
  ConnectionAction,
  ConnectionEventData,
  DecisionEventData,
  DeviceEventAction,
  DeviceEventData,
  MetricEventData,
  TelemetrySource,
} from '@palisade/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/client';
import { type PgArrayType, pgArray } from '../../db/driver';
import { afterKey, decodeCursor, encodeCursor, type PageTotal, pageTotal } from '../../db/paging';
import { CHANGE_CHANNEL } from '../../lib/change-bus';

/** The change-bus topic of ingested batches: `<tenant id>:<json>` with the batch's counts (the live view). */
export const TELEMETRY_TOPIC = 'telemetry';

/**
 * The event store: one interface (this file's {@link EventStore}) over where telemetry lives. Today PostgreSQL (and
 * PGlite): `telemetry_events` partitioned by UTC day with per-minute and per-hour rollups (migration 0031).
 * docs/telemetry.md says how a deployment that outgrows PostgreSQL moves it to ClickHouse: an adapter of this
 * interface, not a rewrite.
 */

/** One event as a gateway posted it, its `data` checked against its kind. */
export type StoredEvent = { id: string; at: Date } & (
  | { kind: 'connection'; data: ConnectionEventData }
  | { kind: 'decision'; data: DecisionEventData }
  | { kind: 'device'; data: DeviceEventData }
  | { kind: 'metric'; data: MetricEventData }
);

export interface EventFilter {
  kind: 'connection' | 'device' | 'decision';
  layer?: string;
  decision?: string;
  destination?: string;
  category?: string;
  app?: string;
  country?: string;
  threat?: string;
  rule?: string;
  from?: string;
  to?: string;
  userId?: string;
  deviceId?: string;
  gatewayId?: string;
  action?: string;
  /** Decisions of one source only (both when absent). */
  source?: TelemetrySource;
}

export interface EventPage {
  limit: number;
  /** Rows skipped when there is no cursor (a link straight to a later page). */
  offset?: number;
  order: 'asc' | 'desc';
  cursor?: string;
  withTotal?: 'true' | 'false';
}

const Named = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);

/** A listed event: the common columns, the people and gateway named, and what the kind adds. */
export interface ListedEvent {
  id: string;
  at: string;
  gateway: { id: string; name: string } | null;
  user: { id: string; name: string } | null;
  device: { id: string; name: string } | null;
  action: ConnectionAction | DeviceEventAction | 'allow' | 'block';
  layer: string | null;
  destination: string | null;
  port: number | null;
  protocol: string | null;
  category: string | null;
  app: string | null;
  country: string | null;
  ruleName: string | null;
  threat: string | null;
  peer: string | null;
  endpoint: string | null;
  durationMs: number | null;
  bytesIn: number | null;
  bytesOut: number | null;
  detail: string | null;
  /** A decision `--simulate-traffic` made up. */
  simulated: boolean;
}

export interface EventStore {
  /**
   * Stores batches of one tenant's gateways (at most one batch per gateway) and counts the new events into the
   * rollups, atomically; answers how many of each batch were new (a batch sent again counts nothing twice).
   */
  ingest(
    tenantId: string,
    batches: readonly { gatewayId: string; events: readonly StoredEvent[] }[],
  ): Promise<number[]>;
  /** A page of one kind of event, newest (or oldest) first, keyset-paged on (at, gateway, event id). */
  list(
    tenantId: string,
    filter: EventFilter,
    page: EventPage,
  ): Promise<{ items: ListedEvent[]; nextCursor: string | null } & PageTotal>;
  /**
   * Per bucket (minute or hour) of [from, to): decisions by verdict, connections and bytes. `source`, here and
   * below: only the decisions of that source (connections and device events are the gateways' and the console's).
   */
  series(
    tenantId: string,
    from: Date,
    to: Date,
    bucket: 'minute' | 'hour',
    source?: TelemetrySource,
  ): Promise<SeriesRow[]>;
  /** Per layer, decisions by verdict in the hours touching [from, to). */
  layers(
    tenantId: string,
    from: Date,
    to: Date,
    source?: TelemetrySource,
  ): Promise<{ layer: string; allowed: number; blocked: number }[]>;
  /**
   * Counts of the hours touching [from, to): threats, device events, distinct users and devices, and the
   * simulated decisions among them.
   */
  counts(
    tenantId: string,
    from: Date,
    to: Date,
    source?: TelemetrySource,
  ): Promise<{ threats: number; deviceEvents: number; users: number; devices: number; simulated: number }>;
  /** A dimension's values with most decisions in the hours touching [from, to), named where they are ids. */
  top(
    tenantId: string,
    from: Date,
    to: Date,
    dimension: string,
    decision: 'allow' | 'block' | undefined,
    limit: number,
    source?: TelemetrySource,
  ): Promise<{ value: string; label: string; allowed: number; blocked: number }[]>;
  /** The simulated decisions in the hours touching [from, to) (0 when `source` leaves them out). */
  simulatedDecisions(tenantId: string, from: Date, to: Date, source?: TelemetrySource): Promise<number>;
  /** Per gateway, its connection events in [from, to): users, devices, sessions, durations, bytes. */
  sessions(tenantId: string, from: Date, to: Date): Promise<SessionRow[]>;
  /** Makes sure the days of `days` (UTC midnight, ms) can take events. */
  ensureDays(days: readonly number[]): Promise<void>;
  /**
   * Drops the days before `day` (UTC midnight, ms) and the rollups past theirs (the daily ones with the hourly);
   * answers the days dropped.
   */
  dropBefore(day: number, minuteRollupsBefore: Date, hourRollupsBefore: Date): Promise<string[]>;
}

export interface SeriesRow {
  at: Date;
  allowed: number;
  blocked: number;
  connections: number;
  bytes: number;
}

export interface SessionRow {
  gatewayId: string;
  gatewayName: string;
  gatewayKind: string;
  users: number;
  devices: number;
  sessions: number;
  durationMs: number;
  bytes: number;
}

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Stands for a connection's missing user or device in the day sessions' keys. */
const NIL = '00000000-0000-0000-0000-000000000000';

/**
 * The rollup rows of `dimensions` in the hours touching [from, to): its whole UTC days from the daily rollups,
 * the hours before and after them from the hourly ones.
 */
function rolledUp(
  tenantId: string,
  from: Date,
  to: Date,
  dimensions: readonly string[],
  source?: TelemetrySource,
): SQL {
  const first = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS;
  const dayFrom = Math.ceil(first / DAY_MS) * DAY_MS;
  const dayTo = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  const which = sql`tenant_id = ${tenantId} and dimension in (${sql.join(
    dimensions.map((d) => sql`${d}`),
    sql`, `,
  )})${source ? sql` and source = ${source}` : sql``}`;
  const hours = (a: number, b: Date | number) =>
    sql`select dimension, value, decision, source, events, bytes from telemetry_hour_top
        where ${which} and hour >= ${new Date(a)} and hour < ${new Date(b)}`;
  if (dayFrom >= dayTo) return hours(first, to);
  return sql`${hours(first, dayFrom)}
    union all
    select dimension, value, decision, source, events, bytes from telemetry_day_top
    where ${which} and day >= ${new Date(dayFrom)} and day < ${new Date(dayTo)}
    union all
    ${hours(dayTo, to)}`;
}
/** The dimensions whose values are ids, and the table and column that name them. */
const NAMED = {
  user: sql`(select u.username from users u where u.tenant_id = t.tenant_id and u.id::text = t.value)`,
  device: sql`(select d.name from devices d where d.tenant_id = t.tenant_id and d.id::text = t.value)`,
  gateway: sql`(select g.name from gateways g where g.tenant_id = t.tenant_id and g.id::text = t.value)`,
} as const;
const dayName = (day: number) =>
  `telemetry_events_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** The columns of an event's row, from its kind's data. */
function columns(event: StoredEvent) {
  const base = {
    action: null as string | null,
    layer: null as string | null,
    userId: null as string | null,
    deviceId: null as string | null,
    destination: null as string | null,
    port: null as number | null,
    protocol: null as string | null,
    category: null as string | null,
    app: null as string | null,
    country: null as string | null,
    ruleId: null as string | null,
    ruleName: null as string | null,
    threat: null as string | null,
    durationMs: null as number | null,
    bytesIn: null as number | null,
    bytesOut: null as number | null,
    detail: null as Record<string, unknown> | null,
    source: 'gateway' as TelemetrySource,
  };
  switch (event.kind) {
    case 'connection': {
      const d = event.data;
      return {
        ...base,
        action: d.action,
        userId: d.userId ?? null,
        deviceId: d.deviceId ?? null,
        durationMs: d.durationMs ?? null,
        bytesIn: d.bytesIn ?? null,
        bytesOut: d.bytesOut ?? null,
        detail: d.peer || d.endpoint ? { peer: d.peer ?? null, endpoint: d.endpoint ?? null } : null,
      };
    }
    case 'decision': {
      const d = event.data;
      return {
        ...base,
        action: d.decision,
        layer: d.layer,
        userId: d.userId ?? null,
        deviceId: d.deviceId ?? null,
        destination: d.destination.toLowerCase(),
        port: d.port ?? null,
        protocol: d.protocol ?? null,
        category: d.category ?? null,
        app: d.app ?? null,
        country: d.country ?? null,
        ruleId: d.ruleId ?? null,
        ruleName: d.ruleName ?? null,
        threat: d.threat ?? null,
        bytesIn: d.bytes ?? null,
        source: d.source ?? 'gateway',
      };
    }
    case 'device': {
      const d = event.data;
      return {
        ...base,
        action: d.action,
        userId: d.userId ?? null,
        deviceId: d.deviceId,
        detail: d.detail ? { detail: d.detail } : null,
      };
    }
    case 'metric':
      return { ...base, detail: event.data as Record<string, unknown> };
  }
}

/** The PostgreSQL (and PGlite) event store. */
export function postgresEventStore(database: Database): EventStore {
  const ready = new Set<string>();
  /** The partitions being made: callers at the same moment (a tenant's writers, other tenants) wait on one. */
  const making = new Map<string, Promise<void>>();
  const make = async (name: string, day: number) => {
    const from = new Date(day).toISOString();
    const to = new Date(day + DAY_MS).toISOString();
    try {
      // Under row-level security like every tenant table (the restricted role reads only the parent, whose
      // policy applies; a partition read directly would need its own).
      for (const statement of [
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF telemetry_events FOR VALUES FROM ('${from}') TO ('${to}')`,
        `ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`,
        `ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`,
        `DROP POLICY IF EXISTS tenant_isolation ON ${name}`,
        `CREATE POLICY tenant_isolation ON ${name} USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)`,
      ]) {
        await database.db.execute(sql.raw(statement));
      }
    } catch (error) {
      // Another instance made it at the same moment (the driver's error may be wrapped in the query's).
      const { message, cause } = error as Error;
      if (!/already exists/.test(`${message} ${(cause as Error | undefined)?.message ?? ''}`)) throw error;
    }
    ready.add(name);
  };
  return {
    async ensureDays(days) {
      for (const day of days) {
        const name = dayName(day);
        if (ready.has(name)) continue;
        let made = making.get(name);
        if (!made) {
          made = make(name, day).finally(() => making.delete(name));
          making.set(name, made);
        }
        await made;
      }
    },

    async dropBefore(day, minuteRollupsBefore, hourRollupsBefore) {
      const rows = await queryRows<{ name: string }>(
        database.db,
        sql`select c.relname as name from pg_inherits i
            join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
            where p.relname = 'telemetry_events' order by 1`,
      );
      const before = dayName(day);
      const dropped: string[] = [];
      for (const { name } of rows) {
        if (!/^telemetry_events_\d{8}$/.test(name) || name >= before) continue;
        await database.db.execute(sql.raw(`DROP TABLE IF EXISTS ${name}`));
        ready.delete(name);
        dropped.push(name);
      }
      await database.db.execute(sql`delete from telemetry_minute where minute < ${minuteRollupsBefore}`);
      await database.db.execute(sql`delete from telemetry_hour_top where hour < ${hourRollupsBefore}`);
      await database.db.execute(sql`delete from telemetry_day_top where day < ${hourRollupsBefore}`);
      await database.db.execute(sql`delete from telemetry_day_sessions where day < ${hourRollupsBefore}`);
      return dropped;
    },

    // A tenant's statements may run side by side (telemetry.service's writers): each takes its row locks in one
    // order (the raw events, then minutes, hours, days and sessions, each table in key order), so two of them wait
    // on each other's rollup rows but never deadlock.
    async ingest(tenantId, batches) {
      const rows = batches.flatMap((batch) =>
        batch.events.map((event) => ({ gatewayId: batch.gatewayId, event, ...columns(event) })),
      );
      if (rows.length === 0) return batches.map(() => 0);
      /** A column of the input: `value` of every row, as one `type[]` parameter. */
      const each = (value: (row: (typeof rows)[number]) => string | number | null, type: PgArrayType) =>
        pgArray(rows.map(value), type);
      const col = (key: Exclude<keyof (typeof rows)[number], 'event' | 'detail'>, type: PgArrayType) =>
        each((row) => row[key], type);
      return database.tenantTx(tenantId, async (tx) => {
        const counted = await queryRows<{ gateway_id: string; accepted: number | string }>(
          tx,
          sql`with input as (
              select * from unnest(
                ${col('gatewayId', 'uuid')},
                ${each((r) => r.event.at.toISOString(), 'timestamptz')},
                ${each((r) => r.event.id, 'text')}, ${each((r) => r.event.kind, 'text')},
                ${col('action', 'text')}, ${col('layer', 'text')},
                ${col('userId', 'uuid')}, ${col('deviceId', 'uuid')},
                ${col('destination', 'text')}, ${col('port', 'integer')}, ${col('protocol', 'text')},
                ${col('category', 'text')}, ${col('app', 'text')}, ${col('country', 'text')},
                ${col('ruleId', 'text')}, ${col('ruleName', 'text')}, ${col('threat', 'text')},
                ${col('durationMs', 'bigint')}, ${col('bytesIn', 'bigint')}, ${col('bytesOut', 'bigint')},
                ${each((r) => (r.detail === null ? null : JSON.stringify(r.detail)), 'jsonb')},
                ${col('source', 'text')}
              ) as t(gateway_id, at, event_id, kind, action, layer, user_id, device_id, destination, port,
                     protocol, category, app, country, rule_id, rule_name, threat, duration_ms, bytes_in,
                     bytes_out, detail, source)
            ),
            inserted as (
              insert into telemetry_events (tenant_id, gateway_id, at, event_id, kind, action, layer, user_id,
                device_id, destination, port, protocol, category, app, country, rule_id, rule_name, threat,
                duration_ms, bytes_in, bytes_out, detail, source)
              select ${tenantId}::uuid, gateway_id, at, event_id, kind, action, layer, user_id, device_id,
                destination, port, protocol, category, app, country, rule_id, rule_name, threat, duration_ms,
                bytes_in, bytes_out, detail, source
              from input
              order by at, gateway_id, event_id
              on conflict do nothing
              returning *
            ),
            minutes as (
              insert into telemetry_minute (tenant_id, minute, kind, layer, decision, source, events, bytes)
              select ${tenantId}::uuid, date_trunc('minute', at), kind, coalesce(layer, ''),
                case when kind = 'decision' then action else '' end, source, count(*),
                coalesce(sum(coalesce(bytes_in, 0) + coalesce(bytes_out, 0)), 0)
              from inserted group by 2, 3, 4, 5, 6 order by 2, 3, 4, 5, 6
              on conflict (tenant_id, minute, kind, layer, decision, source) do update
                set events = telemetry_minute.events + excluded.events,
                    bytes = telemetry_minute.bytes + excluded.bytes
            ),
            hour_delta as (
              select date_trunc('hour', i.at) as hour, d.dimension, d.value, coalesce(i.action, '') as decision,
                i.source, count(*) as events, coalesce(sum(coalesce(i.bytes_in, 0) + coalesce(i.bytes_out, 0)), 0) as bytes
              from inserted i
              cross join lateral (values
                ('kind', i.kind), ('layer', i.layer), ('gateway', i.gateway_id::text),
                ('destination', i.destination), ('category', i.category), ('app', i.app),
                ('country', i.country), ('threat', i.threat), ('user', i.user_id::text),
                ('device', i.device_id::text), ('rule', i.rule_name)
              ) as d(dimension, value)
              where d.value is not null
              group by 1, 2, 3, 4, 5
            ),
            hours as (
              insert into telemetry_hour_top (tenant_id, hour, dimension, value, decision, source, events, bytes)
              select ${tenantId}::uuid, hour, dimension, value, decision, source, events, bytes from hour_delta
              order by hour, dimension, value, decision, source
              on conflict (tenant_id, hour, dimension, value, decision, source) do update
                set events = telemetry_hour_top.events + excluded.events,
                    bytes = telemetry_hour_top.bytes + excluded.bytes
            ),
            days as (
              insert into telemetry_day_top (tenant_id, day, dimension, value, decision, source, events, bytes)
              select ${tenantId}::uuid, date_trunc('day', hour, 'UTC'), dimension, value, decision, source,
                sum(events), sum(bytes)
              from hour_delta group by 2, 3, 4, 5, 6 order by 3, 2, 4, 5, 6
              on conflict (tenant_id, dimension, day, value, decision, source) do update
                set events = telemetry_day_top.events + excluded.events,
                    bytes = telemetry_day_top.bytes + excluded.bytes
            ),
            sessions as (
              insert into telemetry_day_sessions (tenant_id, day, gateway_id, user_id, device_id, sessions,
                duration_ms, bytes)
              select ${tenantId}::uuid, date_trunc('day', at, 'UTC'), gateway_id, coalesce(user_id, ${NIL}::uuid),
                coalesce(device_id, ${NIL}::uuid),
                count(*) filter (where action in ('connected', 'tunnel_up')),
                coalesce(sum(duration_ms) filter (where action in ('disconnected', 'tunnel_down')), 0),
                coalesce(sum(coalesce(bytes_in, 0) + coalesce(bytes_out, 0)), 0)
              from inserted where kind = 'connection' group by 2, 3, 4, 5 order by 2, 3, 4, 5
              on conflict (tenant_id, day, gateway_id, user_id, device_id) do update
                set sessions = telemetry_day_sessions.sessions + excluded.sessions,
                    duration_ms = telemetry_day_sessions.duration_ms + excluded.duration_ms,
                    bytes = telemetry_day_sessions.bytes + excluded.bytes
            ),
            destinations as (
              select destination as value, count(*) as events, count(*) filter (where action = 'block') as blocked
              from inserted where kind = 'decision' group by destination order by 2 desc limit 10
            ),
            real_destinations as (
              select destination as value, count(*) as events, count(*) filter (where action = 'block') as blocked
              from inserted where kind = 'decision' and source = 'gateway'
              group by destination order by 2 desc limit 10
            ),
            announced as (
              -- What the live view shows, to every instance, when (and only if) the batch commits.
              select pg_notify(${CHANGE_CHANNEL}, ${`${TELEMETRY_TOPIC}:${tenantId}:`} || json_build_object(
                'decisions', (select count(*) from inserted where kind = 'decision'),
                'blocked', (select count(*) from inserted where kind = 'decision' and action = 'block'),
                'simulated', (select count(*) from inserted where kind = 'decision' and source = 'simulated'),
                'connections', (select count(*) from inserted where kind = 'connection'),
                'destinations', coalesce((select json_agg(d) from destinations d), '[]'::json),
                -- The same of the decisions the gateways saw (the live view's "real traffic only").
                'real', json_build_object(
                  'decisions', (select count(*) from inserted where kind = 'decision' and source = 'gateway'),
                  'blocked', (select count(*) from inserted
                    where kind = 'decision' and action = 'block' and source = 'gateway'),
                  'destinations', coalesce((select json_agg(d) from real_destinations d), '[]'::json)
                )
              )::text)
              where exists (select 1 from inserted)
            )
            select gateway_id, count(*) as accepted from inserted
            where (select count(*) from announced) >= 0
            group by gateway_id`,
        );
        const accepted = new Map(counted.map((row) => [String(row.gateway_id), Number(row.accepted)]));
        return batches.map((batch) => accepted.get(batch.gatewayId) ?? 0);
      });
    },

    async series(tenantId, from, to, bucket, source) {
      const only = source ? sql` and (kind <> 'decision' or source = ${source})` : sql``;
      const onlyHour = source ? sql` and (value <> 'decision' or source = ${source})` : sql``;
      return database.tenantTx(tenantId, async (tx) => {
        const rows = await queryRows<{
          at: string | Date;
          allowed: string;
          blocked: string;
          connections: string;
          bytes: string;
        }>(
          tx,
          bucket === 'minute'
            ? sql`select minute as at,
                    coalesce(sum(events) filter (where kind = 'decision' and decision = 'allow'), 0) as allowed,
                    coalesce(sum(events) filter (where kind = 'decision' and decision = 'block'), 0) as blocked,
                    coalesce(sum(events) filter (where kind = 'connection'), 0) as connections,
                    coalesce(sum(bytes), 0) as bytes
                  from telemetry_minute
                  where tenant_id = ${tenantId} and minute >= ${from} and minute < ${to}${only}
                  group by minute order by minute`
            : sql`select hour as at,
                    coalesce(sum(events) filter (where value = 'decision' and decision = 'allow'), 0) as allowed,
                    coalesce(sum(events) filter (where value = 'decision' and decision = 'block'), 0) as blocked,
                    coalesce(sum(events) filter (where value = 'connection'), 0) as connections,
                    coalesce(sum(bytes), 0) as bytes
                  from telemetry_hour_top
                  where tenant_id = ${tenantId} and dimension = 'kind'
                    and hour >= date_trunc('hour', ${from}::timestamptz) and hour < ${to}${onlyHour}
                  group by hour order by hour`,
        );
        return rows.map((r) => ({
          at: new Date(r.at),
          allowed: Number(r.allowed),
          blocked: Number(r.blocked),
          connections: Number(r.connections),
          bytes: Number(r.bytes),
        }));
      });
    },

    async layers(tenantId, from, to, source) {
      return database.tenantTx(tenantId, async (tx) => {
        const rows = await queryRows<{ layer: string; allowed: string; blocked: string }>(
          tx,
          sql`select value as layer,
                coalesce(sum(events) filter (where decision = 'allow'), 0) as allowed,
                coalesce(sum(events) filter (where decision = 'block'), 0) as blocked
              from (${rolledUp(tenantId, from, to, ['layer'], source)}) r
              group by value order by value`,
        );
        return rows.map((r) => ({ layer: r.layer, allowed: Number(r.allowed), blocked: Number(r.blocked) }));
      });
    },

    async counts(tenantId, from, to, source) {
      return database.tenantTx(tenantId, async (tx) => {
        const [row] = await queryRows<{
          threats: string;
          device_events: string;
          users: string;
          devices: string;
          simulated: string;
        }>(
          tx,
          // Connection and device events are never simulated: a source filter leaves them in.
          sql`select
                coalesce(sum(events) filter (where dimension = 'threat'), 0) as threats,
                coalesce(sum(events) filter (where dimension = 'kind' and value = 'decision'
                  and source = 'simulated'), 0) as simulated,
                coalesce(sum(events) filter (where dimension = 'kind' and value = 'device'), 0) as device_events,
                count(distinct value) filter (where dimension = 'user' and decision in ('allow', 'block')) as users,
                count(distinct value) filter (where dimension = 'device' and decision in ('allow', 'block')) as devices
              from (${rolledUp(tenantId, from, to, ['threat', 'kind', 'user', 'device'])}) r
              ${source ? sql`where source = ${source} or (dimension = 'kind' and value <> 'decision')` : sql``}`,
        );
        return {
          threats: Number(row?.threats ?? 0),
          deviceEvents: Number(row?.device_events ?? 0),
          users: Number(row?.users ?? 0),
          devices: Number(row?.devices ?? 0),
          simulated: Number(row?.simulated ?? 0),
        };
      });
    },

    async simulatedDecisions(tenantId, from, to, source) {
      if (source === 'gateway') return 0;
      return database.tenantTx(tenantId, async (tx) => {
        const [row] = await queryRows<{ events: string }>(
          tx,
          sql`select coalesce(sum(events), 0) as events
              from (${rolledUp(tenantId, from, to, ['kind'], 'simulated')}) r where value = 'decision'`,
        );
        return Number(row?.events ?? 0);
      });
    },

    async top(tenantId, from, to, dimension, decision, limit, source) {
      return database.tenantTx(tenantId, async (tx) => {
        const label = NAMED[dimension as keyof typeof NAMED] ?? sql`t.value`;
        const rows = await queryRows<{
          value: string;
          label: string | null;
          allowed: string;
          blocked: string;
        }>(
          tx,
          sql`select t.value, ${label} as label, t.allowed, t.blocked from (
                select ${tenantId}::uuid as tenant_id, value,
                  coalesce(sum(events) filter (where decision = 'allow'), 0) as allowed,
                  coalesce(sum(events) filter (where decision = 'block'), 0) as blocked
                from (${rolledUp(tenantId, from, to, [dimension], source)}) r
                where decision in ${decision ? sql`(${decision})` : sql`('allow', 'block')`}
                group by value
                order by sum(events) desc, value
                limit ${limit}
              ) t`,
        );
        return rows.map((r) => ({
          value: r.value,
          label: r.label ?? r.value,
          allowed: Number(r.allowed),
          blocked: Number(r.blocked),
        }));
      });
    },

    async sessions(tenantId, from, to) {
      // Whole UTC days from the daily sessions, the partial days around them from the events themselves.
      const dayFrom = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
      const dayTo = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
      return database.tenantTx(tenantId, async (tx) => {
        const rows = await queryRows<{
          gateway_id: string;
          name: string | null;
          kind: string | null;
          users: string;
          devices: string;
          sessions: string;
          duration_ms: string;
          bytes: string;
        }>(
          tx,
          sql`with raw as (
                select gateway_id, user_id, device_id,
                  count(*) filter (where action in ('connected', 'tunnel_up')) as sessions,
                  coalesce(sum(duration_ms) filter (where action in ('disconnected', 'tunnel_down')), 0)
                    as duration_ms,
                  coalesce(sum(coalesce(bytes_in, 0) + coalesce(bytes_out, 0)), 0) as bytes
                from telemetry_events
                where tenant_id = ${tenantId} and kind = 'connection' and at >= ${from} and at < ${to}
                  and ${dayFrom < dayTo ? sql`(at < ${new Date(dayFrom)} or at >= ${new Date(dayTo)})` : sql`true`}
                group by 1, 2, 3
              ),
              rows as (
                select * from raw
                union all
                select gateway_id, nullif(user_id, ${NIL}::uuid), nullif(device_id, ${NIL}::uuid), sessions,
                  duration_ms, bytes
                from telemetry_day_sessions
                where tenant_id = ${tenantId} and day >= ${new Date(dayFrom)} and day < ${new Date(dayTo)}
              )
              select r.gateway_id, g.name, g.kind,
                count(distinct r.user_id) as users, count(distinct r.device_id) as devices,
                sum(r.sessions) as sessions, sum(r.duration_ms) as duration_ms, sum(r.bytes) as bytes
              from rows r
              left join gateways g on g.tenant_id = ${tenantId} and g.id = r.gateway_id
              group by r.gateway_id, g.name, g.kind
              order by g.name`,
        );
        return rows.map((r) => ({
          gatewayId: r.gateway_id,
          gatewayName: r.name ?? '',
          gatewayKind: r.kind ?? '',
          users: Number(r.users),
          devices: Number(r.devices),
          sessions: Number(r.sessions),
          durationMs: Number(r.duration_ms),
          bytes: Number(r.bytes),
        }));
      });
    },

    async list(tenantId, filter, page) {
      return database.tenantTx(tenantId, async (tx) => {
        const where = filterWhere(tenantId, filter);
        const key = page.cursor ? decodeCursor(page.cursor, 'at', page.order, 3) : null;
        const after = key
          ? afterKey(
              [sql`e.at`, sql`e.gateway_id`, sql`e.event_id`],
              [sql`${key[0]}::timestamptz`, sql`${key[1]}::uuid`, sql`${key[2]}::text`],
              page.order,
            )
          : null;
        const direction = sql.raw(page.order === 'asc' ? 'asc' : 'desc');
        const rows = await queryRows<Row>(
          tx,
          sql`select e.at::text as at_key, e.at, e.gateway_id, e.event_id, e.action, e.user_id, e.device_id,
                e.duration_ms, e.bytes_in, e.bytes_out, e.detail, e.layer, e.destination, e.port, e.protocol,
                e.category, e.app, e.country, e.rule_name, e.threat, e.source,
                g.name as gateway_name, u.username as user_name, d.name as device_name
              from telemetry_events e
              left join gateways g on g.tenant_id = e.tenant_id and g.id = e.gateway_id
              left join users u on u.tenant_id = e.tenant_id and u.id = e.user_id
              left join devices d on d.tenant_id = e.tenant_id and d.id = e.device_id
              where ${after ? sql`${where} and ${after}` : where}
              order by e.at ${direction}, e.gateway_id ${direction}, e.event_id ${direction}
              limit ${page.limit + 1} offset ${page.cursor ? 0 : (page.offset ?? 0)}`,
        );
        const items = rows.slice(0, page.limit);
        const last = items.at(-1);
        const total = await pageTotal(tx, sql`from telemetry_events e where ${where}`, {
          ...page,
          offset: page.cursor ? 0 : (page.offset ?? 0),
          rows: items.length,
        });
        return {
          items: items.map(present),
          ...total,
          nextCursor:
            rows.length > page.limit && last
              ? encodeCursor('at', page.order, [last.at_key, last.gateway_id, last.event_id])
              : null,
        };
      });
    },
  };
}

interface Row {
  at_key: string;
  at: string | Date;
  gateway_id: string;
  event_id: string;
  action: string;
  user_id: string | null;
  device_id: string | null;
  duration_ms: string | number | null;
  bytes_in: string | number | null;
  bytes_out: string | number | null;
  detail: Record<string, unknown> | string | null;
  gateway_name: string | null;
  user_name: string | null;
  device_name: string | null;
  layer: string | null;
  destination: string | null;
  port: number | null;
  protocol: string | null;
  category: string | null;
  app: string | null;
  country: string | null;
  rule_name: string | null;
  threat: string | null;
  source: string;
}

const num = (value: string | number | null) => (value === null ? null : Number(value));

function present(row: Row): ListedEvent {
  const detail = (typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail) as Record<
    string,
    unknown
  > | null;
  const text = (key: string) => (typeof detail?.[key] === 'string' ? (detail[key] as string) : null);
  return {
    id: `${row.gateway_id}.${row.event_id}`,
    at: new Date(row.at).toISOString(),
    gateway: Named(row.gateway_id, row.gateway_name),
    user: Named(row.user_id, row.user_name),
    device: Named(row.device_id, row.device_name),
    action: row.action as ListedEvent['action'],
    layer: row.layer,
    destination: row.destination,
    port: row.port,
    protocol: row.protocol,
    category: row.category,
    app: row.app,
    country: row.country,
    ruleName: row.rule_name,
    threat: row.threat,
    peer: text('peer'),
    endpoint: text('endpoint'),
    durationMs: num(row.duration_ms),
    bytesIn: num(row.bytes_in),
    bytesOut: num(row.bytes_out),
    detail: text('detail'),
    simulated: row.source === 'simulated',
  };
}

function filterWhere(tenantId: string, filter: EventFilter): SQL {
  const parts: SQL[] = [sql`e.tenant_id = ${tenantId}`, sql`e.kind = ${filter.kind}`];
  if (filter.from) parts.push(sql`e.at >= ${filter.from}::timestamptz`);
  if (filter.to) parts.push(sql`e.at <= ${filter.to}::timestamptz`);
  if (filter.userId) parts.push(sql`e.user_id = ${filter.userId}`);
  if (filter.deviceId) parts.push(sql`e.device_id = ${filter.deviceId}`);
  if (filter.gatewayId) parts.push(sql`e.gateway_id = ${filter.gatewayId}`);
  if (filter.action) parts.push(sql`e.action = ${filter.action}`);
  if (filter.decision) parts.push(sql`e.action = ${filter.decision}`);
  if (filter.layer) parts.push(sql`e.layer = ${filter.layer}`);
  if (filter.destination) parts.push(sql`e.destination = ${filter.destination}`);
  if (filter.category) parts.push(sql`e.category = ${filter.category}`);
  if (filter.app) parts.push(sql`e.app = ${filter.app}`);
  if (filter.country) parts.push(sql`e.country = ${filter.country}`);
  if (filter.threat) parts.push(sql`e.threat = ${filter.threat}`);
  if (filter.rule) parts.push(sql`e.rule_name = ${filter.rule}`);
  if (filter.source) parts.push(sql`e.source = ${filter.source}`);
  return sql.join(parts, sql` and `);
}
