import { MultiSelect, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MATCHER_MAX, splitMatcher } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { PolicyFormValues } from '../utils/policy-form';
import { useRuleTypeHelp } from './labels';
import { type RuleObjectOptions, withPicked } from './rule-options';

/** Props of {@link RuleMatcherField}. */
export interface RuleMatcherFieldProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  options: RuleObjectOptions;
  isReadOnly: boolean;
}

/** What a rule matches: applications picked by name for app rules, otherwise a list typed by hand. */
export function RuleMatcherField({ form, index, options, isReadOnly }: RuleMatcherFieldProps) {
  const { t } = useTranslation();
  const typeHelp = useRuleTypeHelp();
  const rule = form.getValues().rules[index];
  const path = `rules.${index}.url`;
  if (rule.type === 'app') {
    return (
      <MultiSelect
        label={t('policies.rules.apps', 'Applications')}
        description={typeHelp.app}
        placeholder={t('policies.rules.appsPlaceholder', 'Search applications')}
        data={withPicked(options.apps, splitMatcher(rule.url))}
        value={splitMatcher(rule.url)}
        onChange={(ids) => form.setFieldValue(path, ids.join(';'))}
        error={form.errors[path]}
        searchable
        limit={100}
        hidePickedOptions
        nothingFoundMessage={t('policies.rules.noApp', 'No matching application')}
        disabled={isReadOnly}
      />
    );
  }
  return (
    <Textarea
      label={t('policies.rules.matcher', 'Matches')}
      description={`${typeHelp[rule.type]} ${t(
        'policies.rules.matcherSeparators',
        'Put each entry on its own line, or separate entries with ; or ,.',
      )}`}
      rows={3}
      resize="vertical"
      maxLength={MATCHER_MAX}
      spellCheck={false}
      readOnly={isReadOnly}
      {...form.getInputProps(path)}
    />
  );
}
