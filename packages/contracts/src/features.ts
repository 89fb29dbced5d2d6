/** Tenant-gated tabs and features (spec §2, §6). Which tenants see which comes from server configuration. */
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

/** Fixed configuration flags of spec §6 (not per tenant). */
export const CONFIG_FLAGS = {
  copyAllowed: true,
  ieDisabled: true,
  webCategoryEnabled: true,
  advancedRuleSyntax: false,
  policyGroups: false,
} as const;
