import {
  CONFIG_FLAG_NAMES,
  type ConfigFlag,
  type ConfigFlagValues,
  configurationsWithDefaults,
  FEATURE_DEFAULTS,
  FEATURE_FLAGS,
  type FeatureFlag,
  type FeatureFlagValues,
  type TenantConfigurations,
  type TenantFlags,
} from '@palisade/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx, TenantRef } from '../../lib/context';
import * as repo from './features.repository';

/** What this module needs: the database, and which tenant is the main admin tenant (it starts with every flag). */
export interface FeaturesDeps {
  database: Database;
  config: Pick<Config, 'mainAdminTenant'>;
}

export type Tenant = Pick<TenantRef, 'id' | 'name'>;

/** A tenant's feature flags: its stored ones over the defaults (every flag on for the main admin tenant). */
export function featureValues(
  deps: FeaturesDeps,
  tenant: Tenant,
  stored: Record<string, boolean> | undefined,
): FeatureFlagValues {
  const isMain = tenant.name === deps.config.mainAdminTenant;
  const out = {} as Record<FeatureFlag, boolean>;
  for (const flag of FEATURE_FLAGS) {
    const value = stored?.[flag];
    out[flag] = typeof value === 'boolean' ? value : isMain || FEATURE_DEFAULTS[flag];
  }
  return out;
}

/** Only the flags that differ from what the tenant would have without stored settings. */
export function differences<F extends string>(values: Record<F, boolean>, defaults: Record<F, boolean>) {
  return Object.fromEntries(
    (Object.keys(values) as F[]).filter((f) => values[f] !== defaults[f]).map((f) => [f, values[f]]),
  ) as Partial<Record<F, boolean>>;
}

/**
 * A tenant's feature and configuration flags, in one look-up by key. What the access check asks on every request
 * to an endpoint behind a flag (read each time, so a flag turned off holds on every server at once).
 */
export async function flagsOf(deps: FeaturesDeps, tenant: Tenant) {
  const row = await repo.findFlags(deps.database.db, tenant.id);
  return {
    features: featureValues(deps, tenant, row?.features),
    configurations: configurationsWithDefaults(row?.configurations ?? null),
    row,
  };
}

/** What the session carries of the tenant it works in: the features it has and its configuration flags. */
export async function sessionFlags(deps: FeaturesDeps, tenant: Tenant) {
  const { features, configurations } = await flagsOf(deps, tenant);
  return { features: FEATURE_FLAGS.filter((flag) => features[flag]), configurations };
}

/** `GET tenant/{tenant}/flags`: what the web shows or hides in the tenant it works in. */
export async function tenantFlags(deps: FeaturesDeps, ctx: Ctx): Promise<TenantFlags> {
  const { features, configurations } = await flagsOf(deps, ctx.tenant);
  return {
    tenant: ctx.tenant.name,
    features: FEATURE_FLAGS.filter((flag) => features[flag]),
    configurations,
  };
}

// ---- Configuration flags (/configurations), set by the tenant's administrators ----------------------------------

async function presentConfigurations(deps: FeaturesDeps, tenant: Tenant): Promise<TenantConfigurations> {
  const { configurations, row } = await flagsOf(deps, tenant);
  return {
    configurations,
    updatedAt: row && Object.keys(row.configurations).length > 0 ? row.updatedAt.toISOString() : null,
  };
}

export function getConfigurations(deps: FeaturesDeps, ctx: Ctx) {
  return presentConfigurations(deps, ctx.tenant);
}

/** Changes the tenant's configuration flags; flags not named keep their value. Recorded in the tenant's log. */
export async function updateConfigurations(
  deps: FeaturesDeps,
  ctx: Ctx,
  changes: Partial<Record<ConfigFlag, boolean>>,
) {
  const before = await presentConfigurations(deps, ctx.tenant);
  const after: ConfigFlagValues = { ...before.configurations, ...changes };
  const changed = CONFIG_FLAG_NAMES.filter((flag) => after[flag] !== before.configurations[flag]);
  if (changed.length > 0) {
    const stored = differences(after, configurationsWithDefaults(null));
    await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
      await repo.saveConfigurations(tx, ctx.tenant.id, stored);
      await recordEvent(tx, ctx, {
        action: 'tenant.configurations.update',
        objectType: 'tenant',
        objectId: ctx.tenant.id,
        objectName: ctx.tenant.name,
        before: Object.fromEntries(changed.map((flag) => [flag, before.configurations[flag]])),
        after: Object.fromEntries(changed.map((flag) => [flag, after[flag]])),
      });
    });
  }
  return presentConfigurations(deps, ctx.tenant);
}
