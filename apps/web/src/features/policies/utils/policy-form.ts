import {
  isSystemRule,
  type Policy,
  type PolicyInput,
  type PolicyRule,
  type PolicyRuleInput,
  type PolicyType,
  RULE_TYPE_ACTIONS,
  RULE_TYPES,
  type RuleAction,
  type RuleType,
} from '@palisade/contracts';

/** Rule types whose matcher may also name web categories (contract: dmn, SQUID_DMN). */
export const TYPES_WITH_CATEGORIES: readonly RuleType[] = ['dmn', 'SQUID_DMN'];
/** Rule types whose matcher may also name threat-intel feeds (contract: dmn, ROUTE, SQUID_DMN). */
export const TYPES_WITH_FEEDS: readonly RuleType[] = ['dmn', 'ROUTE', 'SQUID_DMN'];
/** Rule types with destination ports (contract: ROUTE and app). */
export const TYPES_WITH_PORTS: readonly RuleType[] = ['ROUTE', 'app'];
/** Actions that need a target: rewrite address, gateway or QoS class. */
export const ACTIONS_WITH_TARGET: readonly RuleAction[] = ['rewrite', 'route', 'qos'];

/**
 * The actions a rule may take inside a policy of a type: rules of a QoS policy only classify (`qos`), the
 * others never do (the server refuses both).
 */
export function allowedActions(type: RuleType, policyType: PolicyType): readonly RuleAction[] {
  const actions = RULE_TYPE_ACTIONS[type];
  return policyType === 'qos' ? actions.filter((a) => a === 'qos') : actions.filter((a) => a !== 'qos');
}

/** The rule types a policy of a type can hold: those with at least one action allowed there. */
export function allowedRuleTypes(policyType: PolicyType): RuleType[] {
  return RULE_TYPES.filter((type) => allowedActions(type, policyType).length > 0);
}

/** A rule as the editor holds it: the input fields plus a stable key for React and the list. */
export interface RuleFormValue {
  key: string;
  id?: string;
  name: string;
  type: RuleType;
  url: string;
  action: RuleAction;
  target: string;
  ports: string;
  categories: string[];
  feeds: string[];
  locations: string[];
  schedule: { days: number[]; from: string; to: string } | null;
  enabled: boolean;
}

/** What the policy editor edits. System rules are not part of it: the server keeps them as they are. */
export interface PolicyFormValues {
  type: PolicyType;
  name: string;
  description: string;
  enabled: boolean;
  /** Blocks show the block page (default on). */
  blockPage: boolean;
  /** The devices it applies to send all their traffic through the gateway (default off). */
  fullTunnel: boolean;
  rules: RuleFormValue[];
}

let keySeed = 0;
/** A key for a rule that has no id yet. */
export function newRuleKey(): string {
  keySeed += 1;
  return `new-${keySeed}`;
}

/**
 * Whether rules make a block list: at least one of them allows or blocks, and every one that does blocks
 * (rewrite, route and QoS rules say nothing either way). A new rule there is most likely one more block.
 */
export function isBlockList(rules: readonly Pick<RuleFormValue, 'action'>[]): boolean {
  const deciding = rules.filter((rule) => rule.action === 'allow' || rule.action === 'block');
  return deciding.length > 0 && deciding.every((rule) => rule.action === 'block');
}

/**
 * The action a rule of a type starts with, beside `otherRules` in a policy of `policyType`: Block in a block
 * list (when the type may block), else the first action the type allows there. Allowing by mistake is the
 * riskier slip in a list that blocks.
 */
export function defaultRuleAction(
  type: RuleType,
  policyType: PolicyType,
  otherRules: readonly Pick<RuleFormValue, 'action'>[] = [],
): RuleAction {
  const actions = allowedActions(type, policyType);
  if (isBlockList(otherRules) && actions.includes('block')) return 'block';
  return actions[0] ?? RULE_TYPE_ACTIONS[type][0];
}

/** A new, empty rule of a type, with the action {@link defaultRuleAction} picks beside `otherRules`. */
export function emptyRule(
  type: RuleType = 'dmn',
  policyType: PolicyType = 'other',
  otherRules: readonly Pick<RuleFormValue, 'action'>[] = [],
): RuleFormValue {
  return {
    key: newRuleKey(),
    name: '',
    type,
    url: '',
    action: defaultRuleAction(type, policyType, otherRules),
    target: '',
    ports: '',
    categories: [],
    feeds: [],
    locations: [],
    schedule: null,
    enabled: true,
  };
}

/** A stored rule as form value. */
export function ruleToFormValue(rule: PolicyRule): RuleFormValue {
  return {
    key: rule.id,
    id: rule.id,
    name: rule.name,
    type: rule.type,
    url: rule.url,
    action: rule.action,
    target: rule.target,
    ports: rule.ports,
    categories: [...rule.categories],
    feeds: [...rule.feeds],
    locations: [...rule.locations],
    schedule: rule.schedule ? { ...rule.schedule, days: [...rule.schedule.days] } : null,
    enabled: rule.enabled,
  };
}

/** A new policy of a type. */
export function emptyPolicyForm(type: PolicyType): PolicyFormValues {
  return { type, name: '', description: '', enabled: true, blockPage: true, fullTunnel: false, rules: [] };
}

/** A policy's system rules: those before its own rules stay first, the others follow them (server rule). */
export interface SystemRules {
  leading: PolicyRule[];
  trailing: PolicyRule[];
}

/** The editable part of a stored policy; its system rules are returned apart, where they stay. */
export function policyToFormValues(policy: Policy): { values: PolicyFormValues; systemRules: SystemRules } {
  const firstOwn = policy.rules.findIndex((rule) => !isSystemRule(rule));
  const systemRules: SystemRules = { leading: [], trailing: [] };
  policy.rules.forEach((rule, index) => {
    if (!isSystemRule(rule)) return;
    if (firstOwn < 0 || index < firstOwn) systemRules.leading.push(rule);
    else systemRules.trailing.push(rule);
  });
  return {
    values: {
      type: policy.type,
      name: policy.name,
      description: policy.description,
      enabled: policy.enabled,
      blockPage: policy.blockPage,
      fullTunnel: policy.fullTunnel,
      rules: policy.rules.filter((rule) => !isSystemRule(rule)).map(ruleToFormValue),
    },
    systemRules,
  };
}

/** The id the server gives the editor's rule at `index` while it simulates or lints a draft. */
export function draftRuleIndex(ruleId: string): number | null {
  const match = /^draft-rule-(\d+)$/.exec(ruleId);
  return match ? Number(match[1]) - 1 : null;
}

/**
 * A rule as the contract's input: the fields its type and action do not use are sent empty, so a rule whose
 * type was changed does not keep hidden categories, feeds, ports or a target.
 */
export function toRuleInput(rule: RuleFormValue): PolicyRuleInput {
  return {
    ...(rule.id ? { id: rule.id } : {}),
    name: rule.name,
    type: rule.type,
    url: rule.url,
    action: rule.action,
    target: ACTIONS_WITH_TARGET.includes(rule.action) ? rule.target : '',
    ports: TYPES_WITH_PORTS.includes(rule.type) ? rule.ports : '',
    categories: TYPES_WITH_CATEGORIES.includes(rule.type) ? rule.categories : [],
    feeds: TYPES_WITH_FEEDS.includes(rule.type) ? rule.feeds : [],
    locations: rule.locations,
    schedule: rule.schedule,
    enabled: rule.enabled,
  };
}

/** The form values as the contract's policy input. */
export function toPolicyInput(values: PolicyFormValues): PolicyInput {
  return {
    type: values.type,
    name: values.name,
    description: values.description,
    enabled: values.enabled,
    blockPage: values.blockPage,
    fullTunnel: values.fullTunnel,
    rules: values.rules.map(toRuleInput),
  };
}

/** The index of the rule a field path names (`rules.2.url` → 2), or null. */
export function ruleIndexOfPath(path: string): number | null {
  const match = /^rules\.(\d+)(\.|$)/.exec(path);
  return match ? Number(match[1]) : null;
}
