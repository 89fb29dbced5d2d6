import type { GatewayKind, GatewayListQuery, GatewayMetrics } from '@palisade/contracts';
import { and, desc, eq, inArray, isNotNull, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/driver';
import { afterKey, decodeCursor, encodeCursor, pageTotal } from '../../db/paging';
import { tenants } from '../../db/schema';
import { gatewayBundles, gateways, type StoredPeer } from './gateways.tables';

export type GatewayRow = typeof gateways.$inferSelect;
export type BundleRow = typeof gatewayBundles.$inferSelect;

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const KIND_FILTERS: Record<NonNullable<GatewayListQuery['kind']>, SQL> = {
  cybernode: sql`g.kind = 'cybernode'`,
  virtual: sql`g.kind = 'virtual'`,
  site: sql`g.kind in ('cgw', 'cgwr', 'lgw')`,
};

/**
 * What `status` means in SQL, as presentGateway derives it: retired, never enrolled (pending), heard from
 * within `offlineAfterMs` (online), else offline.
 */
function statusFilter(status: NonNullable<GatewayListQuery['status']>, offlineAfterMs: number): SQL {
  const fresh = sql`g.last_seen_at > now() - make_interval(secs => ${offlineAfterMs / 1000})`;
  if (status === 'retired') return sql`g.retired_at is not null`;
  if (status === 'pending') return sql`g.retired_at is null and g.enrolled_at is null`;
  if (status === 'online') return sql`g.retired_at is null and g.enrolled_at is not null and ${fresh}`;
  return sql`g.retired_at is null and g.enrolled_at is not null and (g.last_seen_at is null or not ${fresh})`;
}

const SORT_KEYS = {
  name: [
    { expr: sql`lower(g.name)`, cast: sql`` },
    { expr: sql`g.id`, cast: sql`::uuid` },
  ],
  region: [
    { expr: sql`g.region`, cast: sql`` },
    { expr: sql`g.id`, cast: sql`::uuid` },
  ],
  status: [
    { expr: sql`(g.retired_at is not null)::int * 2 + (g.enrolled_at is null)::int`, cast: sql`::int` },
    { expr: sql`g.id`, cast: sql`::uuid` },
  ],
  lastSeenAt: [
    { expr: sql`coalesce(g.last_seen_at, 'epoch'::timestamptz)`, cast: sql`::timestamptz` },
    { expr: sql`g.id`, cast: sql`::uuid` },
  ],
} as const;

/** One page of a tenant's gateways, keyset-paged like the other large lists. */
export async function listGateways(
  tx: Tx,
  tenantId: string,
  query: GatewayListQuery,
  offlineAfterMs: number,
) {
  const filters = [
    query.q
      ? sql`(lower(g.name) like ${likePattern(query.q)} or lower(coalesce(g.hostname, '')) like ${likePattern(query.q)})`
      : null,
    query.kind ? KIND_FILTERS[query.kind] : null,
    query.status ? statusFilter(query.status, offlineAfterMs) : null,
  ].filter((filter): filter is SQL => filter !== null);
  const where = sql`g.tenant_id = ${tenantId}${filters.length ? sql` and ${sql.join(filters, sql` and `)}` : sql``}`;
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const keys = SORT_KEYS[query.sort];
  const after = query.cursor
    ? sql`and ${afterKey(
        keys.map((k) => k.expr),
        decodeCursor(query.cursor, query.sort, query.order, keys.length).map(
          (value, i) => sql`${value}${keys[i].cast}`,
        ),
        query.order,
      )}`
    : sql``;
  const rows = await queryRows<{ id: string; cursor_key: string[] }>(
    tx,
    sql`select g.id, array[${sql.join(
      keys.map((k) => sql`${k.expr}::text`),
      sql`, `,
    )}] as cursor_key
      from gateways g
      where ${where} ${after}
      order by ${sql.join(
        keys.map((k) => sql`${k.expr} ${dir}`),
        sql`, `,
      )}
      limit ${query.limit + 1} offset ${query.cursor ? 0 : query.offset}`,
  );
  const page = rows.slice(0, query.limit);
  const ids = page.map((row) => String(row.id));
  const found =
    ids.length === 0
      ? []
      : await tx
          .select()
          .from(gateways)
          .where(and(eq(gateways.tenantId, tenantId), sql`${gateways.id} = any(${pgArray(ids, 'uuid')})`));
  const byId = new Map(found.map((row) => [row.id, row]));
  const total = await pageTotal(tx, sql`from gateways g where ${where}`, { ...query, rows: page.length });
  const last = page.at(-1);
  return {
    items: ids.map((id) => byId.get(id)).filter((row): row is GatewayRow => row !== undefined),
    ...total,
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(query.sort, query.order, last.cursor_key) : null,
  };
}

export async function getGateway(tx: Tx, tenantId: string, id: string): Promise<GatewayRow | null> {
  const [row] = await tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)));
  return row ?? null;
}

/** Some gateways of the tenant, by id (those it has not are absent). */
export async function gatewaysByIds(
  tx: Tx,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, GatewayRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.tenantId, tenantId), inArray(gateways.id, [...ids])));
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertGateway(tx: Tx, values: typeof gateways.$inferInsert): Promise<GatewayRow> {
  const [row] = await tx.insert(gateways).values(values).returning();
  return row;
}

export async function updateGateway(
  tx: Tx,
  tenantId: string,
  id: string,
  values: Partial<typeof gateways.$inferInsert>,
): Promise<GatewayRow | null> {
  const [row] = await tx
    .update(gateways)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)))
    .returning();
  return row ?? null;
}

/** The gateway an unused, unexpired enrolment token belongs to (any tenant: the token is the proof). */
export async function gatewayByEnrolmentToken(db: Db, tokenHash: string): Promise<GatewayRow | null> {
  const [row] = await db
    .select()
    .from(gateways)
    .where(
      and(
        eq(gateways.enrolmentTokenHash, tokenHash),
        isNull(gateways.retiredAt),
        sql`${gateways.enrolmentExpiresAt} > now()`,
      ),
    );
  return row ?? null;
}

/**
 * Uses up a gateway's enrolment token: one conditional update, so of gateways racing with the same token exactly
 * one gets the row (the others wait for its lock, then find the token gone). Null when the token is no longer
 * the gateway's, has expired, or the gateway was retired.
 */
export async function consumeEnrolmentToken(
  tx: Tx,
  tenantId: string,
  id: string,
  tokenHash: string,
  values: Partial<typeof gateways.$inferInsert>,
): Promise<GatewayRow | null> {
  const [row] = await tx
    .update(gateways)
    .set({ ...values, enrolmentTokenHash: null, enrolmentExpiresAt: null, updatedAt: new Date() })
    .where(
      and(
        eq(gateways.tenantId, tenantId),
        eq(gateways.id, id),
        eq(gateways.enrolmentTokenHash, tokenHash),
        isNull(gateways.retiredAt),
        sql`${gateways.enrolmentExpiresAt} > now()`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether a tenant is suspended or scheduled for deletion (what its gateways' bundle long-polls refuse). */
export async function tenantStanding(db: Db, tenantId: string) {
  const [row] = await db
    .select({ suspendedAt: tenants.suspendedAt, deletionDueAt: tenants.deletionDueAt })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? null;
}

/**
 * The gateways some credentials belong to, unless retired (any tenant: the credential is the proof), by
 * credential hash; unknown hashes are absent.
 */
export async function gatewaysByCredentials(
  db: Db,
  credentialHashes: readonly string[],
): Promise<Map<string, { tenantId: string; id: string }>> {
  const rows = await db
    .select({ hash: gateways.credentialHash, tenantId: gateways.tenantId, id: gateways.id })
    .from(gateways)
    .where(and(inArray(gateways.credentialHash, [...credentialHashes]), isNull(gateways.retiredAt)));
  return new Map(rows.map(({ hash, ...gateway }) => [String(hash), gateway]));
}

/**
 * Makes the tenant's gateways that enrol at the same time pick their tunnel addresses one after the other (until
 * the transaction ends): each sees the address the one before took, instead of both taking the same free one.
 */
export async function lockTunnelAddresses(tx: Tx, tenantId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('gateway_addresses'), hashtext(${tenantId}))`);
}

/** The tunnel addresses in use by the tenant's gateways (a new one takes the next free). */
export async function usedAddresses(tx: Tx, tenantId: string): Promise<string[]> {
  const rows = await tx
    .select({ address: gateways.wgAddress })
    .from(gateways)
    .where(
      and(
        eq(gateways.tenantId, tenantId),
        isNull(gateways.retiredAt),
        sql`${gateways.wgAddress} is not null`,
      ),
    );
  return rows.map((row) => String(row.address));
}

/** Records a heartbeat: last seen, version, load, peers, and the enforced version (with when it first was). */
/**
 * A tunnel handshake a gateway reports is a sign of life of the device holding the key: its last-seen time moves
 * to the handshake (never back). A device is connected while its latest handshake (any gateway's) is at most
 * {@link CONNECTED_WITHIN_SECONDS} old — the gateway's own rule for an active peer — and disconnected once it is
 * older: every heartbeat of the tenant's gateways moves the devices past it to disconnected.
 */
export async function markDevicesSeen(tx: Tx, tenantId: string, peers: readonly StoredPeer[]) {
  await tx.execute(
    sql`update devices set connstatus = 'disconnected'
      where tenant_id = ${tenantId} and connstatus = 'connected'
        and (last_seen_at is null or last_seen_at < now() - make_interval(secs => ${CONNECTED_WITHIN_SECONDS}::int))`,
  );
  const seen = peers.filter((peer) => peer.lastHandshakeAt);
  if (seen.length === 0) return;
  const keys = seen.map((p) => p.publicKey);
  const handshakes = seen.map((p) => p.lastHandshakeAt);
  await tx.execute(
    sql`update devices d set last_seen_at = h.at,
      connstatus = case when h.at >= now() - make_interval(secs => ${CONNECTED_WITHIN_SECONDS}::int)
        then 'connected' else 'disconnected' end
      from (select distinct on (key) key, at from unnest(
        ${pgArray(keys, 'text')}, ${pgArray(handshakes, 'timestamptz')}) as x(key, at)
        order by key, at desc) h
      where d.tenant_id = ${tenantId} and d.wg_public_key = h.key
        and (d.last_seen_at is null or d.last_seen_at < h.at)`,
  );
}

/** How recent a device's latest tunnel handshake is while it counts as connected (3 minutes, as on the gateway). */
export const CONNECTED_WITHIN_SECONDS = 180;

export async function recordHeartbeat(
  tx: Tx,
  tenantId: string,
  id: string,
  beat: { version: string; enforcedVersion: string | null; metrics: GatewayMetrics; peers: StoredPeer[] },
) {
  await tx
    .update(gateways)
    .set({
      lastSeenAt: sql`now()`,
      version: beat.version,
      metrics: beat.metrics,
      peers: beat.peers,
      enforcedAt: sql`case when ${gateways.enforcedVersion} is distinct from ${beat.enforcedVersion} then now() else ${gateways.enforcedAt} end`,
      enforcedVersion: beat.enforcedVersion,
      upgrade: sql`case when ${gateways.upgrade}->>'targetVersion' = ${beat.version} then null else ${gateways.upgrade} end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(gateways.tenantId, tenantId), eq(gateways.id, id)));
}

// ─── Bundles ────────────────────────────────────────────────────────────────────────────────────────────────

/** The order that makes a tenant's current bundle the first: a pinned (pushed back) one if any, else the newest. */
const CURRENT_FIRST = [
  sql`${gatewayBundles.pinnedAt} desc nulls last`,
  desc(gatewayBundles.createdAt),
] as const;

/** The tenant's current bundle: a pinned (pushed back) one if any, else the newest. */
export async function currentBundle(tx: Tx, tenantId: string): Promise<BundleRow | null> {
  const [row] = await tx
    .select()
    .from(gatewayBundles)
    .where(eq(gatewayBundles.tenantId, tenantId))
    .orderBy(...CURRENT_FIRST)
    .limit(1);
  return row ?? null;
}

/**
 * The tenant's current bundle without its content (artefacts, engine input, `skipped`: megabytes at 10 000
 * rules): enough to tell whether it is up to date before reading or compiling it.
 */
export async function currentBundleHead(tx: Tx, tenantId: string) {
  const [row] = await tx
    .select({ version: gatewayBundles.version, policyVersion: gatewayBundles.policyVersion })
    .from(gatewayBundles)
    .where(eq(gatewayBundles.tenantId, tenantId))
    .orderBy(...CURRENT_FIRST)
    .limit(1);
  return row ?? null;
}

export async function bundleByVersion(tx: Tx, tenantId: string, version: string): Promise<BundleRow | null> {
  const [row] = await tx
    .select()
    .from(gatewayBundles)
    .where(and(eq(gatewayBundles.tenantId, tenantId), eq(gatewayBundles.version, version)));
  return row ?? null;
}

/**
 * Stores a newly compiled bundle as the current one (a pin is dropped: the policy changed since) and keeps
 * only the newest `keep`. An identical bundle already stored just becomes current again, with its own content
 * (`isNew` false: the caller's values were not stored). Answers the stored row's creation time.
 */
export async function storeBundle(
  tx: Tx,
  values: typeof gatewayBundles.$inferInsert,
  keep: number,
): Promise<{ isNew: boolean; createdAt: Date }> {
  await tx
    .update(gatewayBundles)
    .set({ pinnedAt: null })
    .where(and(eq(gatewayBundles.tenantId, values.tenantId), isNotNull(gatewayBundles.pinnedAt)));
  const insert = () =>
    tx
      .insert(gatewayBundles)
      .values(values)
      .onConflictDoNothing({ target: [gatewayBundles.tenantId, gatewayBundles.version] })
      .returning({ createdAt: gatewayBundles.createdAt });
  const touch = () =>
    tx
      .update(gatewayBundles)
      .set({ createdAt: sql`now()`, policyVersion: values.policyVersion })
      .where(and(eq(gatewayBundles.tenantId, values.tenantId), eq(gatewayBundles.version, values.version)))
      .returning({ createdAt: gatewayBundles.createdAt });
  // Already stored: it becomes current again. (Deleted in between by another instance's store: stored anew.)
  let stored: { isNew: boolean; createdAt: Date } | null = null;
  while (!stored) {
    const [inserted] = await insert();
    const [touched] = inserted ? [] : await touch();
    stored = inserted ? { isNew: true, ...inserted } : touched ? { isNew: false, ...touched } : null;
  }
  const kept = tx
    .select({ version: gatewayBundles.version })
    .from(gatewayBundles)
    .where(eq(gatewayBundles.tenantId, values.tenantId))
    .orderBy(desc(gatewayBundles.createdAt))
    .limit(keep);
  await tx
    .delete(gatewayBundles)
    .where(and(eq(gatewayBundles.tenantId, values.tenantId), notInArray(gatewayBundles.version, kept)));
  return stored;
}

/**
 * Pins a kept bundle as the current one (rollback), stamped with the policy version the pin made, so it stays
 * current until the policy changes again. False when the version is not kept.
 */
export async function pinBundle(
  tx: Tx,
  tenantId: string,
  version: string,
  policyVersion: number,
): Promise<BundleRow | null> {
  await tx.update(gatewayBundles).set({ pinnedAt: null }).where(eq(gatewayBundles.tenantId, tenantId));
  const [row] = await tx
    .update(gatewayBundles)
    .set({ pinnedAt: sql`now()`, policyVersion })
    .where(and(eq(gatewayBundles.tenantId, tenantId), eq(gatewayBundles.version, version)))
    .returning();
  return row ?? null;
}

/** The kept bundles of a tenant, newest first (at most GATEWAY_BUNDLES_KEPT). */
export async function listBundles(tx: Tx, tenantId: string): Promise<BundleRow[]> {
  return tx
    .select()
    .from(gatewayBundles)
    .where(eq(gatewayBundles.tenantId, tenantId))
    .orderBy(desc(gatewayBundles.createdAt));
}

/** The enrolled gateways of a tenant that are not retired (who receives a bundle). */
export async function activeGateways(tx: Tx, tenantId: string): Promise<GatewayRow[]> {
  return tx
    .select()
    .from(gateways)
    .where(and(eq(gateways.tenantId, tenantId), isNotNull(gateways.enrolledAt), isNull(gateways.retiredAt)))
    .orderBy(gateways.name);
}

// ─── Devices as WireGuard peers ─────────────────────────────────────────────────────────────────────────────

/** A device of the tenant that enrolled with a WireGuard key, with its user. */
export interface DevicePeerRow {
  id: string;
  name: string;
  publicKey: string;
  host: number;
  userId: string | null;
  username: string | null;
  /** The user's groups (empty without a user). */
  groups?: string[];
}

/** The tenant's devices that enrolled with a WireGuard key (the enrolment module owns the table). */
export async function devicePeers(tx: Tx, tenantId: string): Promise<DevicePeerRow[]> {
  return queryRows(
    tx,
    sql`select d.id, d.name, d.wg_public_key as "publicKey", d.wg_host as host,
          d.user_id as "userId", u.username,
          coalesce((select array_agg(ug.group_id::text order by ug.group_id) from user_groups ug
            where ug.tenant_id = d.tenant_id and ug.user_id = d.user_id), '{}') as groups
        from devices d left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
        where d.tenant_id = ${tenantId} and d.wg_public_key is not null and d.wg_host is not null
          and d.state = 'active' and (u.id is null or not u.is_suspended)
        order by d.wg_host`,
  );
}

/**
 * Who is behind each of the given tunnel hosts: the device, its user and the user's groups (for the policies
 * that apply to its tunnel, e.g. a full tunnel). Hosts no device holds are absent.
 */
export async function deviceSubjectsOfHosts(
  tx: Tx,
  tenantId: string,
  hosts: number[],
): Promise<Map<number, { deviceId: string; userId: string | null; groups: string[] }>> {
  if (hosts.length === 0) return new Map();
  const rows = await queryRows<{
    id: string;
    host: number;
    userId: string | null;
    groups: string[];
  }>(
    tx,
    sql`select d.id, d.wg_host as host, d.user_id as "userId",
          coalesce((select array_agg(ug.group_id::text order by ug.group_id) from user_groups ug
            where ug.tenant_id = d.tenant_id and ug.user_id = d.user_id), '{}') as groups
        from devices d
        where d.tenant_id = ${tenantId}
          and d.wg_host in (${sql.join(
            hosts.map((host) => sql`${host}::int`),
            sql`, `,
          )})`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.host),
      { deviceId: String(row.id), userId: row.userId ?? null, groups: row.groups },
    ]),
  );
}

/** One device of the tenant with its user and tunnel host (the enrolment module owns the table). */
export async function deviceById(tx: Tx, tenantId: string, id: string): Promise<DevicePeerRow | null> {
  const [row] = await queryRows<DevicePeerRow>(
    tx,
    sql`select d.id, d.name, d.wg_public_key as "publicKey", d.wg_host as host,
          d.user_id as "userId", u.username
        from devices d left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
        where d.tenant_id = ${tenantId} and d.id = ${id}`,
  );
  return row ?? null;
}

/** Up to `limit` gateways of the given kinds (retired ones left out), by name. */
export async function gatewaysOfKinds(
  tx: Tx,
  tenantId: string,
  kinds: readonly GatewayKind[],
  limit: number,
): Promise<GatewayRow[]> {
  return tx
    .select()
    .from(gateways)
    .where(
      and(eq(gateways.tenantId, tenantId), inArray(gateways.kind, [...kinds]), isNull(gateways.retiredAt)),
    )
    .orderBy(gateways.name, gateways.id)
    .limit(limit);
}

// ─── Events ─────────────────────────────────────────────────────────────────────────────────────────────────
