import { FEATURE_FLAGS, type FeatureFlag, type TenantFeatures } from '@palisade/contracts';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { managedTenantRef } from '../tenants/tenants.service';
import * as repo from './features.repository';
import { differences, type FeaturesDeps, flagsOf, switchValues, type Tenant } from './features.service';

/**
 * A managed tenant's feature flags, set by its partner or the platform (the partner console). Apart from
 * features.service.ts, which the session and the access check use, because it reaches the tenants module.
 */

async function presentFeatures(deps: FeaturesDeps, tenant: Tenant): Promise<TenantFeatures> {
  const { switches, entitled, row } = await flagsOf(deps, tenant);
  return {
    tenant: tenant.name,
    features: switches,
    entitled: FEATURE_FLAGS.filter((flag) => entitled.has(flag)),
    isCustomised: Object.keys(row?.features ?? {}).length > 0,
    updatedAt: row && Object.keys(row.features).length > 0 ? row.updatedAt.toISOString() : null,
  };
}

/** A managed tenant's feature flags (the partner console's scoping: 403 without a console, 404 when not managed). */
export async function getManagedTenantFeatures(deps: FeaturesDeps, ctx: Ctx, id: string) {
  return presentFeatures(deps, await managedTenantRef(deps.database, ctx, id));
}

/**
 * Turns a managed tenant's feature flags on or off; flags not named keep their value. Only the flags that differ
 * from the defaults are stored, so a tenant set back to the defaults follows them again. Recorded in the partner's
 * (or the platform's) log and in the tenant's, in one transaction.
 */
export async function updateManagedTenantFeatures(
  deps: FeaturesDeps,
  ctx: Ctx,
  id: string,
  changes: Partial<Record<FeatureFlag, boolean>>,
) {
  const tenant = await managedTenantRef(deps.database, ctx, id);
  const before = await presentFeatures(deps, tenant);
  const after = { ...before.features, ...changes };
  const changed = FEATURE_FLAGS.filter((flag) => after[flag] !== before.features[flag]);
  if (changed.length > 0) {
    const stored = differences(after, switchValues(undefined));
    await deps.database.db.transaction(async (tx) => {
      await repo.saveFeatures(tx, tenant.id, stored);
      const event = {
        action: 'tenant.features.update' as const,
        objectType: 'tenant' as const,
        objectId: tenant.id,
        objectName: tenant.name,
        before: Object.fromEntries(changed.map((flag) => [flag, before.features[flag]])),
        after: Object.fromEntries(changed.map((flag) => [flag, after[flag]])),
      };
      await recordEvent(tx, ctx, event);
      await recordEvent(tx, { ...ctx, tenant: { id: tenant.id } }, event);
    });
  }
  return presentFeatures(deps, tenant);
}
