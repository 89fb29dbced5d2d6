import { z } from 'zod';

/**
 * Tenant-gated tabs and features (spec §2, §6). Each tenant has its own set, managed by the platform admin or the
 * tenant's partner (`/partner/{partner}/tenants/{id}/features`); a tenant without stored settings has
 * {@link FEATURE_DEFAULTS}.
 */
export const FEATURE_FLAGS = [
  'webFilter',
  'privateDns',
  'gatewayPolicies',
  'identitySettings',
  'ipamDns',
  'ztnaFirewall',
  'securityCompliance',
  'workspaceInstall',
  'analyticsDashboard',
  'silentAuth',
  'wgTab',
  'rotateToggle',
  'geoOutwards',
  'newSkus',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/**
 * What a tenant without stored settings has: every flag that gates a screen built today is on, so nothing a tenant
 * sees disappears; the previews and extras (silent sign-in, the new SKUs) are off until someone turns them on. The
 * main admin tenant (`MAIN_ADMIN_TENANT`) starts with every flag on.
 */
export const FEATURE_DEFAULTS: Readonly<Record<FeatureFlag, boolean>> = {
  webFilter: true,
  privateDns: true,
  gatewayPolicies: true,
  identitySettings: true,
  ipamDns: true,
  ztnaFirewall: true,
  securityCompliance: true,
  workspaceInstall: true,
  analyticsDashboard: true,
  silentAuth: false,
  wgTab: true,
  rotateToggle: true,
  geoOutwards: true,
  newSkus: false,
};

/** Configuration flags of spec §6, per tenant (`/configurations`); these are the defaults. */
export const CONFIG_FLAGS = {
  copyAllowed: true,
  ieDisabled: true,
  webCategoryEnabled: true,
  advancedRuleSyntax: false,
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
