import type { DeviceOption, UserDevicesQuery } from '@palisade/contracts';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { groups, tenants, users } from '../../db/schema';
import { devices, enrolmentTokens, type TokenKind } from './enrolment.tables';

export type TokenRow = typeof enrolmentTokens.$inferSelect;

/** A device with the username of its user (null when unassigned). */
export interface DeviceRow {
  id: string;
  userId: string | null;
  username: string | null;
  name: string;
  os: (typeof devices.$inferSelect)['os'];
  connstatus: (typeof devices.$inferSelect)['connstatus'];
  enrolledVia: (typeof devices.$inferSelect)['enrolledVia'];
  enrolledAt: Date;
  lastSeenAt: Date | null;
}

/** The end user a row of the users-and-devices list describes. */
export interface EndUserRow {
  id: string;
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  connstatus: string;
  /** A disabled account gets no enrolment link and enrols no device. */
  isDisabled: boolean;
}

/** `%`, `_` and `\` are literal in a search, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const uuidList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

const textList = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

const toDate = (value: unknown) => new Date(value as string | Date);
const toDateOrNull = (value: unknown) => (value === null || value === undefined ? null : toDate(value));

/** Link kinds a list shows: browser links only for the agentless view, both kinds otherwise. */
export const linkKindsFor = (method: UserDevicesQuery['method']): TokenKind[] =>
  method === 'agentless' ? ['agentless'] : ['link', 'agentless'];

/** The condition that a user (aliased `u`) has a device of the method. */
function hasDevice(method: UserDevicesQuery['method']): SQL {
  return sql`exists (select 1 from devices d where d.tenant_id = u.tenant_id and d.user_id = u.id
    ${method === 'agentless' ? sql`and d.enrolled_via = 'agentless'` : sql``})`;
}

/** The condition that a user (aliased `u`) has an unused, unrevoked, unexpired link of the method's kinds. */
function hasPendingLink(method: UserDevicesQuery['method']): SQL {
  return sql`exists (select 1 from enrolment_tokens l where l.tenant_id = u.tenant_id and l.user_id = u.id
    and l.kind in (${textList(linkKindsFor(method))}) and l.revoked_at is null and l.used_at is null
    and l.expires_at > now())`;
}

/**
 * One page of end users plus the total that matched. Only the users are paged here (the username index walk);
 * their devices and links are read afterwards for the page's ids alone, so a tenant with 100 000 users costs
 * the same per page as a small one. The device filters are semi-joins on the (tenant, user) device index.
 */
export async function listEndUsers(tx: Tx, tenantId: string, query: UserDevicesQuery) {
  const conditions: SQL[] = [sql`u.tenant_id = ${tenantId}`, sql`u.usertype = 0`];
  if (query.q) conditions.push(sql`u.search like ${likePattern(query.q)}`);
  if (query.userId) conditions.push(sql`u.id = ${query.userId}`);
  if (query.filter === 'with-devices') conditions.push(hasDevice(query.method));
  if (query.filter === 'without-devices') conditions.push(sql`not ${hasDevice(query.method)}`);
  if (query.filter === 'pending') {
    conditions.push(sql`not ${hasDevice(query.method)}`, hasPendingLink(query.method));
  }
  const where = sql.join(conditions, sql` and `);
  const dir = query.order === 'desc' ? sql`desc` : sql`asc`;
  const [items, totalRows] = await Promise.all([
    queryRows<EndUserRow>(
      tx,
      sql`select u.id, u.username, u.firstname, u.lastname, u.email, u.connstatus,
          u.is_suspended as "isDisabled" from users u
        where ${where}
        order by u.username ${dir}, u.id ${dir}
        limit ${query.limit} offset ${query.offset}`,
    ),
    queryRows<{ total: number | string }>(tx, sql`select count(*) as total from users u where ${where}`),
  ]);
  return {
    items: items.map((row) => ({ ...row, id: String(row.id) })),
    total: Number(totalRows[0]?.total ?? 0),
  };
}

const deviceColumns = sql`d.id, d.user_id, u.username, d.name, d.os, d.connstatus, d.enrolled_via,
  d.enrolled_at, d.last_seen_at`;

const toDevice = (row: Record<string, unknown>): DeviceRow => ({
  id: String(row.id),
  userId: row.user_id === null ? null : String(row.user_id),
  username: row.username === null || row.username === undefined ? null : String(row.username),
  name: String(row.name),
  os: row.os as DeviceRow['os'],
  connstatus: row.connstatus as DeviceRow['connstatus'],
  enrolledVia: row.enrolled_via as DeviceRow['enrolledVia'],
  enrolledAt: toDate(row.enrolled_at),
  lastSeenAt: toDateOrNull(row.last_seen_at),
});

/** The devices of these users (agentless ones only when asked), oldest enrolment first. */
export async function devicesOfUsers(
  tx: Tx,
  tenantId: string,
  userIds: string[],
  method: UserDevicesQuery['method'],
): Promise<DeviceRow[]> {
  if (userIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select ${deviceColumns} from devices d
      left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
      where d.tenant_id = ${tenantId} and d.user_id in (${uuidList(userIds)})
      ${method === 'agentless' ? sql`and d.enrolled_via = 'agentless'` : sql``}
      order by d.enrolled_at, d.id`,
  );
  return rows.map(toDevice);
}

/** Devices by id with their usernames. */
export async function getDevices(tx: Tx, tenantId: string, ids: string[]): Promise<DeviceRow[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select ${deviceColumns} from devices d
      left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
      where d.tenant_id = ${tenantId} and d.id in (${uuidList(ids)})
      order by d.enrolled_at, d.id`,
  );
  return rows.map(toDevice);
}

/** The link a user's row shows, per user: the pending one when there is one, else the newest unrevoked one. */
export interface LinkRow {
  id: string;
  userId: string;
  kind: 'link' | 'agentless';
  prefix: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function latestLinks(
  tx: Tx,
  tenantId: string,
  userIds: string[],
  kinds: TokenKind[],
): Promise<Map<string, LinkRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select distinct on (l.user_id) l.id, l.user_id, l.kind, l.prefix, l.expires_at, l.used_at
      from enrolment_tokens l
      where l.tenant_id = ${tenantId} and l.user_id in (${uuidList(userIds)})
        and l.kind in (${textList(kinds)}) and l.revoked_at is null
      order by l.user_id, (l.used_at is null and l.expires_at > now()) desc, l.created_at desc, l.id desc`,
  );
  return new Map(
    rows.map((row) => [
      String(row.user_id),
      {
        id: String(row.id),
        userId: String(row.user_id),
        kind: row.kind as LinkRow['kind'],
        prefix: String(row.prefix),
        expiresAt: toDate(row.expires_at),
        usedAt: toDateOrNull(row.used_at),
      },
    ]),
  );
}

/** An end user (usertype 0) of the tenant, or null (administrators and other tenants' users included). */
export async function findEndUser(tx: Tx, tenantId: string, id: string): Promise<EndUserRow | null> {
  const [row] = await tx
    .select({
      id: users.id,
      username: users.username,
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
      connstatus: users.connstatus,
      isDisabled: users.isSuspended,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.usertype, 0), eq(users.id, id)))
    .limit(1);
  return row ?? null;
}

/** The end user of the tenant with this username, ignoring case. */
export async function findEndUserByUsername(tx: Tx, tenantId: string, username: string) {
  const [row] = await tx
    .select({ id: users.id, username: users.username, isDisabled: users.isSuspended })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.usertype, 0),
        sql`lower(${users.username}) = ${username.toLowerCase()}`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Revokes a user's pending links of these kinds; returns what was revoked. */
/** Revokes the pending links of many end users (a bulk disable); answers how many. */
export async function revokePendingLinksOfUsers(
  tx: Tx,
  tenantId: string,
  userIds: string[],
  kinds: TokenKind[],
): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await tx
    .update(enrolmentTokens)
    .set({ revokedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(enrolmentTokens.tenantId, tenantId),
        inArray(enrolmentTokens.userId, userIds),
        inArray(enrolmentTokens.kind, kinds),
        isNull(enrolmentTokens.revokedAt),
        isNull(enrolmentTokens.usedAt),
        sql`${enrolmentTokens.expiresAt} > now()`,
      ),
    )
    .returning({ id: enrolmentTokens.id });
  return rows.length;
}

export async function revokePendingLinks(
  tx: Tx,
  tenantId: string,
  userId: string,
  kinds: TokenKind[],
): Promise<TokenRow[]> {
  return tx
    .update(enrolmentTokens)
    .set({ revokedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(enrolmentTokens.tenantId, tenantId),
        eq(enrolmentTokens.userId, userId),
        inArray(enrolmentTokens.kind, kinds),
        isNull(enrolmentTokens.revokedAt),
        isNull(enrolmentTokens.usedAt),
        sql`${enrolmentTokens.expiresAt} > now()`,
      ),
    )
    .returning();
}

export async function insertToken(tx: Tx, values: typeof enrolmentTokens.$inferInsert): Promise<TokenRow> {
  const [row] = await tx.insert(enrolmentTokens).values(values).returning();
  return row;
}

/** The tenant's deployment keys, newest first. */
export async function listKeys(tx: Tx, tenantId: string): Promise<TokenRow[]> {
  return tx
    .select()
    .from(enrolmentTokens)
    .where(and(eq(enrolmentTokens.tenantId, tenantId), eq(enrolmentTokens.kind, 'rmm')))
    .orderBy(desc(enrolmentTokens.createdAt), desc(enrolmentTokens.id));
}

export async function getKey(tx: Tx, tenantId: string, id: string): Promise<TokenRow | null> {
  const [row] = await tx
    .select()
    .from(enrolmentTokens)
    .where(
      and(
        eq(enrolmentTokens.tenantId, tenantId),
        eq(enrolmentTokens.kind, 'rmm'),
        eq(enrolmentTokens.id, id),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function revokeKey(tx: Tx, tenantId: string, id: string): Promise<TokenRow> {
  const [row] = await tx
    .update(enrolmentTokens)
    .set({ revokedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(enrolmentTokens.tenantId, tenantId), eq(enrolmentTokens.id, id)))
    .returning();
  return row;
}

/** The tenant's groups among `ids`, with their names. */
export async function findGroups(tx: Tx, tenantId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.tenantId, tenantId), inArray(groups.id, ids)));
}

/**
 * A token by the hash of its secret, with its tenant and (for a link) its user's username. Owner access: the
 * tenant is not known until the token is found, like a session look-up.
 */
export async function findTokenByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      token: enrolmentTokens,
      tenantName: tenants.name,
      tenantDisplayName: tenants.displayName,
      tenantKind: tenants.kind,
      username: users.username,
    })
    .from(enrolmentTokens)
    .innerJoin(tenants, eq(tenants.id, enrolmentTokens.tenantId))
    .leftJoin(users, and(eq(users.tenantId, enrolmentTokens.tenantId), eq(users.id, enrolmentTokens.userId)))
    .where(eq(enrolmentTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/**
 * Counts a use of a token if it is still usable (unrevoked, unexpired, uses left) and answers it, or null.
 * One conditional update, so two devices racing for a one-off link cannot both get it.
 */
export async function claimToken(tx: Tx, tenantId: string, id: string): Promise<TokenRow | null> {
  const [row] = await tx
    .update(enrolmentTokens)
    .set({
      uses: sql`${enrolmentTokens.uses} + 1`,
      usedAt: sql`coalesce(${enrolmentTokens.usedAt}, now())`,
      lastUsedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(enrolmentTokens.tenantId, tenantId),
        eq(enrolmentTokens.id, id),
        isNull(enrolmentTokens.revokedAt),
        sql`(${enrolmentTokens.expiresAt} is null or ${enrolmentTokens.expiresAt} > now())`,
        sql`(${enrolmentTokens.maxUses} is null or ${enrolmentTokens.uses} < ${enrolmentTokens.maxUses})`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function insertDevice(tx: Tx, values: typeof devices.$inferInsert): Promise<string> {
  const [row] = await tx.insert(devices).values(values).returning({ id: devices.id });
  return row.id;
}

/**
 * The next free WireGuard host number of the tenant's device network (2…65534): one past the highest, or the
 * lowest gap once the top is taken. Null when every one is taken.
 */
export async function nextWireguardHost(tx: Tx, tenantId: string): Promise<number | null> {
  const [top] = await queryRows<{ next: number }>(
    tx,
    sql`select coalesce(max(wg_host), 1) + 1 as next from devices where tenant_id = ${tenantId}`,
  );
  if (top.next <= 65534) return top.next;
  const [gap] = await queryRows<{ host: number | null }>(
    tx,
    sql`select min(s) as host from generate_series(2, 65534) s
        where not exists (select 1 from devices where tenant_id = ${tenantId} and wg_host = s)`,
  );
  return gap.host;
}

/** Whether a device of the tenant already holds this WireGuard key. */
export async function wireguardKeyTaken(tx: Tx, tenantId: string, publicKey: string): Promise<boolean> {
  const rows = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.wgPublicKey, publicKey)))
    .limit(1);
  return rows.length > 0;
}

/** Adds a user to the tenant's groups among `groupIds` (deleted groups are skipped); returns those added. */
export async function addUserToGroups(
  tx: Tx,
  tenantId: string,
  userId: string,
  groupIds: string[],
): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await queryRows<{ group_id: string }>(
    tx,
    sql`insert into user_groups (tenant_id, user_id, group_id)
      select groups.tenant_id, ${userId}::uuid, groups.id from groups
      where groups.tenant_id = ${tenantId} and groups.id in (${uuidList(groupIds)})
      on conflict do nothing
      returning group_id`,
  );
  return rows.map((row) => String(row.group_id));
}

/** Devices with their owners' usernames, as pickers show them, for the given condition. */
async function deviceOptionRows(tx: Tx, where: SQL, limit: number) {
  const rows = await queryRows<{ id: string; name: string; os: DeviceOption['os']; username: string | null }>(
    tx,
    sql`select d.id, d.name, d.os, u.username from devices d
      left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
      where ${where}
      order by lower(d.name), d.id
      limit ${limit}`,
  );
  return rows.map((row): DeviceOption => ({ ...row, id: String(row.id) }));
}

/** Devices for a picker: matching `q` on the device name or the owner's username, by name. */
export function deviceOptions(tx: Tx, tenantId: string, q: string | undefined, limit: number) {
  return deviceOptionRows(
    tx,
    sql`d.tenant_id = ${tenantId}
      ${q ? sql`and (lower(d.name) like ${likePattern(q)} or lower(u.username) like ${likePattern(q)})` : sql``}`,
    limit,
  );
}

/** The end user a device of the tenant belongs to, or null (no such device, or none of an end user). */
export async function endUserOwnerOf(tx: Tx, tenantId: string, deviceId: string): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`select u.id from devices d
      join users u on u.tenant_id = d.tenant_id and u.id = d.user_id and u.usertype = 0
      where d.tenant_id = ${tenantId} and d.id = ${deviceId}`,
  );
  return row ? String(row.id) : null;
}

/** One device of the tenant as a picker shows it, or undefined. */
export async function deviceOption(tx: Tx, tenantId: string, id: string) {
  const [row] = await deviceOptionRows(tx, sql`d.tenant_id = ${tenantId} and d.id = ${id}`, 1);
  return row;
}

/** The policy groups each device is assigned to (what removing it takes it out of). */
export async function policyGroupsOfDevices(tx: Tx, tenantId: string, ids: string[]) {
  const out = new Map<string, { id: string; name: string }[]>();
  if (ids.length === 0) return out;
  const rows = await queryRows<{ device_id: string; id: string; name: string }>(
    tx,
    sql`select pgd.device_id, pg.id, pg.name from policy_group_devices pgd
      join policy_groups pg on pg.tenant_id = pgd.tenant_id and pg.id = pgd.policy_group_id
      where pgd.tenant_id = ${tenantId} and pgd.device_id in (${uuidList(ids)})
      order by lower(pg.name), pg.id`,
  );
  for (const row of rows) {
    const key = String(row.device_id);
    out.set(key, [...(out.get(key) ?? []), { id: String(row.id), name: row.name }]);
  }
  return out;
}

/** Deletes devices by id; returns the ids that went. */
export async function deleteDevices(tx: Tx, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .delete(devices)
    .where(and(eq(devices.tenantId, tenantId), inArray(devices.id, ids)))
    .returning({ id: devices.id });
  return rows.map((row) => row.id);
}
