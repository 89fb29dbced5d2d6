import { z } from 'zod';

/**
 * Tenant-gated tabs and features (spec §2, §6). Each tenant has its own switches, set by the platform admin or the
 * tenant's partner (`/partner/{partner}/tenants/{id}/features`); a tenant without stored settings has
 * {@link FEATURE_DEFAULTS}. A flag is on for a tenant when its switch is on *and* the tenant's subscription pays for
 * it (`entitledFeatures` in subscriptions.ts): every flag is sold by a plan or an add-on. What each flag gates is
 * `FEATURE_ROUTES` (screens), the endpoint descriptors' `feature` (API) and `FEATURE_PARTS` (parts of screens).
 *
 * Spec §2 lists more gated tabs (private DNS, identity settings, IPAM DNS, workspace install, silent auth, the WG
 * tab, the rotate toggle, new SKUs). They gate nothing built yet, so they are not flags: each comes back with the
 * screen it gates (docs/features.md says which issue brings which).
 */
export const FEATURE_FLAGS = [
  'webFilter',
  'gatewayPolicies',
  'ztnaFirewall',
  'securityCompliance',
  'analyticsDashboard',
  'geoOutwards',
  'xdr',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** The switches of a tenant without stored settings: all on, so a tenant has what its subscription pays for. */
export const FEATURE_DEFAULTS: Readonly<Record<FeatureFlag, boolean>> = {
  webFilter: true,
  gatewayPolicies: true,
  ztnaFirewall: true,
  securityCompliance: true,
  analyticsDashboard: true,
  geoOutwards: true,
  xdr: true,
};

/** Configuration flags of spec §6, per tenant (`/configurations`); these are the defaults. */
export const CONFIG_FLAGS = {
  copyAllowed: true,
  ieDisabled: true,
  webCategoryEnabled: true,
  policyGroups: false,
} as const;
export type ConfigFlag = keyof typeof CONFIG_FLAGS;
export const CONFIG_FLAG_NAMES = Object.keys(CONFIG_FLAGS) as ConfigFlag[];

/** Every feature flag with its value for one tenant. */
export const FeatureFlagValues = z.object(
  Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, z.boolean()])) as Record<FeatureFlag, z.ZodBoolean>,
);
export type FeatureFlagValues = z.infer<typeof FeatureFlagValues>;

/** Every configuration flag with its value for one tenant. */
export const ConfigFlagValues = z.object(
  Object.fromEntries(CONFIG_FLAG_NAMES.map((flag) => [flag, z.boolean()])) as Record<
    ConfigFlag,
    z.ZodBoolean
  >,
);
export type ConfigFlagValues = z.infer<typeof ConfigFlagValues>;
