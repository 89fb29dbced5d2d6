import type { Layer, PolicyType, RuleAction, RuleType, TraceStep } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { policyDisplayName } from '../../../lib/policy-names';
import { ruleActionLabels, ruleTypeLabels } from '../../../lib/rule-summary';

// Shared with the object screens (components/policy); re-exported for this feature's users.
export { useDecisionLabels } from '../../../components/policy/decision-labels';
// Moved down to lib (the event log names policies and rules the same way); re-exported for this feature's users.
export {
  catalogDescription,
  catalogName,
  policyDisplayName,
  ruleDisplayName,
  SYSTEM_POLICY_PREFIX,
} from '../../../lib/policy-names';

/** Translated names of the rule types, with static keys. */
export function useRuleTypeLabels(): Record<RuleType, string> {
  const { t } = useTranslation();
  return ruleTypeLabels(t);
}

/** A short help per rule type: what its matcher holds. */
export function useRuleTypeHelp(): Record<RuleType, string> {
  const { t } = useTranslation();
  return {
    ROUTE: t(
      'policies.ruleHelp.ROUTE',
      'IP addresses or CIDR blocks, e.g. 10.0.0.0/8; 192.0.2.7. Decided in the network layer.',
    ),
    GEO: t(
      'policies.ruleHelp.GEO',
      'Country codes such as DE; FR, or * for every country. Decided in the network layer.',
    ),
    DNS_REWRITE: t(
      'policies.ruleHelp.DNS_REWRITE',
      'Domains whose DNS answer is rewritten to the target IP or domain.',
    ),
    app: t(
      'policies.ruleHelp.app',
      'Applications: their domains are matched in DNS and their IPs in the network layer.',
    ),
    dmn: t('policies.ruleHelp.dmn', 'Domains, matched with their subdomains when resolved (DNS layer).'),
    url: t(
      'policies.ruleHelp.url',
      'URLs without the scheme, e.g. example.com/downloads. Decided in the HTTP layer.',
    ),
    SQUID_DMN: t('policies.ruleHelp.SQUID_DMN', 'Domains, matched by the web proxy (HTTP layer).'),
    SQUID_KEYWORD: t(
      'policies.ruleHelp.SQUID_KEYWORD',
      'Words that block or allow a URL when it contains them (HTTP layer).',
    ),
    SQUID_FILEEXT: t('policies.ruleHelp.SQUID_FILEEXT', 'File extensions such as exe; msi (HTTP layer).'),
  };
}

/** Translated rule actions. */
export function useActionLabels(): Record<RuleAction, string> {
  const { t } = useTranslation();
  return ruleActionLabels(t);
}

/** Translated policy types. */
export function usePolicyTypeLabels(): Record<PolicyType, string> {
  const { t } = useTranslation();
  return {
    other: t('policies.types.other', 'User policy'),
    route: t('policies.types.route', 'Device policy'),
    qos: t('policies.types.qos', 'QoS policy'),
  };
}

/** Translated layers of the evaluation. */
export function useLayerLabels(): Record<Layer, string> {
  const { t } = useTranslation();
  return {
    dns: t('policies.layers.dns', 'DNS'),
    network: t('policies.layers.network', 'Network'),
    http: t('policies.layers.http', 'HTTP'),
    qos: t('policies.layers.qos', 'QoS'),
  };
}

/** Translated trace outcomes. */
export function useOutcomeLabels(): Record<TraceStep['outcome'], string> {
  const { t } = useTranslation();
  return {
    matched: t('policies.outcomes.matched', 'Matched'),
    'no-match': t('policies.outcomes.noMatch', 'No match'),
    skipped: t('policies.outcomes.skipped', 'Skipped'),
    default: t('policies.outcomes.default', 'Default'),
  };
}

/** Translated values the engine puts into its messages: layers, actions and object kinds. */
function valueLabel(t: TFunction, name: string, value: string): string | undefined {
  if (name === 'layer') {
    const layers: Record<string, string> = {
      dns: t('policies.layers.dns', 'DNS'),
      network: t('policies.layers.network', 'Network'),
      http: t('policies.layers.http', 'HTTP'),
      qos: t('policies.layers.qos', 'QoS'),
    };
    return layers[value];
  }
  if (name === 'action') {
    const actions: Record<string, string> = {
      allow: t('policies.actions.allow', 'Allow'),
      block: t('policies.actions.block', 'Block'),
      rewrite: t('policies.actions.rewrite', 'Rewrite'),
      route: t('policies.actions.route', 'Route through gateway'),
      qos: t('policies.actions.qos', 'Set QoS class'),
    };
    return actions[value];
  }
  if (name === 'kind') {
    const kinds: Record<string, string> = {
      location: t('policies.objectKinds.location', 'Location'),
      app: t('policies.objectKinds.app', 'Application'),
      category: t('policies.objectKinds.category', 'Web category'),
      feed: t('policies.objectKinds.feed', 'Threat-intel feed'),
      group: t('policies.objectKinds.group', 'Group'),
      policy: t('policies.objectKinds.policy', 'Policy'),
    };
    return kinds[value];
  }
  return undefined;
}

/**
 * A message the engine or the server sent as a translation key with values (trace reasons
 * `policy.trace.*`, lint messages `policy.lint.*`). Values that are `system:` policy names, layers, actions
 * or object kinds are translated first. Unknown keys fall back to `fallback`.
 */
export function translateMessage(
  t: TFunction,
  key: string,
  values: Record<string, string>,
  fallback: string,
): string {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    shown[name] = valueLabel(t, name, value) ?? policyDisplayName(t, value);
  }
  return t(key, { ...shown, defaultValue: fallback, interpolation: { escapeValue: false } });
}
