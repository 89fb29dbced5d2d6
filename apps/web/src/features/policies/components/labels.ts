import type { Decision, Layer, PolicyType, RuleAction, RuleType, TraceStep } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** Translated names of the rule types, with static keys. */
export function useRuleTypeLabels(): Record<RuleType, string> {
  const { t } = useTranslation();
  return {
    ROUTE: t('policies.ruleTypes.ROUTE', 'IP / network route'),
    GEO: t('policies.ruleTypes.GEO', 'Countries (geo)'),
    DNS_REWRITE: t('policies.ruleTypes.DNS_REWRITE', 'DNS rewrite'),
    app: t('policies.ruleTypes.app', 'Applications'),
    dmn: t('policies.ruleTypes.dmn', 'Domains (DNS)'),
    url: t('policies.ruleTypes.url', 'URLs (web)'),
    SQUID_DMN: t('policies.ruleTypes.SQUID_DMN', 'Domains (web proxy)'),
    SQUID_KEYWORD: t('policies.ruleTypes.SQUID_KEYWORD', 'Keywords (web proxy)'),
    SQUID_FILEEXT: t('policies.ruleTypes.SQUID_FILEEXT', 'File extensions (web proxy)'),
  };
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
  return {
    allow: t('policies.actions.allow', 'Allow'),
    block: t('policies.actions.block', 'Block'),
    rewrite: t('policies.actions.rewrite', 'Rewrite'),
    route: t('policies.actions.route', 'Route through gateway'),
    qos: t('policies.actions.qos', 'Set QoS class'),
  };
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

/** Translated decisions. */
export function useDecisionLabels(): Record<Decision, string> {
  const { t } = useTranslation();
  return {
    allow: t('policies.decisions.allow', 'Allowed'),
    block: t('policies.decisions.block', 'Blocked'),
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

/** The prefix of the names of the policies the server derives from the object screens. */
export const SYSTEM_POLICY_PREFIX = 'system:';

/** A policy name as shown: `system:<rest>` names are translated (`policies.system.<rest>`). */
export function policyDisplayName(t: TFunction, name: string): string {
  if (!name.startsWith(SYSTEM_POLICY_PREFIX)) return name;
  const rest = name.slice(SYSTEM_POLICY_PREFIX.length);
  return t(`policies.system.${rest}`, { defaultValue: rest });
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

/**
 * A shipped object's name in the reader's language: shipped web categories and built-in feeds are named in
 * the catalogues by id (`catalog.categories.<id>.name`); custom objects, which the catalogues do not know,
 * keep the name they were given.
 */
export function catalogName(t: TFunction, kind: 'category' | 'feed', id: string, name: string): string {
  return t(`catalog.${kind === 'category' ? 'categories' : 'feeds'}.${id}.name`, { defaultValue: name });
}

/** A shipped web category's description in the reader's language (as given for custom ones). */
export function catalogDescription(t: TFunction, id: string, description: string): string {
  return t(`catalog.categories.${id}.description`, { defaultValue: description });
}

/** The name after the prefix the server writes into a system rule's name (`Category: Gambling`). */
const afterPrefix = (name: string) => name.slice(name.indexOf(': ') + 2);

/**
 * A rule name as shown. The server names the system rules it derives from the object screens in English, with
 * deterministic ids (`system-category-<id>`, `system-threat-intel-<feed>-domains`…); those are translated,
 * with the shipped object's translated name. Every other rule keeps its own name.
 */
export function ruleDisplayName(t: TFunction, rule: { ruleId: string; ruleName: string }): string {
  const { ruleId, ruleName } = rule;
  const category = /^system-category-(.+)$/.exec(ruleId);
  if (category) {
    return t('policies.systemRules.category', 'Category: {{name}}', {
      name: catalogName(t, 'category', category[1], afterPrefix(ruleName)),
    });
  }
  const feed = /^system-threat-intel-(.+)-(domains|ips)$/.exec(ruleId);
  if (feed) {
    const name = catalogName(t, 'feed', feed[1], afterPrefix(ruleName));
    return feed[2] === 'domains'
      ? t('policies.systemRules.feedDomains', 'Threat intel: {{name}}', { name })
      : t('policies.systemRules.feedIps', 'IP rule: {{name}}', { name });
  }
  if (ruleId === 'system-blocked-apps') return t('policies.systemRules.blockedApps', 'Blocked apps');
  if (ruleId === 'system-geo-block') return t('policies.systemRules.blockedCountries', 'Blocked countries');
  if (ruleId === 'system-default-geo') return t('policies.system.defaultGeo', 'Default geo rule');
  return ruleName;
}
