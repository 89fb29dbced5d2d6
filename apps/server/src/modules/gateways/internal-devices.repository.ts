import {
  INTERNAL_DEVICE_RETENTION_DAYS,
  type InternalDeviceListQuery,
  type InternalDeviceSource,
  SITE_GATEWAY_KINDS,
} from '@palisade/contracts';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
import { gateways } from './gateways.tables';
import { internalDevices } from './internal-devices.tables';

/**
 * Internal devices (migration 0026): the hosts site gateways see, upserted from their heartbeats, and the list
 * over them, keyset-paged in each order by an index of the table.
 */

/** A host as the screens show it: its row with its gateway's name. */
export interface InternalDeviceRow {
  id: string;
  gatewayId: string;
  gatewayName: string;
  mac: string;
  ip: string;
  hostname: string | null;
  vendor: string | null;
  source: InternalDeviceSource;
  interface: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** One host of a heartbeat, merged per MAC address and with its vendor. */
export interface SeenHost {
  mac: string;
  ip: string;
  hostname: string | null;
  vendor: string | null;
  source: InternalDeviceSource;
  interface: string | null;
}

/**
 * A host seen again with nothing changed is written at most this often: a gateway reports every few seconds, the
 * list shows "seen within 10 minutes", and thousands of unchanged rows need not be rewritten each time.
 */
export const TOUCH_AFTER_MS = 60_000;

/** The rows one statement upserts (10 parameters each, far below PostgreSQL's 65 535). */
const UPSERT_CHUNK = 1000;

/** Whether a gateway of the tenant is a site gateway in service (the only kind whose LAN is kept). */
export async function isActiveSiteGateway(tx: Tx, tenantId: string, gatewayId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: gateways.id })
    .from(gateways)
    .where(
      and(
        eq(gateways.tenantId, tenantId),
        eq(gateways.id, gatewayId),
        inArray(gateways.kind, [...SITE_GATEWAY_KINDS]),
        isNull(gateways.retiredAt),
      ),
    );
  return row !== undefined;
}

/**
 * Records the hosts a gateway sees: a new one is inserted (first seen now); a known one gets its address, source,
 * interface and vendor, and keeps its host name unless a new one came (a DHCP name wins over none). Last seen
 * moves to now when something changed or {@link TOUCH_AFTER_MS} passed. When a new host appeared, the gateway's
 * hosts not seen for {@link INTERNAL_DEVICE_RETENTION_DAYS} days are forgotten. Answers how many were new.
 */
export async function upsertHosts(
  tx: Tx,
  tenantId: string,
  gatewayId: string,
  hosts: readonly SeenHost[],
): Promise<number> {
  let inserted = 0;
  const d = internalDevices;
  for (let at = 0; at < hosts.length; at += UPSERT_CHUNK) {
    const rows = await tx
      .insert(d)
      .values(
        hosts.slice(at, at + UPSERT_CHUNK).map((host) => ({
          tenantId,
          gatewayId,
          mac: host.mac,
          ip: host.ip,
          hostname: host.hostname,
          vendor: host.vendor,
          source: host.source,
          interface: host.interface,
        })),
      )
      .onConflictDoUpdate({
        target: [d.tenantId, d.gatewayId, d.mac],
        set: {
          ip: sql`excluded.ip`,
          hostname: sql`coalesce(excluded.hostname, internal_devices.hostname)`,
          vendor: sql`excluded.vendor`,
          source: sql`excluded.source`,
          interface: sql`excluded.interface`,
          lastSeenAt: sql`now()`,
          updatedAt: sql`now()`,
        },
        // The existing row by the table's name, the reported one as `excluded` (PostgreSQL's ON CONFLICT).
        setWhere: sql`internal_devices.last_seen_at < now() - make_interval(secs => ${TOUCH_AFTER_MS / 1000})
          or internal_devices.ip is distinct from excluded.ip
          or (excluded.hostname is not null and internal_devices.hostname is distinct from excluded.hostname)
          or internal_devices.vendor is distinct from excluded.vendor
          or internal_devices.source is distinct from excluded.source
          or internal_devices.interface is distinct from excluded.interface`,
      })
      // A row the statement inserted has no deleting transaction yet (xmax 0); an updated one has.
      .returning({ isNew: sql<boolean>`(xmax = 0)` });
    inserted += rows.filter((row) => row.isNew).length;
  }
  if (inserted > 0) {
    await tx
      .delete(d)
      .where(
        and(
          eq(d.tenantId, tenantId),
          eq(d.gatewayId, gatewayId),
          sql`${d.lastSeenAt} < now() - make_interval(days => ${INTERNAL_DEVICE_RETENTION_DAYS}::int)`,
        ),
      );
  }
  return inserted;
}

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What the search looks in (the expression of the migration's trigram index). */
const SEARCH = sql`lower(coalesce(d.hostname, '') || ' ' || host(d.ip) || ' ' || d.mac || ' ' || coalesce(d.vendor, ''))`;

/** The sort keys of each order (the expressions of the migration's indexes), each ending in the id. */
const SORT_KEYS: Record<InternalDeviceListQuery['sort'], { expr: SQL; cast: SQL }[]> = {
  lastSeenAt: [
    { expr: sql`d.last_seen_at`, cast: sql`::timestamptz` },
    { expr: sql`d.id`, cast: sql`::uuid` },
  ],
  // Unnamed hosts after the named ones (ascending).
  hostname: [
    { expr: sql`(d.hostname is null)::int`, cast: sql`::int` },
    { expr: sql`lower(coalesce(d.hostname, ''))`, cast: sql`::text` },
    { expr: sql`d.id`, cast: sql`::uuid` },
  ],
  ip: [
    { expr: sql`d.ip`, cast: sql`::inet` },
    { expr: sql`d.id`, cast: sql`::uuid` },
  ],
};

const SELECT = sql`select d.id, d.gateway_id as "gatewayId", g.name as "gatewayName", d.mac, host(d.ip) as ip,
    d.hostname, d.vendor, d.source, d.interface, d.first_seen_at as "firstSeenAt", d.last_seen_at as "lastSeenAt"`;
const FROM = sql`from internal_devices d join gateways g on g.tenant_id = d.tenant_id and g.id = d.gateway_id`;

function toRow(row: Record<string, unknown>): InternalDeviceRow {
  return {
    id: String(row.id),
    gatewayId: String(row.gatewayId),
    gatewayName: String(row.gatewayName),
    mac: String(row.mac),
    ip: String(row.ip),
    hostname: (row.hostname as string | null) ?? null,
    vendor: (row.vendor as string | null) ?? null,
    source: row.source as InternalDeviceSource,
    interface: (row.interface as string | null) ?? null,
    firstSeenAt: new Date(row.firstSeenAt as string),
    lastSeenAt: new Date(row.lastSeenAt as string),
  };
}

/** One page of the tenant's internal devices in the query's order, with its total and the cursor after it. */
export async function listInternalDevices(tx: Tx, tenantId: string, query: InternalDeviceListQuery) {
  const filters = [
    sql`d.tenant_id = ${tenantId}`,
    query.gatewayId ? sql`d.gateway_id = ${query.gatewayId}` : null,
    // A MAC address may be searched for as written with dashes.
    query.q ? sql`${SEARCH} like ${likePattern(query.q.replaceAll('-', ':'))}` : null,
  ].filter((filter): filter is SQL => filter !== null);
  const where = sql.join(filters, sql` and `);
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const keys = SORT_KEYS[query.sort];
  const after = query.cursor
    ? sql` and ${afterKey(
        keys.map((k) => k.expr),
        decodeCursor(query.cursor, query.sort, query.order, keys.length).map(
          (value, i) => sql`${value}${keys[i].cast}`,
        ),
        query.order,
      )}`
    : sql``;
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`${SELECT}, array[${sql.join(
      keys.map((k) => sql`${k.expr}::text`),
      sql`, `,
    )}] as cursor_key
      ${FROM}
      where ${where}${after}
      order by ${sql.join(
        keys.map((k) => sql`${k.expr} ${dir}`),
        sql`, `,
      )}
      limit ${query.limit + 1} offset ${query.cursor ? 0 : query.offset}`,
  );
  const page = rows.slice(0, query.limit);
  const total = await pageTotal(tx, sql`from internal_devices d where ${where}`, {
    ...query,
    rows: page.length,
  });
  const last = page.at(-1);
  return {
    items: page.map(toRow),
    ...total,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(query.sort, query.order, last.cursor_key as string[])
        : null,
  };
}

/** One internal device of the tenant, or null. */
export async function getInternalDevice(tx: Tx, tenantId: string, id: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`${SELECT} ${FROM} where d.tenant_id = ${tenantId} and d.id = ${id}`,
  );
  return row ? toRow(row) : null;
}

/** Forgets an internal device; false when the tenant has no such one. */
export async function deleteInternalDevice(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(internalDevices)
    .where(and(eq(internalDevices.tenantId, tenantId), eq(internalDevices.id, id)))
    .returning({ id: internalDevices.id });
  return rows.length > 0;
}
