import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import {
  policyApps,
  policyBlockedApps,
  policyCategories,
  policyCategoryActions,
  policyFeeds,
  policyGeoBlocked,
  policyLocations,
} from './policy-objects.tables';

/** Case-insensitive name check of one object table, optionally ignoring one row. */
async function nameExists(
  tx: Tx,
  table: 'policy_locations' | 'policy_categories' | 'policy_feeds' | 'policy_apps',
  tenantId: string,
  name: string,
  except?: { column: 'id' | 'appid'; value: string },
): Promise<boolean> {
  const column = table === 'policy_apps' ? sql.raw('appname') : sql.raw('name');
  const rows = await queryRows<{ taken: boolean }>(
    tx,
    sql`select exists(
      select 1 from ${sql.raw(table)} where tenant_id = ${tenantId} and lower(${column}) = ${name.toLowerCase()}
      ${except ? sql`and ${sql.raw(except.column)}::text <> ${except.value}` : sql``}
    ) as taken`,
  );
  return Boolean(rows[0]?.taken);
}

// ---- Locations ---------------------------------------------------------------------------------------

export type LocationRow = typeof policyLocations.$inferSelect;

export function listLocations(tx: Tx, tenantId: string): Promise<LocationRow[]> {
  return tx
    .select()
    .from(policyLocations)
    .where(eq(policyLocations.tenantId, tenantId))
    .orderBy(sql`lower(${policyLocations.name})`);
}

export async function getLocation(tx: Tx, tenantId: string, id: string): Promise<LocationRow | null> {
  const [row] = await tx
    .select()
    .from(policyLocations)
    .where(and(eq(policyLocations.tenantId, tenantId), eq(policyLocations.id, id)));
  return row ?? null;
}

export const locationNameTaken = (tx: Tx, tenantId: string, name: string, exceptId?: string) =>
  nameExists(
    tx,
    'policy_locations',
    tenantId,
    name,
    exceptId ? { column: 'id', value: exceptId } : undefined,
  );

export async function insertLocation(
  tx: Tx,
  tenantId: string,
  values: { name: string; description: string; networks: string[] },
): Promise<LocationRow> {
  const [row] = await tx
    .insert(policyLocations)
    .values({ tenantId, ...values })
    .returning();
  return row;
}

export async function updateLocation(
  tx: Tx,
  tenantId: string,
  id: string,
  values: { name: string; description: string; networks: string[] },
): Promise<LocationRow> {
  const [row] = await tx
    .update(policyLocations)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyLocations.tenantId, tenantId), eq(policyLocations.id, id)))
    .returning();
  return row;
}

export function deleteLocations(tx: Tx, tenantId: string, ids: string[]): Promise<LocationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx
    .delete(policyLocations)
    .where(and(eq(policyLocations.tenantId, tenantId), inArray(policyLocations.id, ids)))
    .returning();
}

// ---- Custom apps and blocked apps --------------------------------------------------------------------

export type AppRow = typeof policyApps.$inferSelect;

export function listCustomApps(tx: Tx, tenantId: string): Promise<AppRow[]> {
  return tx
    .select()
    .from(policyApps)
    .where(eq(policyApps.tenantId, tenantId))
    .orderBy(sql`lower(${policyApps.appname})`);
}

export async function getCustomApp(tx: Tx, tenantId: string, appid: string): Promise<AppRow | null> {
  const [row] = await tx
    .select()
    .from(policyApps)
    .where(and(eq(policyApps.tenantId, tenantId), eq(policyApps.appid, appid)));
  return row ?? null;
}

export const appNameTaken = (tx: Tx, tenantId: string, name: string, exceptAppid?: string) =>
  nameExists(
    tx,
    'policy_apps',
    tenantId,
    name,
    exceptAppid ? { column: 'appid', value: exceptAppid } : undefined,
  );

/** The custom appids of the tenant that start with `prefix` (to pick a free `custom-<slug>`). */
export async function appidsLike(tx: Tx, tenantId: string, prefix: string): Promise<Set<string>> {
  const rows = await tx
    .select({ appid: policyApps.appid })
    .from(policyApps)
    .where(
      and(
        eq(policyApps.tenantId, tenantId),
        sql`${policyApps.appid} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
      ),
    );
  return new Set(rows.map((r) => r.appid));
}

export async function insertApp(
  tx: Tx,
  tenantId: string,
  values: { appid: string; appname: string; category: string; domains: string[]; ips: string[] },
): Promise<AppRow> {
  const [row] = await tx
    .insert(policyApps)
    .values({ tenantId, ...values })
    .returning();
  return row;
}

export async function updateApp(
  tx: Tx,
  tenantId: string,
  appid: string,
  values: { appname: string; category: string; domains: string[]; ips: string[] },
): Promise<AppRow> {
  const [row] = await tx
    .update(policyApps)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyApps.tenantId, tenantId), eq(policyApps.appid, appid)))
    .returning();
  return row;
}

export function deleteApps(tx: Tx, tenantId: string, appids: string[]): Promise<AppRow[]> {
  if (appids.length === 0) return Promise.resolve([]);
  return tx
    .delete(policyApps)
    .where(and(eq(policyApps.tenantId, tenantId), inArray(policyApps.appid, appids)))
    .returning();
}

export async function listBlockedApps(tx: Tx, tenantId: string): Promise<string[]> {
  const rows = await tx
    .select({ appid: policyBlockedApps.appid })
    .from(policyBlockedApps)
    .where(eq(policyBlockedApps.tenantId, tenantId))
    .orderBy(asc(policyBlockedApps.appid));
  return rows.map((r) => r.appid);
}

export async function setBlockedApps(tx: Tx, tenantId: string, appids: string[]) {
  await tx.delete(policyBlockedApps).where(eq(policyBlockedApps.tenantId, tenantId));
  if (appids.length > 0) {
    await tx.insert(policyBlockedApps).values(appids.map((appid) => ({ tenantId, appid })));
  }
}

export async function unblockApps(tx: Tx, tenantId: string, appids: string[]) {
  if (appids.length === 0) return;
  await tx
    .delete(policyBlockedApps)
    .where(and(eq(policyBlockedApps.tenantId, tenantId), inArray(policyBlockedApps.appid, appids)));
}

// ---- Custom categories and category actions -----------------------------------------------------------

export type CategoryRow = typeof policyCategories.$inferSelect;

export function listCustomCategories(tx: Tx, tenantId: string): Promise<CategoryRow[]> {
  return tx
    .select()
    .from(policyCategories)
    .where(eq(policyCategories.tenantId, tenantId))
    .orderBy(sql`lower(${policyCategories.name})`);
}

export async function getCustomCategory(tx: Tx, tenantId: string, id: string): Promise<CategoryRow | null> {
  const [row] = await tx
    .select()
    .from(policyCategories)
    .where(and(eq(policyCategories.tenantId, tenantId), eq(policyCategories.id, id)));
  return row ?? null;
}

export const categoryNameTaken = (tx: Tx, tenantId: string, name: string, exceptId?: string) =>
  nameExists(
    tx,
    'policy_categories',
    tenantId,
    name,
    exceptId ? { column: 'id', value: exceptId } : undefined,
  );

export async function insertCategory(
  tx: Tx,
  tenantId: string,
  values: { name: string; description: string; domains: string[] },
): Promise<CategoryRow> {
  const [row] = await tx
    .insert(policyCategories)
    .values({ tenantId, ...values })
    .returning();
  return row;
}

export async function updateCategory(
  tx: Tx,
  tenantId: string,
  id: string,
  values: { name: string; description: string; domains: string[] },
): Promise<CategoryRow> {
  const [row] = await tx
    .update(policyCategories)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyCategories.tenantId, tenantId), eq(policyCategories.id, id)))
    .returning();
  return row;
}

export function deleteCategories(tx: Tx, tenantId: string, ids: string[]): Promise<CategoryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx
    .delete(policyCategories)
    .where(and(eq(policyCategories.tenantId, tenantId), inArray(policyCategories.id, ids)))
    .returning();
}

export async function listCategoryActions(tx: Tx, tenantId: string): Promise<Map<string, 'allow' | 'block'>> {
  const rows = await tx
    .select({ categoryId: policyCategoryActions.categoryId, action: policyCategoryActions.action })
    .from(policyCategoryActions)
    .where(eq(policyCategoryActions.tenantId, tenantId));
  return new Map(rows.map((r) => [r.categoryId, r.action]));
}

/** Sets a category's action; `none` removes the row. */
export async function setCategoryAction(
  tx: Tx,
  tenantId: string,
  categoryId: string,
  action: 'none' | 'allow' | 'block',
) {
  await tx
    .delete(policyCategoryActions)
    .where(
      and(eq(policyCategoryActions.tenantId, tenantId), eq(policyCategoryActions.categoryId, categoryId)),
    );
  if (action !== 'none') await tx.insert(policyCategoryActions).values({ tenantId, categoryId, action });
}

export async function removeCategoryActions(tx: Tx, tenantId: string, categoryIds: string[]) {
  if (categoryIds.length === 0) return;
  await tx
    .delete(policyCategoryActions)
    .where(
      and(
        eq(policyCategoryActions.tenantId, tenantId),
        inArray(policyCategoryActions.categoryId, categoryIds),
      ),
    );
}

// ---- Feeds -------------------------------------------------------------------------------------------

export type FeedRow = typeof policyFeeds.$inferSelect;

/** The tenant's feed rows: uploaded and URL feeds, and the stored state of built-in feeds. */
export function listFeedRows(tx: Tx, tenantId: string): Promise<FeedRow[]> {
  return tx
    .select()
    .from(policyFeeds)
    .where(eq(policyFeeds.tenantId, tenantId))
    .orderBy(sql`lower(${policyFeeds.name})`);
}

export async function getFeedRow(tx: Tx, tenantId: string, id: string): Promise<FeedRow | null> {
  const [row] = await tx
    .select()
    .from(policyFeeds)
    .where(and(eq(policyFeeds.tenantId, tenantId), eq(policyFeeds.id, id)));
  return row ?? null;
}

export const feedNameTaken = (tx: Tx, tenantId: string, name: string, exceptId?: string) =>
  nameExists(tx, 'policy_feeds', tenantId, name, exceptId ? { column: 'id', value: exceptId } : undefined);

export type FeedValues = Omit<FeedRow, 'tenantId' | 'createdAt' | 'updatedAt'>;

export async function insertFeed(tx: Tx, tenantId: string, values: FeedValues): Promise<FeedRow> {
  const [row] = await tx
    .insert(policyFeeds)
    .values({ tenantId, ...values })
    .returning();
  return row;
}

/** Inserts the row of a built-in feed when it has none yet (its state is kept from then on). */
export async function ensureBuiltinFeedRow(
  tx: Tx,
  tenantId: string,
  feed: { id: string; name: string; enabled: boolean },
) {
  await tx
    .insert(policyFeeds)
    .values({ tenantId, id: feed.id, name: feed.name, kind: 'builtin', enabled: feed.enabled })
    .onConflictDoNothing();
}

export async function updateFeed(
  tx: Tx,
  tenantId: string,
  id: string,
  values: Partial<Omit<FeedValues, 'id' | 'kind'>>,
): Promise<FeedRow> {
  const [row] = await tx
    .update(policyFeeds)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyFeeds.tenantId, tenantId), eq(policyFeeds.id, id)))
    .returning();
  return row;
}

/** Deletes uploaded and URL feeds (never built-in rows). */
export function deleteFeeds(tx: Tx, tenantId: string, ids: string[]): Promise<FeedRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return tx
    .delete(policyFeeds)
    .where(
      and(eq(policyFeeds.tenantId, tenantId), inArray(policyFeeds.id, ids), ne(policyFeeds.kind, 'builtin')),
    )
    .returning();
}

/**
 * Claims the URL feeds of every tenant whose refresh is due — the last attempt (a claim, a refresh, or a failed
 * try, which all touch `updated_at`) is older than the feed's interval — by stamping the attempt now, in one
 * statement. Rows another instance is claiming are skipped (`SKIP LOCKED`), and a claimed feed is not due
 * again until its interval has passed, so of several instances ticking together only one fetches each feed.
 * Owner access: the scheduler works across tenants.
 */
export async function claimDueUrlFeeds(db: Db): Promise<{ tenantId: string; id: string }[]> {
  const rows = await queryRows<{ tenant_id: string; id: string }>(
    db,
    sql`with due as (
        select tenant_id, id from policy_feeds
        where kind = 'url'
          and greatest(coalesce(last_refreshed_at, created_at), updated_at)
            + make_interval(mins => coalesce(refresh_minutes, 1440)) <= now()
        order by updated_at
        limit 100
        for update skip locked
      )
      update policy_feeds set updated_at = now()
      from due
      where policy_feeds.tenant_id = due.tenant_id and policy_feeds.id = due.id
      returning policy_feeds.tenant_id, policy_feeds.id`,
  );
  return rows.map((r) => ({ tenantId: String(r.tenant_id), id: String(r.id) }));
}

// ---- Geo ---------------------------------------------------------------------------------------------

export async function listGeoBlocked(tx: Tx, tenantId: string): Promise<string[]> {
  const rows = await tx
    .select({ country: policyGeoBlocked.country })
    .from(policyGeoBlocked)
    .where(eq(policyGeoBlocked.tenantId, tenantId))
    .orderBy(asc(policyGeoBlocked.country));
  return rows.map((r) => r.country);
}

export async function setGeoBlocked(tx: Tx, tenantId: string, countries: string[]) {
  await tx.delete(policyGeoBlocked).where(eq(policyGeoBlocked.tenantId, tenantId));
  if (countries.length > 0) {
    await tx.insert(policyGeoBlocked).values(countries.map((country) => ({ tenantId, country })));
  }
}
