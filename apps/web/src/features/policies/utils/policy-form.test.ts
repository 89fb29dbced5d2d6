import { describe, expect, it } from 'vitest';
import { defaultRuleAction, emptyRule, isBlockList } from './policy-form';

const rules = (...actions: ('allow' | 'block' | 'rewrite' | 'route' | 'qos')[]) =>
  actions.map((action) => ({ action }));

describe('the action a new rule starts with', () => {
  it('is Block in a block list: rules that decide all block (rewrites, routes and QoS say nothing)', () => {
    expect(isBlockList(rules('block', 'block'))).toBe(true);
    expect(isBlockList(rules('block', 'rewrite'))).toBe(true);
    expect(isBlockList(rules('block', 'allow'))).toBe(false);
    expect(isBlockList(rules('rewrite', 'route'))).toBe(false);
    expect(isBlockList([])).toBe(false);

    expect(emptyRule('dmn', 'other', rules('block', 'block')).action).toBe('block');
    expect(emptyRule('ROUTE', 'route', rules('block')).action).toBe('block');
  });

  it('is the first allowed action elsewhere, and never one the type or policy cannot take', () => {
    expect(emptyRule('dmn', 'other').action).toBe('allow');
    expect(emptyRule('dmn', 'other', rules('allow', 'block')).action).toBe('allow');
    // A rewrite rule only rewrites, a rule of a QoS policy only classifies, block list or not.
    expect(defaultRuleAction('DNS_REWRITE', 'other', rules('block'))).toBe('rewrite');
    expect(defaultRuleAction('dmn', 'qos', rules('block'))).toBe('qos');
  });
});
