import { Collapse, Paper } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { LintFinding } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PolicyFormValues } from '../utils/policy-form';
import { RuleFields } from './rule-fields';
import { RuleHeader } from './rule-header';
import type { RuleObjectOptions } from './rule-options';

/** Props of {@link RuleEditor}. */
export interface RuleEditorProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  count: number;
  isExpanded: boolean;
  onToggle: () => void;
  options: RuleObjectOptions;
  findings: LintFinding[];
  isReadOnly: boolean;
}

/**
 * One rule of the policy editor: a summary row (position, name, type, action, findings, move and delete) and,
 * when expanded, its fields. The fields the chosen type or action do not use are hidden.
 */
export function RuleEditor({
  form,
  index,
  count,
  isExpanded,
  onToggle,
  options,
  findings,
  isReadOnly,
}: RuleEditorProps) {
  const { t } = useTranslation();
  const bodyId = useId();
  const rule = form.getValues().rules[index];
  const hasErrors = Object.keys(form.errors).some((key) => key.startsWith(`rules.${index}.`));
  const title = rule.name.trim() || t('policies.rules.untitled', 'Rule {{n}}', { n: index + 1 });

  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="li"
      data-testid="rule-editor"
      style={{ listStyle: 'none', borderColor: hasErrors ? 'var(--mantine-color-red-6)' : undefined }}
    >
      <RuleHeader
        form={form}
        index={index}
        count={count}
        title={title}
        isExpanded={isExpanded}
        isReadOnly={isReadOnly}
        hasErrors={hasErrors}
        bodyId={bodyId}
        onToggle={onToggle}
        options={options}
        findings={findings}
      />
      <Collapse expanded={isExpanded} id={bodyId}>
        {isExpanded ? (
          <RuleFields form={form} index={index} options={options} isReadOnly={isReadOnly} />
        ) : null}
      </Collapse>
    </Paper>
  );
}
