import {
  type App,
  type AppInput,
  type AppListQuery,
  type CategoryAction,
  type CategoryInput,
  type CategoryLookup,
  type ErrorDetail,
  type GeoControls,
  type Location,
  type LocationInput,
  normaliseDomain,
  parseCidr,
  parseIpv4,
  type WebCategory,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import {
  countryList,
  GEOIP_DATABASE_NAME,
  geoDatabaseBuiltAt,
  isKnownCountry,
  lookupCountry,
} from '../policy-core/geoip';
import {
  commitPolicyChange,
  removeRuleReferences,
  ruleReferenceCounts,
} from '../policy-core/policy-core.service';
import { APP_CATALOG, CATALOG_APP_IDS } from './data/app-catalog';
import { SHIPPED_CATEGORIES } from './data/categories';
import * as repo from './policy-objects.repository';

type Out<T extends z.ZodType> = z.output<T>;

/** How many example domains a shipped category shows (custom categories show all of theirs). */
export const CATEGORY_EXAMPLES = 10;

const nameTaken = () =>
  new AppError('conflict', 'An object with this name exists.', [
    { path: 'body.name', message: 'validation.nameTaken' },
  ]);
const appNameTakenError = () =>
  new AppError('conflict', 'An app with this name exists.', [
    { path: 'body.appname', message: 'validation.nameTaken' },
  ]);

/** A unique-index violation that slipped past the friendly check (two concurrent writes of one name). */
function rethrowUnique(error: unknown, make: () => AppError = nameTaken): never {
  const code =
    (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  if (code === '23505') throw make();
  throw error;
}

/** Whether `host` is `entry` or a sub-domain of it (label-suffix match). */
export function domainMatches(host: string, entry: string): boolean {
  return host === entry || host.endsWith(`.${entry}`);
}

// ---- Locations ---------------------------------------------------------------------------------------

function presentLocation(row: repo.LocationRow, counts: Map<string, number>): Location {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    networks: row.networks,
    usedBy: counts.get(row.id) ?? 0,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An entry as a range of unsigned 32-bit values (a bare address is a /32). */
function rangeOf(entry: string): { from: number; to: number } | null {
  const ip = parseIpv4(entry);
  if (ip !== null) return { from: ip, to: ip };
  const block = parseCidr(entry);
  if (!block) return null;
  return { from: block.network, to: block.network + 2 ** (32 - block.prefix) - 1 };
}

/**
 * Entries of one list that lie inside another entry of the same list (or cover the same range written
 * differently, `10.0.0.1` and `10.0.0.1/32`). Both entries are reported, so the form marks the pair.
 * Exact repeats are the schema's `validation.duplicate` and are not reported again here.
 */
export function overlapDetails(entries: readonly string[], field: string): ErrorDetail[] {
  const ranges = entries.map((e) => rangeOf(e.trim()));
  const marked = new Set<number>();
  for (let i = 0; i < ranges.length; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      const a = ranges[i];
      const b = ranges[j];
      if (!a || !b || entries[i].trim() === entries[j].trim()) continue;
      const inside = (x: typeof a, y: typeof a) => x.from >= y.from && x.to <= y.to;
      if (inside(a, b) || inside(b, a)) {
        marked.add(i);
        marked.add(j);
      }
    }
  }
  return [...marked]
    .sort((a, b) => a - b)
    .map((i) => ({ path: `${field}.${i}`, message: 'validation.overlap' }));
}

async function requireLocation(tx: Tx, ctx: Ctx, id: string) {
  const row = await repo.getLocation(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Location');
  return row;
}

export function listLocations(database: Database, ctx: Ctx): Promise<Location[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const rows = await repo.listLocations(tx, ctx.tenant.id);
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    return rows.map((row) => presentLocation(row, counts));
  });
}

function locationValues(input: Out<typeof LocationInput>) {
  const overlaps = overlapDetails(input.networks, 'body.networks');
  if (overlaps.length > 0) throw invalid(overlaps);
  return { name: input.name, description: input.description ?? '', networks: input.networks };
}

export function createLocation(database: Database, ctx: Ctx, input: Out<typeof LocationInput>) {
  const values = locationValues(input);
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await repo.locationNameTaken(tx, ctx.tenant.id, values.name)) throw nameTaken();
      const row = await repo.insertLocation(tx, ctx.tenant.id, values);
      const location = presentLocation(row, new Map());
      await recordEvent(tx, ctx, {
        action: 'policy.location.create',
        objectType: 'location',
        objectId: row.id,
        objectName: row.name,
        after: location,
      });
      return location;
    })
    .catch((e) => rethrowUnique(e));
}

export function updateLocation(database: Database, ctx: Ctx, id: string, input: Out<typeof LocationInput>) {
  const values = locationValues(input);
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    const before = presentLocation(await requireLocation(tx, ctx, id), counts);
    if (await repo.locationNameTaken(tx, ctx.tenant.id, values.name, id)) throw nameTaken();
    const after = presentLocation(await repo.updateLocation(tx, ctx.tenant.id, id, values), counts);
    await recordEvent(tx, ctx, {
      action: 'policy.location.update',
      objectType: 'location',
      objectId: id,
      objectName: after.name,
      before,
      after,
    });
    return after;
  }).catch((e) => rethrowUnique(e));
}

/** Deletes locations; rules lose the condition (a rule left with nothing to match goes too). */
export function deleteLocations(database: Database, ctx: Ctx, ids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    const deleted = await repo.deleteLocations(tx, ctx.tenant.id, [...new Set(ids)]);
    await removeRuleReferences(
      tx,
      ctx.tenant.id,
      'location',
      deleted.map((row) => row.id),
    );
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policy.location.delete',
        objectType: 'location',
        objectId: row.id,
        objectName: row.name,
        before: presentLocation(row, counts),
      });
    }
    return { deleted: deleted.length };
  });
}

// ---- Applications ------------------------------------------------------------------------------------

interface AppLike {
  appid: string;
  appname: string;
  category: string;
  domains: readonly string[];
  ips: readonly string[];
}

function presentApp(app: AppLike, custom: boolean, blocked: Set<string>, counts: Map<string, number>): App {
  return {
    appid: app.appid,
    appname: app.appname,
    category: app.category,
    domains: [...app.domains],
    ips: [...app.ips],
    custom,
    blocked: blocked.has(app.appid),
    usedBy: counts.get(app.appid) ?? 0,
  };
}

const byName = (a: { appname: string }, b: { appname: string }) =>
  a.appname.localeCompare(b.appname, 'en', { sensitivity: 'base' }) || a.appname.localeCompare(b.appname);

/** Every app of the tenant, catalog and custom, alphabetical. */
async function allApps(tx: Tx, tenantId: string): Promise<App[]> {
  const custom = await repo.listCustomApps(tx, tenantId);
  const blocked = await repo.listBlockedApps(tx, tenantId);
  const counts = await ruleReferenceCounts(tx, tenantId, 'app');
  const blockedSet = new Set(blocked);
  return [
    ...APP_CATALOG.map((a) => presentApp(a, false, blockedSet, counts)),
    ...custom.map((a) => presentApp(a, true, blockedSet, counts)),
  ].sort(byName);
}

/** The letter an app is filed under: its first letter without accents, or `#`. */
export function appLetter(appname: string): string {
  const first = appname
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .charAt(0)
    .toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

export function listApps(database: Database, ctx: Ctx, query: Out<typeof AppListQuery>): Promise<App[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const q = query.q?.toLowerCase();
    return (await allApps(tx, ctx.tenant.id)).filter(
      (app) =>
        (!query.letter || appLetter(app.appname) === query.letter) &&
        (query.custom === undefined || app.custom === (query.custom === 'true')) &&
        (!q ||
          app.appname.toLowerCase().includes(q) ||
          app.appid.includes(q) ||
          app.domains.some((d) => d.includes(q))),
    );
  });
}

/** `My CRM (EU)` → `my-crm-eu`. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'app';
}

function appValues(input: Out<typeof AppInput>) {
  return {
    appname: input.appname,
    category: input.category || 'custom',
    domains: input.domains.map(normaliseDomain),
    ips: input.ips,
  };
}

async function appNameInUse(tx: Tx, tenantId: string, name: string, exceptAppid?: string) {
  const lower = name.toLowerCase();
  if (APP_CATALOG.some((a) => a.appname.toLowerCase() === lower)) return true;
  return repo.appNameTaken(tx, tenantId, name, exceptAppid);
}

async function requireCustomApp(tx: Tx, ctx: Ctx, appid: string) {
  if (CATALOG_APP_IDS.has(appid)) {
    throw invalid([{ path: 'params.appid', message: 'policy.validation.catalogApp' }]);
  }
  const row = await repo.getCustomApp(tx, ctx.tenant.id, appid);
  if (!row) throw notFound('App');
  return row;
}

export function createApp(database: Database, ctx: Ctx, input: Out<typeof AppInput>): Promise<App> {
  const values = appValues(input);
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await appNameInUse(tx, ctx.tenant.id, values.appname)) throw appNameTakenError();
      const base = `custom-${slugOf(values.appname)}`;
      const taken = await repo.appidsLike(tx, ctx.tenant.id, base);
      let appid = base;
      for (let n = 2; taken.has(appid); n++) appid = `${base}-${n}`;
      const row = await repo.insertApp(tx, ctx.tenant.id, { appid, ...values });
      const app = presentApp(row, true, new Set(), new Map());
      await recordEvent(tx, ctx, {
        action: 'policy.app.create',
        objectType: 'app',
        objectId: appid,
        objectName: row.appname,
        after: app,
      });
      return app;
    })
    .catch((e) => rethrowUnique(e, appNameTakenError));
}

export function updateApp(database: Database, ctx: Ctx, appid: string, input: Out<typeof AppInput>) {
  const values = appValues(input);
  return commitPolicyChange(database, ctx, async (tx) => {
    const row = await requireCustomApp(tx, ctx, appid);
    if (await appNameInUse(tx, ctx.tenant.id, values.appname, appid)) throw appNameTakenError();
    const blocked = await repo.listBlockedApps(tx, ctx.tenant.id);
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'app');
    const blockedSet = new Set(blocked);
    const before = presentApp(row, true, blockedSet, counts);
    const after = presentApp(
      await repo.updateApp(tx, ctx.tenant.id, appid, values),
      true,
      blockedSet,
      counts,
    );
    await recordEvent(tx, ctx, {
      action: 'policy.app.update',
      objectType: 'app',
      objectId: appid,
      objectName: after.appname,
      before,
      after,
    });
    return after;
  }).catch((e) => rethrowUnique(e, appNameTakenError));
}

/** Deletes custom apps: rules and the tenant's blocked list lose them. Catalog apps cannot be deleted. */
export function deleteApps(database: Database, ctx: Ctx, appids: string[]) {
  const catalog = appids
    .map((appid, i) => ({ appid, i }))
    .filter(({ appid }) => CATALOG_APP_IDS.has(appid))
    .map(({ i }) => ({ path: `body.appids.${i}`, message: 'policy.validation.catalogApp' }));
  if (catalog.length > 0) return Promise.reject(invalid(catalog));
  return commitPolicyChange(database, ctx, async (tx) => {
    const blocked = await repo.listBlockedApps(tx, ctx.tenant.id);
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'app');
    const deleted = await repo.deleteApps(tx, ctx.tenant.id, [...new Set(appids)]);
    const ids = deleted.map((row) => row.appid);
    await removeRuleReferences(tx, ctx.tenant.id, 'app', ids);
    await repo.unblockApps(tx, ctx.tenant.id, ids);
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policy.app.delete',
        objectType: 'app',
        objectId: row.appid,
        objectName: row.appname,
        before: presentApp(row, true, new Set(blocked), counts),
      });
    }
    return { deleted: deleted.length };
  });
}

// ---- Blocked apps ------------------------------------------------------------------------------------

export function getBlockedApps(database: Database, ctx: Ctx): Promise<App[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) =>
    (await allApps(tx, ctx.tenant.id)).filter((app) => app.blocked),
  );
}

/** Replaces the tenant's blocked apps; every appid must be a catalog or custom app of the tenant. */
export function setBlockedApps(database: Database, ctx: Ctx, appids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const custom = new Set((await repo.listCustomApps(tx, ctx.tenant.id)).map((a) => a.appid));
    const unknown = appids
      .map((appid, i) => ({ appid, i }))
      .filter(({ appid }) => !CATALOG_APP_IDS.has(appid) && !custom.has(appid))
      .map(({ i }) => ({ path: `body.appids.${i}`, message: 'policy.validation.unknownApp' }));
    if (unknown.length > 0) throw invalid(unknown);
    const before = await repo.listBlockedApps(tx, ctx.tenant.id);
    const wanted = [...new Set(appids)].sort();
    await repo.setBlockedApps(tx, ctx.tenant.id, wanted);
    await recordEvent(tx, ctx, {
      action: 'policy.blockedApps.update',
      objectType: 'blockedApps',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before: { appids: before },
      after: { appids: wanted },
    });
    return (await allApps(tx, ctx.tenant.id)).filter((app) => app.blocked);
  });
}

// ---- Web categories ----------------------------------------------------------------------------------

interface CategoryLike {
  id: string;
  name: string;
  class: WebCategory['class'];
  description: string;
  domains: readonly string[];
}

function presentCategory(
  category: CategoryLike,
  actions: Map<string, 'allow' | 'block'>,
  counts: Map<string, number>,
): WebCategory {
  return {
    id: category.id,
    name: category.name,
    class: category.class,
    description: category.description,
    domainCount: category.domains.length,
    domains:
      category.class === 'custom' ? [...category.domains] : category.domains.slice(0, CATEGORY_EXAMPLES),
    action: actions.get(category.id) ?? 'none',
    usedBy: counts.get(category.id) ?? 0,
  };
}

const customCategory = (row: repo.CategoryRow): CategoryLike => ({
  id: row.id,
  name: row.name,
  class: 'custom',
  description: row.description,
  domains: row.domains,
});

/** Shipped categories (security first, as shipped) then the tenant's own by name. */
async function allCategories(tx: Tx, tenantId: string): Promise<CategoryLike[]> {
  const custom = await repo.listCustomCategories(tx, tenantId);
  return [...SHIPPED_CATEGORIES, ...custom.map(customCategory)];
}

async function categoryState(tx: Tx, tenantId: string) {
  const actions = await repo.listCategoryActions(tx, tenantId);
  const counts = await ruleReferenceCounts(tx, tenantId, 'category');
  return { actions, counts };
}

export function listCategories(database: Database, ctx: Ctx): Promise<WebCategory[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const categories = await allCategories(tx, ctx.tenant.id);
    const { actions, counts } = await categoryState(tx, ctx.tenant.id);
    return categories.map((c) => presentCategory(c, actions, counts));
  });
}

/** The category `id`: shipped (slug) or the tenant's own (uuid). */
async function requireCategory(tx: Tx, tenantId: string, id: string): Promise<CategoryLike> {
  const shipped = SHIPPED_CATEGORIES.find((c) => c.id === id);
  if (shipped) return shipped;
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const row = isUuid ? await repo.getCustomCategory(tx, tenantId, id) : null;
  if (!row) throw notFound('Category');
  return customCategory(row);
}

/** Sets a category's tenant action; refused (409) when a policy test would fail. */
export function setCategoryAction(database: Database, ctx: Ctx, id: string, action: CategoryAction) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const category = await requireCategory(tx, ctx.tenant.id, id);
    const { actions, counts } = await categoryState(tx, ctx.tenant.id);
    const before = actions.get(category.id) ?? 'none';
    await repo.setCategoryAction(tx, ctx.tenant.id, category.id, action);
    if (action === 'none') actions.delete(category.id);
    else actions.set(category.id, action);
    if (before !== action) {
      await recordEvent(tx, ctx, {
        action: 'policy.category.action',
        objectType: 'category',
        objectId: category.id,
        objectName: category.name,
        before: { action: before },
        after: { action },
      });
    }
    return presentCategory(category, actions, counts);
  });
}

function categoryValues(input: Out<typeof CategoryInput>) {
  return {
    name: input.name,
    description: input.description ?? '',
    domains: input.domains.map(normaliseDomain),
  };
}

async function categoryNameInUse(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const lower = name.toLowerCase();
  if (SHIPPED_CATEGORIES.some((c) => c.name.toLowerCase() === lower || c.id === lower)) return true;
  return repo.categoryNameTaken(tx, tenantId, name, exceptId);
}

export function createCategory(database: Database, ctx: Ctx, input: Out<typeof CategoryInput>) {
  const values = categoryValues(input);
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await categoryNameInUse(tx, ctx.tenant.id, values.name)) throw nameTaken();
      const row = await repo.insertCategory(tx, ctx.tenant.id, values);
      const category = presentCategory(customCategory(row), new Map(), new Map());
      await recordEvent(tx, ctx, {
        action: 'policy.category.create',
        objectType: 'category',
        objectId: row.id,
        objectName: row.name,
        after: category,
      });
      return category;
    })
    .catch((e) => rethrowUnique(e));
}

export function updateCategory(database: Database, ctx: Ctx, id: string, input: Out<typeof CategoryInput>) {
  const values = categoryValues(input);
  return commitPolicyChange(database, ctx, async (tx) => {
    const row = await repo.getCustomCategory(tx, ctx.tenant.id, id);
    if (!row) throw notFound('Category');
    if (await categoryNameInUse(tx, ctx.tenant.id, values.name, id)) throw nameTaken();
    const { actions, counts } = await categoryState(tx, ctx.tenant.id);
    const before = presentCategory(customCategory(row), actions, counts);
    const updated = await repo.updateCategory(tx, ctx.tenant.id, id, values);
    const after = presentCategory(customCategory(updated), actions, counts);
    await recordEvent(tx, ctx, {
      action: 'policy.category.update',
      objectType: 'category',
      objectId: id,
      objectName: after.name,
      before,
      after,
    });
    return after;
  }).catch((e) => rethrowUnique(e));
}

/** Deletes custom categories: rules lose them, their tenant action goes with them. */
export function deleteCategories(database: Database, ctx: Ctx, ids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const { actions, counts } = await categoryState(tx, ctx.tenant.id);
    const deleted = await repo.deleteCategories(tx, ctx.tenant.id, [...new Set(ids)]);
    const gone = deleted.map((row) => row.id);
    await removeRuleReferences(tx, ctx.tenant.id, 'category', gone);
    await repo.removeCategoryActions(tx, ctx.tenant.id, gone);
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policy.category.delete',
        objectType: 'category',
        objectId: row.id,
        objectName: row.name,
        before: presentCategory(customCategory(row), actions, counts),
      });
    }
    return { deleted: deleted.length };
  });
}

/** The categories (with the entry that matched) and apps a domain belongs to. */
export function lookupDomain(database: Database, ctx: Ctx, domain: string): Promise<CategoryLookup> {
  const host = normaliseDomain(domain);
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const categories = await allCategories(tx, ctx.tenant.id);
    const customApps = await repo.listCustomApps(tx, ctx.tenant.id);
    const matchedCategories: CategoryLookup['categories'] = [];
    for (const category of categories) {
      // The most specific entry is the one worth showing.
      const matched = category.domains
        .filter((entry) => domainMatches(host, entry))
        .sort((a, b) => b.length - a.length)[0];
      if (matched) matchedCategories.push({ id: category.id, name: category.name, matched });
    }
    const apps = [...APP_CATALOG, ...customApps]
      .filter((app) => app.domains.some((entry) => domainMatches(host, entry)))
      .sort(byName)
      .map((app) => ({ appid: app.appid, appname: app.appname }));
    return { domain: host, categories: matchedCategories, apps };
  });
}

// ---- Geo controls ------------------------------------------------------------------------------------

function presentGeo(blocked: string[]): GeoControls {
  return {
    blocked,
    countries: [...countryList()],
    database: { name: GEOIP_DATABASE_NAME, builtAt: geoDatabaseBuiltAt() },
  };
}

export function getGeoControls(database: Database, ctx: Ctx): Promise<GeoControls> {
  return database.tenantTx(ctx.tenant.id, async (tx) =>
    presentGeo(await repo.listGeoBlocked(tx, ctx.tenant.id)),
  );
}

/** Replaces the blocked countries; every code must be a country of the list. */
export function setGeoControls(database: Database, ctx: Ctx, blocked: string[]) {
  const unknown = blocked
    .map((code, i) => ({ code, i }))
    .filter(({ code }) => !isKnownCountry(code))
    .map(({ i }) => ({ path: `body.blocked.${i}`, message: 'validation.country' }));
  if (unknown.length > 0) return Promise.reject(invalid(unknown));
  const wanted = [...blocked].sort();
  return commitPolicyChange(database, ctx, async (tx) => {
    const before = await repo.listGeoBlocked(tx, ctx.tenant.id);
    await repo.setGeoBlocked(tx, ctx.tenant.id, wanted);
    await recordEvent(tx, ctx, {
      action: 'policy.geo.update',
      objectType: 'geo',
      objectId: ctx.tenant.id,
      objectName: ctx.tenant.name,
      before: { blocked: before },
      after: { blocked: wanted },
    });
    return presentGeo(wanted);
  });
}

/** The country of an IPv4 address in the shipped database (null when it has none). */
export function lookupGeo(ip: string) {
  const address = ip.trim();
  if (parseIpv4(address) === null) throw invalid([{ path: 'query.ip', message: 'validation.ip' }]);
  return { ip: address, country: lookupCountry(address) };
}
