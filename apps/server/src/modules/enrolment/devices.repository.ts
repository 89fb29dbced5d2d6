import {
  DEVICE_ONLINE_MS,
  type DeviceListQuery,
  type DeviceOs,
  type DeviceState,
  GATEWAY_OFFLINE_AFTER_MS,
  ONE_DAY_MS,
  type PostureReport,
  SITE_GATEWAY_KINDS,
} from '@palisade/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
import { deviceSessions, deviceSettings, devices } from './enrolment.tables';

/**
 * The device inventory: endpoints (`devices`) and site gateways (`gateways` of kinds cgw, cgwr, lgw — the
 * gateways module owns them; listed here read-only) as one list, keyset-paged in each order by an index of each
 * table, so a page costs the same at 100 000 devices.
 */

/** A row of the inventory, as both tables give it. */
export interface InventoryRow {
  kind: 'endpoint' | 'site';
  id: string;
  name: string;
  os: DeviceOs;
  userId: string | null;
  username: string | null;
  lastSeenAt: Date | null;
  onlineMs: number;
  state: DeviceState;
  agentVersion: string | null;
  posture: PostureReport;
  enforcedVersion: string | null;
  address: string | null;
  keyExpiresAt: Date | null;
  enrolledAt: Date | null;
  /** Endpoints: the tunnel host, and the fingerprint of the configuration last handed out (migration 0044). */
  wgHost: number | null;
  configFingerprint: string | null;
}

const SITE_KINDS = sql.join(
  SITE_GATEWAY_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
);

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The two sources with the same column names: `d` for endpoints, `g` for site gateways. */
const SOURCES = {
  endpoint: {
    select: sql`select 'endpoint' as kind, d.id, d.name, d.os, d.user_id, u.username, d.last_seen_at,
        ${DEVICE_ONLINE_MS}::int as online_ms, d.state, d.agent_version, d.posture, d.enforced_version,
        case when d.wg_host is null then null else '100.64.' || (d.wg_host >> 8) || '.' || (d.wg_host & 255) end
          as address,
        d.key_expires_at, d.enrolled_at, d.wg_host, d.wg_config_fingerprint`,
    from: sql`from devices d left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id`,
    tenant: (tenantId: string) => sql`d.tenant_id = ${tenantId}`,
    alias: sql`d`,
  },
  site: {
    select: sql`select 'site' as kind, g.id, g.name, g.kind as os, null::uuid as user_id, null::text as username,
        g.last_seen_at, ${GATEWAY_OFFLINE_AFTER_MS}::int as online_ms,
        case when g.enrolled_at is null then 'pending' else 'active' end as state, g.version as agent_version,
        '{}'::jsonb as posture, g.enforced_version, split_part(g.wg_address, '/', 1) as address,
        null::timestamptz as key_expires_at, g.enrolled_at, null::int as wg_host,
        null::text as wg_config_fingerprint`,
    from: sql`from gateways g`,
    tenant: (tenantId: string) =>
      sql`g.tenant_id = ${tenantId} and g.kind in (${SITE_KINDS}) and g.retired_at is null`,
    alias: sql`g`,
  },
} as const;
type Source = keyof typeof SOURCES;

/** The sort keys of each order, per source (the same expressions as the migration's indexes). */
function sortKeys(sort: DeviceListQuery['sort'], source: Source): { expr: SQL; cast: SQL }[] {
  const t = SOURCES[source].alias;
  const id = { expr: sql`${t}.id`, cast: sql`::uuid` };
  const name = { expr: sql`lower(${t}.name)`, cast: sql`::text` };
  switch (sort) {
    case 'lastSeenAt':
      return [{ expr: sql`coalesce(${t}.last_seen_at, 'epoch'::timestamptz)`, cast: sql`::timestamptz` }, id];
    case 'os':
      return [{ expr: source === 'site' ? sql`g.kind` : sql`d.os`, cast: sql`::text` }, name, id];
    case 'enrolledAt':
      return [
        {
          expr: source === 'site' ? sql`coalesce(g.enrolled_at, 'epoch'::timestamptz)` : sql`d.enrolled_at`,
          cast: sql`::timestamptz`,
        },
        id,
      ];
    default:
      return [name, id];
  }
}

/** The filters of a query on one source, or null when the source has nothing to match (no such rows). */
function filtersOf(query: DeviceListQuery, source: Source, tenantId: string): SQL | null {
  const s = SOURCES[source];
  if (query.kind && query.kind !== source) return null;
  if (source === 'site' && (query.userId || query.groupId)) return null;
  if (source === 'site' && (query.state === 'disabled' || query.state === 'expired')) return null;
  const t = s.alias;
  const onlineMs = source === 'site' ? GATEWAY_OFFLINE_AFTER_MS : DEVICE_ONLINE_MS;
  const online = sql`${t}.last_seen_at > now() - ${onlineMs} * interval '1 millisecond'`;
  const filters: (SQL | null)[] = [
    s.tenant(tenantId),
    query.q
      ? source === 'site'
        ? sql`(lower(g.name) like ${likePattern(query.q)} or lower(coalesce(g.hostname, '')) like ${likePattern(query.q)})`
        : // The device's name and its owner's username in one column the database keeps (migration 0030): one
          // condition on devices alone, where an OR across devices and the joined users had to join every row.
          sql`d.search like ${likePattern(query.q)}`
      : null,
    query.os ? (source === 'site' ? sql`g.kind = ${query.os}` : sql`d.os = ${query.os}`) : null,
    query.status === 'online' ? online : null,
    query.status === 'offline' ? sql`${t}.last_seen_at is not null and not (${online})` : null,
    query.status === 'never' ? sql`${t}.last_seen_at is null` : null,
    query.state
      ? source === 'site'
        ? query.state === 'pending'
          ? sql`g.enrolled_at is null`
          : sql`g.enrolled_at is not null`
        : sql`d.state = ${query.state}`
      : null,
    query.userId ? sql`d.user_id = ${query.userId}` : null,
    query.groupId
      ? sql`d.user_id in (select ug.user_id from user_groups ug
          where ug.tenant_id = d.tenant_id and ug.group_id = ${query.groupId})`
      : null,
  ];
  return sql.join(
    filters.filter((f): f is SQL => f !== null),
    sql` and `,
  );
}

const toDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toInventoryRow(row: Record<string, unknown>): InventoryRow {
  return {
    kind: row.kind as InventoryRow['kind'],
    id: String(row.id),
    name: String(row.name),
    os: row.os as DeviceOs,
    userId: row.user_id === null ? null : String(row.user_id),
    username: (row.username as string | null) ?? null,
    lastSeenAt: toDate(row.last_seen_at),
    onlineMs: Number(row.online_ms),
    state: row.state as DeviceState,
    agentVersion: (row.agent_version as string | null) ?? null,
    posture: (row.posture as PostureReport | null) ?? {},
    enforcedVersion: (row.enforced_version as string | null) ?? null,
    address: (row.address as string | null) ?? null,
    keyExpiresAt: toDate(row.key_expires_at),
    enrolledAt: toDate(row.enrolled_at),
    wgHost: row.wg_host === null || row.wg_host === undefined ? null : Number(row.wg_host),
    configFingerprint: (row.wg_config_fingerprint as string | null) ?? null,
  };
}

/** The unordered inventory rows matching a query (for the count and the export). */
function matching(tenantId: string, query: DeviceListQuery): SQL | null {
  const parts = (['endpoint', 'site'] as const).flatMap((source) => {
    const where = filtersOf(query, source, tenantId);
    return where ? [sql`${SOURCES[source].select} ${SOURCES[source].from} where ${where}`] : [];
  });
  return parts.length ? sql.join(parts, sql` union all `) : null;
}

/** One page of the inventory in the query's order, with its total and the cursor after it. */
export async function listInventory(tx: Tx, tenantId: string, query: DeviceListQuery) {
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const keyLength = sortKeys(query.sort, 'endpoint').length;
  const cursor = query.cursor ? decodeCursor(query.cursor, query.sort, query.order, keyLength) : null;
  const take = query.limit + 1 + (cursor ? 0 : query.offset);
  // Each source ordered and cut by its own index, then merged: never more than a page per source is read.
  const branches = (['endpoint', 'site'] as const).flatMap((source) => {
    const where = filtersOf(query, source, tenantId);
    if (!where) return [];
    const keys = sortKeys(query.sort, source);
    const after = cursor
      ? sql` and ${afterKey(
          keys.map((k) => k.expr),
          cursor.map((value, i) => sql`${value}${keys[i].cast}`),
          query.order,
        )}`
      : sql``;
    return [
      sql`(${SOURCES[source].select}, ${sql.join(
        keys.map((k, i) => sql`${k.expr} as k${sql.raw(String(i))}`),
        sql`, `,
      )}
        ${SOURCES[source].from} where ${where}${after}
        order by ${sql.join(
          keys.map((k) => sql`${k.expr} ${dir}`),
          sql`, `,
        )} limit ${take})`,
    ];
  });
  if (branches.length === 0) return { items: [], total: 0, totalIsEstimate: false, nextCursor: null };
  const keyColumns = Array.from({ length: keyLength }, (_, i) => sql.raw(`k${i}`));
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select *, array[${sql.join(
      keyColumns.map((k) => sql`${k}::text`),
      sql`, `,
    )}] as cursor_key from (${sql.join(branches, sql` union all `)}) t
      order by ${sql.join(
        keyColumns.map((k) => sql`${k} ${dir}`),
        sql`, `,
      )}
      limit ${query.limit + 1} offset ${cursor ? 0 : query.offset}`,
  );
  const page = rows.slice(0, query.limit);
  const from = matching(tenantId, query) as SQL;
  const total = await pageTotal(tx, sql`from (${from}) t`, { ...query, rows: page.length });
  const last = page.at(-1);
  return {
    items: page.map(toInventoryRow),
    ...total,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(query.sort, query.order, last.cursor_key as string[])
        : null,
  };
}

/** One inventory row by id (an endpoint or a site gateway of the tenant), or null. */
export async function inventoryRow(tx: Tx, tenantId: string, id: string): Promise<InventoryRow | null> {
  for (const source of ['endpoint', 'site'] as const) {
    const s = SOURCES[source];
    const [row] = await queryRows<Record<string, unknown>>(
      tx,
      sql`${s.select} ${s.from} where ${s.tenant(tenantId)} and ${s.alias}.id = ${id}`,
    );
    if (row) return toInventoryRow(row);
  }
  return null;
}

/** An endpoint's own columns beyond the inventory row. */
export async function endpointExtras(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select({
      enrolledVia: devices.enrolledVia,
      wgPublicKey: devices.wgPublicKey,
      wgHost: devices.wgHost,
      userId: devices.userId,
      configDownloadedAt: devices.wgConfigDownloadedAt,
    })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)));
  return row ?? null;
}

/**
 * Records the configuration handed out for a device: its fingerprint, and with `downloadedAt` when a person took
 * it (enrolment in the browser, "download again"); an agent's check-in only moves the fingerprint, and writes
 * nothing when it is unchanged.
 */
export async function recordConfigFingerprint(
  tx: Tx,
  tenantId: string,
  id: string,
  fingerprint: string,
  downloadedAt?: Date,
) {
  await tx
    .update(devices)
    .set(
      downloadedAt
        ? { wgConfigFingerprint: fingerprint, wgConfigDownloadedAt: downloadedAt }
        : { wgConfigFingerprint: fingerprint },
    )
    .where(
      and(
        eq(devices.tenantId, tenantId),
        eq(devices.id, id),
        downloadedAt ? undefined : sql`${devices.wgConfigFingerprint} is distinct from ${fingerprint}`,
      ),
    );
}

/** The user groups of a device's owner. */
export async function groupsOfUser(tx: Tx, tenantId: string, userId: string): Promise<string[]> {
  const rows = await queryRows<{ group_id: string }>(
    tx,
    sql`select group_id from user_groups where tenant_id = ${tenantId} and user_id = ${userId}`,
  );
  return rows.map((row) => String(row.group_id));
}

/** The latest online stretches of a device, newest first. */
export function deviceSessionsOf(tx: Tx, tenantId: string, deviceId: string, limit = 20) {
  return tx
    .select()
    .from(deviceSessions)
    .where(and(eq(deviceSessions.tenantId, tenantId), eq(deviceSessions.deviceId, deviceId)))
    .orderBy(sql`${deviceSessions.startedAt} desc`)
    .limit(limit);
}

/** Endpoints of the tenant among `ids`, with their state (site gateway ids are not endpoints). */
export async function endpointsAmong(tx: Tx, tenantId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: devices.id, name: devices.name, state: devices.state, wgHost: devices.wgHost })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), inArray(devices.id, ids)));
}

/** Sets the state of endpoints; answers the ids that changed. */
export async function setDeviceState(
  tx: Tx,
  tenantId: string,
  ids: string[],
  state: DeviceState,
  keyExpiresAt?: Date | null,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .update(devices)
    .set({ state, ...(keyExpiresAt !== undefined ? { keyExpiresAt } : {}), updatedAt: new Date() })
    .where(and(eq(devices.tenantId, tenantId), inArray(devices.id, ids), sql`${devices.state} <> ${state}`))
    .returning({ id: devices.id });
  return rows.map((row) => row.id);
}

export async function renameDevice(tx: Tx, tenantId: string, id: string, name: string) {
  await tx
    .update(devices)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)));
}

export async function expireKey(tx: Tx, tenantId: string, id: string) {
  await tx
    .update(devices)
    .set({ state: 'expired', keyExpiresAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id), eq(devices.state, 'active')));
}

// ─── Settings ───────────────────────────────────────────────────────────────────────────────────────────────

export async function getSettings(tx: Tx, tenantId: string) {
  const [row] = await tx.select().from(deviceSettings).where(eq(deviceSettings.tenantId, tenantId));
  return { requireApproval: row?.requireApproval ?? false, keyExpiryDays: row?.keyExpiryDays ?? null };
}

/** What a new endpoint starts as under the tenant's rules: pending when approval is required, and its key lifetime. */
export async function initialState(tx: Tx, tenantId: string) {
  const settings = await getSettings(tx, tenantId);
  return {
    state: settings.requireApproval ? ('pending' as const) : ('active' as const),
    keyExpiresAt:
      settings.keyExpiryDays === null ? null : new Date(Date.now() + settings.keyExpiryDays * ONE_DAY_MS),
  };
}

export async function putSettings(
  tx: Tx,
  tenantId: string,
  values: { requireApproval: boolean; keyExpiryDays: number | null },
) {
  await tx
    .insert(deviceSettings)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: deviceSettings.tenantId, set: { ...values, updatedAt: new Date() } });
}

// ─── The client's check-in ──────────────────────────────────────────────────────────────────────────────────

/** The endpoint of a device credential across tenants, unless its owner is gone or disabled. */
export async function deviceOfTokenHash(db: Db, tokenHash: string) {
  const [row] = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`select d.tenant_id, d.id from devices d
      left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
      where d.token_hash = ${tokenHash}
        and (u.id is not null and not u.is_suspended or d.user_id is null and d.enrolled_via = 'rmm')`,
  );
  return row ? { tenantId: String(row.tenant_id), id: String(row.id) } : null;
}

/** Records a check-in: what the client reports, and its online stretch (extended, or a new one after a gap). */
export async function recordCheckin(
  tx: Tx,
  tenantId: string,
  id: string,
  report: { agentVersion: string; enforcedVersion: string | null; posture: PostureReport; ip: string | null },
) {
  // What the previous check-in left, locked until the commit: two check-ins at once see each other's report.
  const [previous] = await tx
    .select({
      agentVersion: devices.agentVersion,
      posture: devices.posture,
      userId: devices.userId,
    })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)))
    .for('update');
  if (!previous) return null;
  const [before] = await tx
    .update(devices)
    .set({
      agentVersion: report.agentVersion,
      enforcedVersion: report.enforcedVersion,
      posture: report.posture,
      lastIp: report.ip,
      connstatus: 'connected',
      lastSeenAt: sql`now()`,
      updatedAt: new Date(),
    })
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)))
    .returning({ state: devices.state, keyExpiresAt: devices.keyExpiresAt, wgHost: devices.wgHost });
  await extendSession(tx, tenantId, id, report.ip, report.agentVersion);
  return before ? { ...before, previous } : null;
}

/** Extends the device's open online stretch, or opens one when the last ended more than the online window ago. */
async function extendSession(
  tx: Tx,
  tenantId: string,
  deviceId: string,
  ip: string | null,
  agentVersion: string | null,
) {
  const updated = await queryRows<{ started_at: string }>(
    tx,
    sql`update device_sessions set last_seen_at = now(), ip = coalesce(${ip}, ip),
          agent_version = coalesce(${agentVersion}, agent_version)
        where tenant_id = ${tenantId} and device_id = ${deviceId}
          and started_at = (select max(started_at) from device_sessions
            where tenant_id = ${tenantId} and device_id = ${deviceId})
          and last_seen_at > now() - ${DEVICE_ONLINE_MS} * interval '1 millisecond'
        returning started_at`,
  );
  if (updated.length > 0) return;
  await tx.insert(deviceSessions).values({
    tenantId,
    deviceId,
    startedAt: sql`now()` as unknown as Date,
    lastSeenAt: sql`now()` as unknown as Date,
    ip,
    agentVersion,
  });
  // The newest 100 stretches of a device are kept.
  await tx.execute(
    sql`delete from device_sessions where tenant_id = ${tenantId} and device_id = ${deviceId}
      and started_at < (select started_at from device_sessions where tenant_id = ${tenantId}
        and device_id = ${deviceId} order by started_at desc offset 99 limit 1)`,
  );
}

/** A new WireGuard key for an endpoint: active again, with a new key lifetime. */
export async function replaceKey(
  tx: Tx,
  tenantId: string,
  id: string,
  publicKey: string,
  wgHost: number | null,
  keyExpiresAt: Date | null,
) {
  await tx
    .update(devices)
    .set({
      wgPublicKey: publicKey,
      wgHost,
      keyExpiresAt,
      state: sql`case when ${devices.state} = 'expired' then 'active' else ${devices.state} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)));
}

/**
 * Marks active endpoints whose key lifetime ended as expired, across tenants (the owner connection: a sweep, not
 * a request); answers the tenants whose gateways lose peers.
 */
export async function expireDueKeys(db: Db): Promise<string[]> {
  const rows = await queryRows<{ tenant_id: string }>(
    db,
    sql`update devices set state = 'expired', updated_at = now()
      where state = 'active' and key_expires_at <= now()
      returning tenant_id`,
  );
  return [...new Set(rows.map((row) => String(row.tenant_id)))];
}
