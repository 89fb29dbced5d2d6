import type { ConfigFlag, FeatureFlag } from '@palisade/contracts';
import type { TFunction } from 'i18next';

// The words of the feature flags (the partner console's Features dialog) and of the configuration flags
// (/configurations): a label and a one-line description each, under `flags.features.<flag>` and
// `flags.config.<flag>` in the catalogues. The English defaults here are the catalogue's English text.

const FEATURE_TEXT: Record<FeatureFlag, [label: string, description: string]> = {
  webFilter: ['Web filter', 'Custom web categories and their allow or block actions.'],
  gatewayPolicies: ['Gateway policies', 'The policies each device and gateway receives (device policies).'],
  ztnaFirewall: ['ZTNA firewall', 'Zero-trust firewall rules between users and private services.'],
  securityCompliance: ['Security compliance', 'The security compliance report.'],
  analyticsDashboard: ['Analytics', 'The analytics dashboard and the traffic analytics report.'],
  geoOutwards: ['Outbound geo blocking', 'Blocking traffic to chosen countries (geo controls).'],
  xdr: ['XDR', 'Extended detection and response for the users who have it (the XDR add-on).'],
};

const CONFIG_TEXT: Record<ConfigFlag, [label: string, description: string]> = {
  copyAllowed: [
    'Copying allowed',
    'Administrators may copy users, groups, policies, routes and site settings.',
  ],
  ieDisabled: ['Internet Explorer blocked', 'Sign-in from Internet Explorer is refused.'],
  webCategoryEnabled: ['Web categories in policies', 'Policy rules may match web categories.'],
  policyGroups: ['Policy groups', 'Policies are assigned through policy groups.'],
};

export function featureLabel(t: TFunction, flag: FeatureFlag): string {
  return t(`flags.features.${flag}.label`, FEATURE_TEXT[flag][0]);
}

export function featureDescription(t: TFunction, flag: FeatureFlag): string {
  return t(`flags.features.${flag}.description`, FEATURE_TEXT[flag][1]);
}

export function configLabel(t: TFunction, flag: ConfigFlag): string {
  return t(`flags.config.${flag}.label`, CONFIG_TEXT[flag][0]);
}

export function configDescription(t: TFunction, flag: ConfigFlag): string {
  return t(`flags.config.${flag}.description`, CONFIG_TEXT[flag][1]);
}
