import { z } from 'zod';
import { endpoint } from './endpoint';
import {
  CONFIG_FLAG_NAMES,
  CONFIG_FLAGS,
  type ConfigFlag,
  ConfigFlagValues,
  FEATURE_FLAGS,
  FeatureFlagValues,
} from './features';
import { ManagedTenantParams } from './partners';
import { TenantParams } from './tenants';

/**
 * Per-tenant feature flags (spec §2 "tabs gated by tenant lists", §6) and configuration flags (`/configurations`,
 * spec §6). Feature flags are the platform's or the partner's to set for a tenant; configuration flags the tenant's
 * own administrators'.
 */

/**
 * A change of some flags: each named flag must exist and be a switch; an unknown name or a value that is not true
 * or false is refused at its own path (`body.features.teleport`).
 */
function flagChanges<F extends string>(names: readonly F[], unknownKey: string) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      for (const [key, flag] of Object.entries(value)) {
        if (!(names as readonly string[]).includes(key)) {
          ctx.addIssue({ code: 'custom', path: [key], message: unknownKey });
        } else if (typeof flag !== 'boolean') {
          ctx.addIssue({ code: 'custom', path: [key], message: 'validation.boolean' });
        }
      }
    })
    .transform((value) => value as Partial<Record<F, boolean>>);
}

/** A tenant's feature flags as its partner's console shows them. */
export const TenantFeatures = z.object({
  tenant: z.string(),
  /** The switches (stored over the defaults). */
  features: FeatureFlagValues,
  /**
   * The flags the tenant's subscription pays for (`entitledFeatures`); a flag is on only when its switch is on and
   * it is listed here. The dialog shows the others as not in the plan.
   */
  entitled: z.array(z.enum(FEATURE_FLAGS)),
  /** False while the tenant has nothing stored: it follows the defaults. */
  isCustomised: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type TenantFeatures = z.infer<typeof TenantFeatures>;

export const TenantFeaturesUpdate = z.object({
  features: flagChanges(FEATURE_FLAGS, 'validation.unknownFeature'),
});
export type TenantFeaturesUpdate = z.input<typeof TenantFeaturesUpdate>;

/** A tenant's configuration flags (`/configurations`). */
export const TenantConfigurations = z.object({
  configurations: ConfigFlagValues,
  updatedAt: z.string().nullable(),
});
export type TenantConfigurations = z.infer<typeof TenantConfigurations>;

export const TenantConfigurationsUpdate = z.object({
  configurations: flagChanges(CONFIG_FLAG_NAMES, 'validation.unknownConfigFlag'),
});
export type TenantConfigurationsUpdate = z.input<typeof TenantConfigurationsUpdate>;

/** What the web reads for the tenant it works in: which features it has and its configuration flags. */
export const TenantFlags = z.object({
  tenant: z.string(),
  features: z.array(z.enum(FEATURE_FLAGS)),
  configurations: ConfigFlagValues,
});
export type TenantFlags = z.infer<typeof TenantFlags>;

export const tenantFeatureEndpoints = {
  getManagedTenantFeatures: endpoint({
    method: 'GET',
    path: '/partner/:tenant/tenants/:id/features',
    access: 'tenant:view',
    summary: "A managed tenant's feature flags (partner admins of its partner, platform admins)",
    tags: ['partners'],
    params: ManagedTenantParams,
    response: TenantFeatures,
  }),
  updateManagedTenantFeatures: endpoint({
    method: 'PUT',
    path: '/partner/:tenant/tenants/:id/features',
    access: 'tenant:update',
    summary: "Turn a managed tenant's feature flags on or off; flags not named keep their value",
    tags: ['partners'],
    params: ManagedTenantParams,
    body: TenantFeaturesUpdate,
    response: TenantFeatures,
  }),
  getConfigurations: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/configurations',
    access: 'tenant:view',
    summary: "The tenant's configuration flags (spec §6)",
    tags: ['tenant'],
    params: TenantParams,
    response: TenantConfigurations,
  }),
  updateConfigurations: endpoint({
    method: 'PUT',
    path: '/tenant/:tenant/configurations',
    access: 'tenant:update',
    summary: "Change the tenant's configuration flags; flags not named keep their value",
    tags: ['tenant'],
    params: TenantParams,
    body: TenantConfigurationsUpdate,
    response: TenantConfigurations,
  }),
  getTenantFlags: endpoint({
    method: 'GET',
    path: '/tenant/:tenant/flags',
    access: 'session',
    summary: 'The features and configuration flags of a tenant the session works in (what the web shows)',
    tags: ['tenant'],
    params: TenantParams,
    response: TenantFlags,
  }),
};

/** The configuration flags with their defaults filled in. */
export function configurationsWithDefaults(
  stored: Partial<Record<string, unknown>> | null,
): ConfigFlagValues {
  const out = { ...CONFIG_FLAGS } as Record<ConfigFlag, boolean>;
  for (const flag of CONFIG_FLAG_NAMES) {
    if (typeof stored?.[flag] === 'boolean') out[flag] = stored[flag] as boolean;
  }
  return out;
}
