import type { ConfigFlag, FeatureFlag } from '@palisade/contracts';
import type { TFunction } from 'i18next';

// The words of the feature flags (the partner console's Features dialog) and of the configuration flags
// (/configurations): a label and a one-line description each, under `flags.features.<flag>` and
// `flags.config.<flag>` in the catalogues. The English defaults here are the catalogue's English text.

const FEATURE_TEXT: Record<FeatureFlag, [label: string, description: string]> = {
  webFilter: ['Web filter', 'Custom web categories and their allow or block actions.'],
  privateDns: ['Private DNS', 'Names resolved by the workspace’s own DNS servers.'],
  gatewayPolicies: ['Gateway policies', 'The policies each device and gateway receives (device policies).'],
  identitySettings: ['Identity settings', 'Single sign-on and user provisioning (SCIM, SAML).'],
  ipamDns: ['IPAM and DNS', 'Address management and DNS records for private networks.'],
  ztnaFirewall: ['ZTNA firewall', 'Zero-trust firewall rules between users and private services.'],
  securityCompliance: ['Security compliance', 'The security compliance report.'],
  workspaceInstall: ['Workspace install', 'Installing the client across the workspace.'],
  analyticsDashboard: ['Analytics', 'The analytics dashboard and the traffic analytics report.'],
  silentAuth: ['Silent sign-in', 'Preview: devices sign their users in without a prompt.'],
  wgTab: ['WireGuard tab', 'The WireGuard details of a device.'],
  rotateToggle: ['Key rotation switch', 'Lets administrators turn automatic key rotation on or off.'],
  geoOutwards: ['Outbound geo blocking', 'Blocking traffic to chosen countries (geo controls).'],
  newSkus: ['New plans', 'Preview: the new subscription plans.'],
};

const CONFIG_TEXT: Record<ConfigFlag, [label: string, description: string]> = {
  copyAllowed: [
    'Copying allowed',
    'Administrators may copy users, groups, policies, routes and site settings.',
  ],
  ieDisabled: ['Internet Explorer blocked', 'Sign-in from Internet Explorer is refused.'],
  webCategoryEnabled: ['Web categories in policies', 'Policy rules may match web categories.'],
  advancedRuleSyntax: ['Advanced rule syntax', 'Policy rules may use the advanced match syntax.'],
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
