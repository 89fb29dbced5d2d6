import { type App, type AppInput, type AppListQuery, normaliseDomain } from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import {
  commitPolicyChange,
  removeRuleReferences,
  ruleReferenceCounts,
} from '../policy-core/policy-core.service';
import { APP_CATALOG, CATALOG_APP_IDS } from './data/app-catalog';
import { appNameTakenError, rethrowUnique } from './object-conflicts';
import * as repo from './policy-objects.repository';

type Out<T extends z.ZodType> = z.output<T>;

// Applications: the shipped catalog and the tenant's own apps, and the apps blocked for the whole tenant.

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

/** Apps by name, ignoring case and accents first. */
export const byName = (a: { appname: string }, b: { appname: string }) =>
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
