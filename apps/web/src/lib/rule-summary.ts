import { type RuleAction, type RuleType, splitMatcher } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { ruleDisplayName } from './policy-names';

/** Translated names of the rule types, with static keys. */
export function ruleTypeLabels(t: TFunction): Record<RuleType, string> {
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

/** Translated rule actions. */
export function ruleActionLabels(t: TFunction): Record<RuleAction, string> {
  return {
    allow: t('policies.actions.allow', 'Allow'),
    block: t('policies.actions.block', 'Block'),
    rewrite: t('policies.actions.rewrite', 'Rewrite'),
    route: t('policies.actions.route', 'Route through gateway'),
    qos: t('policies.actions.qos', 'Set QoS class'),
  };
}

/** Names of the objects a rule refers to by id; an id without a name is shown as it is. */
export interface RuleObjectNames {
  app?: (id: string) => string | undefined;
  category?: (id: string) => string | undefined;
  feed?: (id: string) => string | undefined;
}

/** The parts of a rule a summary reads (a saved rule, a rule of the editor's form, a rule in the event log). */
export interface SummarisedRule {
  id?: string;
  name: string;
  type: RuleType;
  url: string;
  action: RuleAction;
  categories: readonly string[];
  feeds: readonly string[];
  enabled: boolean;
}

/**
 * What a rule matches, in one line: its matcher's entries (applications by name), then its web categories and
 * threat-intel feeds by name — the line the rule editor shows under a folded rule.
 */
export function ruleMatcherSummary(t: TFunction, rule: SummarisedRule, names: RuleObjectNames = {}): string {
  const named = (lookup: ((id: string) => string | undefined) | undefined) => (id: string) =>
    lookup?.(id) ?? id;
  const entries = splitMatcher(rule.url);
  return (
    [
      (rule.type === 'app' ? entries.map(named(names.app)) : entries).join(', '),
      ...rule.categories.map(named(names.category)),
      ...rule.feeds.map(named(names.feed)),
    ]
      .filter(Boolean)
      .join(', ') || t('policies.rules.emptyMatcher', '(no matcher)')
  );
}

/**
 * A rule in one line as the rule editor shows it folded: its name, type and action, what it matches, and
 * whether it is off — "Video calls (Applications, Set QoS class): Zoom, Microsoft Teams".
 */
export function ruleSummary(t: TFunction, rule: SummarisedRule, names: RuleObjectNames = {}): string {
  const values = {
    name: rule.id ? ruleDisplayName(t, { ruleId: rule.id, ruleName: rule.name }) : rule.name,
    type: ruleTypeLabels(t)[rule.type] ?? rule.type,
    action: ruleActionLabels(t)[rule.action] ?? rule.action,
    matcher: ruleMatcherSummary(t, rule, names),
    interpolation: { escapeValue: false },
  };
  return rule.enabled
    ? t('policies.rules.summary', '{{name}} ({{type}}, {{action}}): {{matcher}}', values)
    : t('policies.rules.summaryDisabled', '{{name}} ({{type}}, {{action}}, disabled): {{matcher}}', values);
}
