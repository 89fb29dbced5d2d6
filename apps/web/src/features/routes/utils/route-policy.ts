import {
  isSystemRule,
  POLICY_NAME_MAX,
  type Policy,
  type PolicyInput,
  type PolicyRule,
  type PolicyRuleInput,
} from '@palisade/contracts';
import { toMatcher } from './networks';

/** What the route form edits. */
export interface RouteFormValues {
  name: string;
  /** One network per line (or comma separated). */
  networks: string;
  /** The gateway's host name, the rule's target; null until one is picked. */
  target: string | null;
  enabled: boolean;
}

/** The form of a new route. */
export const EMPTY_ROUTE_FORM: RouteFormValues = { name: '', networks: '', target: null, enabled: true };

/** The ROUTE rule a form describes: the networks routed through the gateway the target names. */
export function toRouteRule(values: RouteFormValues): PolicyRuleInput {
  return {
    name: values.name.trim(),
    type: 'ROUTE',
    action: 'route',
    url: toMatcher(values.networks),
    target: values.target ?? '',
    enabled: values.enabled,
  };
}

/**
 * The body that creates a route: a route-type (device) policy of the route's name holding its one ROUTE rule.
 * The policy is enabled; the rule's own switch says whether the route is.
 */
export function newRoutePolicy(values: RouteFormValues): PolicyInput {
  return {
    type: 'route',
    name: values.name.trim().slice(0, POLICY_NAME_MAX),
    description: '',
    enabled: true,
    rules: [toRouteRule(values)],
  };
}

/** A stored rule as the editor sends it back unchanged (with its id, so it keeps it). */
export function ruleToInput(rule: PolicyRule): PolicyRuleInput {
  return {
    id: rule.id,
    name: rule.name,
    type: rule.type,
    url: rule.url,
    action: rule.action,
    target: rule.target,
    ports: rule.ports,
    categories: rule.categories,
    feeds: rule.feeds,
    locations: rule.locations,
    schedule: rule.schedule,
    enabled: rule.enabled,
  };
}

/** The parent policy with one route's rule replaced, and where that rule sits in the rules sent. */
export interface ReplacedRoute {
  body: PolicyInput;
  /** The index of the edited rule in `body.rules` (the server's 400 details name it: `body.rules.<i>.url`). */
  index: number;
}

/**
 * The parent policy as an update that changes only one rule: its name, networks, gateway and switch. Every other
 * rule goes back as it is; system rules are not sent (the server keeps them). Null when the policy no longer has
 * the rule, or it is a system rule.
 */
export function replaceRouteRule(
  policy: Policy,
  ruleId: string,
  values: RouteFormValues,
): ReplacedRoute | null {
  const own = policy.rules.filter((rule) => !isSystemRule(rule));
  const index = own.findIndex((rule) => rule.id === ruleId);
  if (index < 0) return null;
  const current = own[index];
  const rules = own.map((rule, i) =>
    i === index
      ? {
          ...ruleToInput(current),
          name: values.name.trim(),
          url: toMatcher(values.networks),
          target: values.target ?? '',
          enabled: values.enabled,
        }
      : ruleToInput(rule),
  );
  return {
    body: {
      type: policy.type,
      name: policy.name,
      description: policy.description,
      enabled: policy.enabled,
      rules,
    },
    index,
  };
}

/**
 * Which form field a 400 detail of a route save is about, or null when it is about something else. The rule's
 * fields are under `body.rules.<ruleIndex>`; a new route's policy carries the route's name, so `body.name`
 * (a taken policy name) is the name field too when `policyNameIsRouteName`.
 */
export function routeFieldOf(
  path: string,
  ruleIndex: number,
  policyNameIsRouteName: boolean,
): keyof RouteFormValues | null {
  const field = path.replace(/^body\./, '');
  if (field === 'name') return policyNameIsRouteName ? 'name' : null;
  const prefix = `rules.${ruleIndex}.`;
  if (!field.startsWith(prefix)) return null;
  const fields: Record<string, keyof RouteFormValues> = {
    name: 'name',
    url: 'networks',
    target: 'target',
    enabled: 'enabled',
  };
  return fields[field.slice(prefix.length)] ?? null;
}
