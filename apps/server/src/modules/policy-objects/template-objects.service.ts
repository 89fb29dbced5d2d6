import type { TemplateChange, TemplateObjects } from '@palisade/contracts';
import type { Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { slugOf } from './apps.service';
import * as repo from './policy-objects.repository';

// What policy templates (modules/policy-templates) need of the objects: a tenant's own locations, custom categories
// and custom apps, and making a template's objects exist by name in a tenant — in the caller's transaction, which
// runs inside the policy-test guard.

/** A tenant's own objects (locations, custom categories, custom apps). */
export async function namedObjectsIn(tx: Tx, tenantId: string) {
  return {
    locations: await repo.listLocations(tx, tenantId),
    categories: await repo.listCustomCategories(tx, tenantId),
    apps: await repo.listCustomApps(tx, tenantId),
  };
}
export type NamedObjects = Awaited<ReturnType<typeof namedObjectsIn>>;

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

export interface ObjectChange {
  kind: 'location' | 'category' | 'app';
  name: string;
  change: TemplateChange;
}

/**
 * Makes a template's objects exist in the tenant, matched by name (case-insensitive): created when missing,
 * overwritten when they differ (each recorded as the object screens record it). With `dryRun` nothing is written.
 * Answers what changed and the tenant's ids by lower-case name (apps: appid).
 */
export async function ensureNamedObjectsIn(tx: Tx, ctx: Ctx, objects: TemplateObjects, dryRun: boolean) {
  const tenantId = ctx.tenant.id;
  const current = await namedObjectsIn(tx, tenantId);
  const changes: ObjectChange[] = [];
  const ids = {
    locations: new Map<string, string>(),
    categories: new Map<string, string>(),
    apps: new Map<string, string>(),
  };
  for (const l of current.locations) ids.locations.set(l.name.toLowerCase(), l.id);
  for (const c of current.categories) ids.categories.set(c.name.toLowerCase(), c.id);
  for (const a of current.apps) ids.apps.set(a.appname.toLowerCase(), a.appid);

  for (const wanted of objects.locations) {
    const row = current.locations.find((l) => l.name.toLowerCase() === wanted.name.toLowerCase());
    const values = {
      name: row?.name ?? wanted.name,
      description: wanted.description,
      networks: wanted.networks,
    };
    if (row && row.description === values.description && same(row.networks, values.networks)) {
      changes.push({ kind: 'location', name: wanted.name, change: 'unchanged' });
      continue;
    }
    changes.push({ kind: 'location', name: wanted.name, change: row ? 'update' : 'create' });
    if (dryRun) continue;
    const saved = row
      ? await repo.updateLocation(tx, tenantId, row.id, values)
      : await repo.insertLocation(tx, tenantId, values);
    ids.locations.set(saved.name.toLowerCase(), saved.id);
    await recordEvent(tx, ctx, {
      action: row ? 'policy.location.update' : 'policy.location.create',
      objectType: 'location',
      objectId: saved.id,
      objectName: saved.name,
      before: row ? { description: row.description, networks: row.networks } : undefined,
      after: values,
    });
  }

  for (const wanted of objects.categories) {
    const row = current.categories.find((c) => c.name.toLowerCase() === wanted.name.toLowerCase());
    const values = {
      name: row?.name ?? wanted.name,
      description: wanted.description,
      domains: wanted.domains,
    };
    if (row && row.description === values.description && same(row.domains, values.domains)) {
      changes.push({ kind: 'category', name: wanted.name, change: 'unchanged' });
      continue;
    }
    changes.push({ kind: 'category', name: wanted.name, change: row ? 'update' : 'create' });
    if (dryRun) continue;
    const saved = row
      ? await repo.updateCategory(tx, tenantId, row.id, values)
      : await repo.insertCategory(tx, tenantId, values);
    ids.categories.set(saved.name.toLowerCase(), saved.id);
    await recordEvent(tx, ctx, {
      action: row ? 'policy.category.update' : 'policy.category.create',
      objectType: 'category',
      objectId: saved.id,
      objectName: saved.name,
      before: row ? { description: row.description, domains: row.domains } : undefined,
      after: values,
    });
  }

  for (const wanted of objects.apps) {
    const row = current.apps.find((a) => a.appname.toLowerCase() === wanted.appname.toLowerCase());
    const values = {
      appname: row?.appname ?? wanted.appname,
      category: wanted.category,
      domains: wanted.domains,
      ips: wanted.ips,
    };
    if (
      row &&
      row.category === values.category &&
      same(row.domains, values.domains) &&
      same(row.ips, values.ips)
    ) {
      changes.push({ kind: 'app', name: wanted.appname, change: 'unchanged' });
      continue;
    }
    changes.push({ kind: 'app', name: wanted.appname, change: row ? 'update' : 'create' });
    if (dryRun) continue;
    let saved: repo.AppRow;
    if (row) saved = await repo.updateApp(tx, tenantId, row.appid, values);
    else {
      const base = `custom-${slugOf(values.appname)}`;
      const taken = await repo.appidsLike(tx, tenantId, base);
      let appid = base;
      for (let n = 2; taken.has(appid); n++) appid = `${base}-${n}`;
      saved = await repo.insertApp(tx, tenantId, { appid, ...values });
    }
    ids.apps.set(saved.appname.toLowerCase(), saved.appid);
    await recordEvent(tx, ctx, {
      action: row ? 'policy.app.update' : 'policy.app.create',
      objectType: 'app',
      objectId: saved.appid,
      objectName: saved.appname,
      before: row ? { category: row.category, domains: row.domains, ips: row.ips } : undefined,
      after: values,
    });
  }
  return { changes, ids };
}
