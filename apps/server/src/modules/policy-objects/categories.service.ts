import {
  type CategoryAction,
  type CategoryInput,
  type CategoryLookup,
  normaliseDomain,
  type WebCategory,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import {
  commitPolicyChange,
  removeRuleReferences,
  ruleReferenceCounts,
} from '../policy-core/policy-core.service';
import { byName } from './apps.service';
import { APP_CATALOG } from './data/app-catalog';
import { SHIPPED_CATEGORIES } from './data/categories';
import { nameTaken, rethrowUnique } from './object-conflicts';
import * as repo from './policy-objects.repository';

type Out<T extends z.ZodType> = z.output<T>;

// Web categories: the shipped ones and the tenant's own, the tenant's allow/block action on each, and which
// categories and apps a domain belongs to.

/** How many example domains a shipped category shows (custom categories show all of theirs). */
export const CATEGORY_EXAMPLES = 10;

/** Whether `host` is `entry` or a sub-domain of it (label-suffix match). */
export function domainMatches(host: string, entry: string): boolean {
  return host === entry || host.endsWith(`.${entry}`);
}

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
