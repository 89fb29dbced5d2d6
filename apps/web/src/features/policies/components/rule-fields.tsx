import { MultiSelect, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { RULE_NAME_MAX, type RuleType } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useConfigFlag } from '../../../lib/tenant-flags';
import {
  ACTIONS_WITH_TARGET,
  allowedActions,
  allowedRuleTypes,
  defaultRuleAction,
  type PolicyFormValues,
  TYPES_WITH_CATEGORIES,
  TYPES_WITH_FEEDS,
  TYPES_WITH_PORTS,
} from '../utils/policy-form';
import { useActionLabels, useRuleTypeLabels } from './labels';
import { RuleMatcherField } from './rule-matcher-field';
import { type RuleObjectOptions, withPicked } from './rule-options';
import { RuleScheduleFields } from './rule-schedule-fields';

/** Props of {@link RuleFields}. */
export interface RuleFieldsProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  options: RuleObjectOptions;
  isReadOnly: boolean;
}

/**
 * The fields of an open rule: name, type and action, what it matches, target and ports, categories, feeds and
 * locations, schedule and whether it is on. The fields the chosen type or action do not use are hidden, and the
 * categories while the tenant has web categories off (its `webCategoryEnabled` configuration flag).
 */
export function RuleFields({ form, index, options, isReadOnly }: RuleFieldsProps) {
  const { t } = useTranslation();
  const typeLabels = useRuleTypeLabels();
  const actionLabels = useActionLabels();
  const hasCategories = useConfigFlag('webCategoryEnabled');
  const { rules, type: policyType } = form.getValues();
  const rule = rules[index];
  const path = (field: string) => `rules.${index}.${field}`;

  const handleTypeChange = (value: string | null) => {
    if (!value) return;
    const type = value as RuleType;
    form.setFieldValue(path('type'), type);
    const actions = allowedActions(type, policyType);
    if (!actions.includes(rule.action) && actions.length > 0) {
      const others = rules.filter((_, at) => at !== index);
      form.setFieldValue(path('action'), defaultRuleAction(type, policyType, others));
    }
  };

  const targetLabel =
    rule.action === 'rewrite'
      ? t('policies.rules.targetRewrite', 'Rewrite to (IP or domain)')
      : rule.action === 'route'
        ? t('policies.rules.targetRoute', 'Gateway')
        : t('policies.rules.targetQos', 'QoS class');

  return (
    <Stack gap="sm" mt="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput
          label={t('policies.rules.name', 'Rule name')}
          required
          maxLength={RULE_NAME_MAX}
          readOnly={isReadOnly}
          {...form.getInputProps(path('name'))}
        />
        <Select
          label={t('policies.rules.type', 'Type')}
          data={allowedRuleTypes(policyType).map((type) => ({ value: type, label: typeLabels[type] }))}
          allowDeselect={false}
          value={rule.type}
          onChange={handleTypeChange}
          error={form.errors[path('type')]}
          readOnly={isReadOnly}
        />
        <Select
          label={t('policies.rules.action', 'Action')}
          data={allowedActions(rule.type, policyType).map((action) => ({
            value: action,
            label: actionLabels[action],
          }))}
          allowDeselect={false}
          readOnly={isReadOnly}
          {...form.getInputProps(path('action'))}
        />
      </SimpleGrid>
      <RuleMatcherField form={form} index={index} options={options} isReadOnly={isReadOnly} />
      {ACTIONS_WITH_TARGET.includes(rule.action) || TYPES_WITH_PORTS.includes(rule.type) ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {ACTIONS_WITH_TARGET.includes(rule.action) ? (
            <TextInput
              label={targetLabel}
              required
              readOnly={isReadOnly}
              {...form.getInputProps(path('target'))}
            />
          ) : null}
          {TYPES_WITH_PORTS.includes(rule.type) ? (
            <TextInput
              label={t('policies.rules.ports', 'Ports (optional)')}
              description={t('policies.rules.portsHint', 'e.g. 443, 8000-8080; any port when empty.')}
              readOnly={isReadOnly}
              {...form.getInputProps(path('ports'))}
            />
          ) : null}
        </SimpleGrid>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {hasCategories && TYPES_WITH_CATEGORIES.includes(rule.type) ? (
          <MultiSelect
            label={t('policies.rules.categories', 'Web categories')}
            data={withPicked(options.categories, rule.categories)}
            searchable
            hidePickedOptions
            disabled={isReadOnly}
            nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
            {...form.getInputProps(path('categories'))}
          />
        ) : null}
        {TYPES_WITH_FEEDS.includes(rule.type) ? (
          <MultiSelect
            label={t('policies.rules.feeds', 'Threat-intel feeds')}
            data={withPicked(options.feeds, rule.feeds)}
            searchable
            hidePickedOptions
            disabled={isReadOnly}
            nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
            {...form.getInputProps(path('feeds'))}
          />
        ) : null}
        <MultiSelect
          label={t('policies.rules.locations', 'Only from locations')}
          description={t('policies.rules.locationsHint', 'Anywhere when empty.')}
          data={withPicked(options.locations, rule.locations)}
          searchable
          hidePickedOptions
          disabled={isReadOnly}
          nothingFoundMessage={t('policies.rules.nothingFound', 'Nothing found')}
          {...form.getInputProps(path('locations'))}
        />
      </SimpleGrid>
      <RuleScheduleFields form={form} index={index} isReadOnly={isReadOnly} />
      <Switch
        label={t('policies.rules.enabled', 'Rule enabled')}
        disabled={isReadOnly}
        {...form.getInputProps(path('enabled'), { type: 'checkbox' })}
      />
    </Stack>
  );
}
