import {
  CONFIG_FLAG_NAMES,
  type ConfigFlag,
  type ConfigFlagValues,
  configurationsWithDefaults,
  entitledFeatures,
  FEATURE_DEFAULTS,
  FEATURE_FLAGS,
  type FeatureFlag,
  type FeatureFlagValues,
  type TenantConfigurations,
  type TenantFlags,
} from '@palisade/contracts';
import type { Database, Db, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx, TenantRef } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { subscriptionSummaries } from '../subscriptions/subscriptions.service';
import * as repo from './features.repository';

/** What this module needs: the database. */
export interface FeaturesDeps {
  database: Database;
}

/**
 * What still uses the part of the console a configuration flag gates (the policy groups behind `policyGroups`, the
 * rules naming categories behind `webCategoryEnabled`): while anything does, the flag is not turned off. The
 * module owning the part provides it; module-list.ts hands it to this module, which imports no other module's
 * state.
 */
export interface ConfigurationGuard {
  /** How many of the tenant's objects use it, counted in the caller's transaction (0: nothing). */
  count(tx: Tx, tenantId: string): Promise<number>;
  /** The refusal's English message for that count (the web translates `configurations.inUse.<flag>`). */
  refusal(count: number): string;
}
export type ConfigurationGuards = Partial<Record<ConfigFlag, ConfigurationGuard>>;

/** What changing the configuration flags needs: the database and the guards of the flags that have one. */
export interface ConfigurationsDeps extends FeaturesDeps {
  configurationGuards: ConfigurationGuards;
}

export type Tenant = Pick<TenantRef, 'id' | 'name'>;

/**
 * A tenant's switches: its stored ones over the defaults. Stored values of flags that are no longer flags (spec §2
 * tabs that gate nothing built yet) are ignored.
 */
export function switchValues(stored: Record<string, boolean> | undefined): FeatureFlagValues {
  const out = {} as Record<FeatureFlag, boolean>;
  for (const flag of FEATURE_FLAGS) {
    const value = stored?.[flag];
    out[flag] = typeof value === 'boolean' ? value : FEATURE_DEFAULTS[flag];
  }
  return out;
}

/** The flags the tenant's subscription pays for (every flag a plan sells when it has none). */
async function entitlementOf(deps: FeaturesDeps, tenant: Tenant) {
  const subscription = (await subscriptionSummaries(deps.database, [tenant.id])).get(tenant.id) ?? null;
  return entitledFeatures(subscription);
}

/** Only the flags that differ from what the tenant would have without stored settings. */
export function differences<F extends string>(values: Record<F, boolean>, defaults: Record<F, boolean>) {
  return Object.fromEntries(
    (Object.keys(values) as F[]).filter((f) => values[f] !== defaults[f]).map((f) => [f, values[f]]),
  ) as Partial<Record<F, boolean>>;
}

/**
 * A tenant's feature and configuration flags, in two look-ups by key (its stored flags, its subscription). What the access check asks on every request
 * to an endpoint behind a flag (read each time, so a flag turned off holds on every server at once).
 */
export async function flagsOf(deps: FeaturesDeps, tenant: Tenant) {
  const [row, entitled] = await Promise.all([
    repo.findFlags(deps.database.db, tenant.id),
    entitlementOf(deps, tenant),
  ]);
  const switches = switchValues(row?.features);
  const features = {} as Record<FeatureFlag, boolean>;
  for (const flag of FEATURE_FLAGS) features[flag] = switches[flag] && entitled.has(flag);
  return {
    /** On: the switch is on and the subscription pays for it. */
    features: features as FeatureFlagValues,
    switches,
    entitled,
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

/**
 * A tenant's configuration flags alone, in one look-up by key in the caller's transaction or connection: for a
 * service whose write a flag restricts (policies' `webCategoryEnabled`), read where it writes.
 */
export async function configurationsIn(db: Db | Tx, tenantId: string): Promise<ConfigFlagValues> {
  return configurationsWithDefaults((await repo.findFlags(db, tenantId))?.configurations ?? null);
}

/**
 * Refuses (403 `feature_disabled`, as the access check refuses a gated endpoint) a part of a request that a
 * configuration flag the tenant has off gates, when the endpoint itself is not behind it (the devices' bulk
 * `move` into a policy group, behind `policyGroups`).
 */
export async function requireConfigFlag(deps: FeaturesDeps, tenant: Tenant, flag: ConfigFlag): Promise<void> {
  const configurations = await configurationsIn(deps.database.db, tenant.id);
  if (!configurations[flag]) {
    throw new AppError('feature_disabled', 'This feature is not included in this workspace.');
  }
}

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

/**
 * Changes the tenant's configuration flags; flags not named keep their value. Recorded in the tenant's log. A flag
 * with a guard is not turned off while the tenant still uses what it gates: 409 `object_in_use`, its detail on
 * `body.configurations.<flag>` with the count, and nothing changed.
 */
export async function updateConfigurations(
  deps: ConfigurationsDeps,
  ctx: Ctx,
  changes: Partial<Record<ConfigFlag, boolean>>,
) {
  const before = await presentConfigurations(deps, ctx.tenant);
  const after: ConfigFlagValues = { ...before.configurations, ...changes };
  const changed = CONFIG_FLAG_NAMES.filter((flag) => after[flag] !== before.configurations[flag]);
  if (changed.length > 0) {
    const stored = differences(after, configurationsWithDefaults(null));
    await deps.database.tenantTx(ctx.tenant.id, async (tx) => {
      await refuseWhileInUse(
        deps.configurationGuards,
        tx,
        ctx.tenant.id,
        changed.filter((flag) => !after[flag]),
      );
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

/** 409 `object_in_use` when a flag being turned off guards something the tenant still uses (every such flag). */
async function refuseWhileInUse(
  guards: ConfigurationGuards,
  tx: Tx,
  tenantId: string,
  turnedOff: ConfigFlag[],
) {
  const refused: { flag: ConfigFlag; count: number; message: string }[] = [];
  for (const flag of turnedOff) {
    const guard = guards[flag];
    const count = guard ? await guard.count(tx, tenantId) : 0;
    if (guard && count > 0) refused.push({ flag, count, message: guard.refusal(count) });
  }
  if (refused.length === 0) return;
  throw new AppError(
    'object_in_use',
    refused.map((r) => r.message).join(' '),
    refused.map((r) => ({
      path: `body.configurations.${r.flag}`,
      message: `configurations.inUse.${r.flag}`,
      values: { count: String(r.count) },
    })),
  );
}
