import type { TFunction } from 'i18next';

// Names of policy objects as the screens show them: shared by the policy screens, the object screens and the
// event log (which shows a policy's rules as the rule editor summarises them).

/** The prefix of the names of the policies the server derives from the object screens. */
export const SYSTEM_POLICY_PREFIX = 'system:';

/** A policy name as shown: `system:<rest>` names are translated (`policies.system.<rest>`). */
export function policyDisplayName(t: TFunction, name: string): string {
  if (!name.startsWith(SYSTEM_POLICY_PREFIX)) return name;
  const rest = name.slice(SYSTEM_POLICY_PREFIX.length);
  return t(`policies.system.${rest}`, { defaultValue: rest });
}

/**
 * A shipped object's name in the reader's language: shipped web categories and built-in feeds are named in
 * the catalogues by id (`catalog.categories.<id>.name`); custom objects, which the catalogues do not know,
 * keep the name they were given.
 */
export function catalogName(t: TFunction, kind: 'category' | 'feed', id: string, name: string): string {
  return t(`catalog.${kind === 'category' ? 'categories' : 'feeds'}.${id}.name`, { defaultValue: name });
}

/**
 * An application's category in the reader's language: the app catalogue's categories (and `custom`) are slugs
 * named in `catalog.appCategories`; a category a custom app was given by hand is shown as typed.
 */
export function appCategoryName(t: TFunction, category: string): string {
  if (!/^[a-z0-9-]+$/.test(category)) return category;
  return t(`catalog.appCategories.${category}`, { defaultValue: category });
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
