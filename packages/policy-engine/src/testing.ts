/**
 * Builders for tests (this package's and callers'): a rule or policy with defaults for every field.
 */
import type { PolicyRule } from '@palisade/contracts';
import type { EngineInput, EngineObjects, EnginePolicy } from './types';

let counter = 0;

/** A rule: enabled, no conditions, empty target; `id` and `name` default to a fresh `r<n>`. */
export function makeRule(
  type: PolicyRule['type'],
  url: string,
  action: PolicyRule['action'],
  extra: Partial<PolicyRule> = {},
): PolicyRule {
  counter++;
  const id = extra.id ?? `r${counter}`;
  return {
    id,
    name: extra.name ?? id,
    type,
    url,
    action,
    target: '',
    ports: '',
    categories: [],
    feeds: [],
    locations: [],
    schedule: null,
    enabled: true,
    issysgen: false,
    ...extra,
  };
}

/** A policy of type `other`, enabled, applying to everyone, precedence 100. */
export function makePolicy(id: string, rules: PolicyRule[], extra: Partial<EnginePolicy> = {}): EnginePolicy {
  return {
    id,
    name: extra.name ?? id,
    type: 'other',
    enabled: true,
    precedence: 100,
    appliesTo: null,
    rules,
    ...extra,
  };
}

export const NO_OBJECTS: EngineObjects = Object.freeze({
  apps: [],
  categories: [],
  feeds: [],
  locations: [],
});

export function makeInput(policies: EnginePolicy[], objects: Partial<EngineObjects> = {}): EngineInput {
  return { policies, objects: { ...NO_OBJECTS, ...objects } };
}
