import { ActionIcon, Badge, Button, Group as Row, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { LintFinding } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ruleMatcherSummary } from '../../../lib/rule-summary';
import type { PolicyFormValues } from '../utils/policy-form';
import { needsTlsInspection } from '../utils/tls-hint';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from './icons';
import { useActionLabels, useRuleTypeLabels } from './labels';
import { RuleFindings } from './lint-findings';
import type { RuleObjectOptions } from './rule-options';

/** Props of {@link RuleHeader}. */
export interface RuleHeaderProps {
  form: UseFormReturnType<PolicyFormValues>;
  index: number;
  count: number;
  /** The rule's name, or "Rule N" while it has none. */
  title: string;
  isExpanded: boolean;
  isReadOnly: boolean;
  hasErrors: boolean;
  /** The id of the fields' container the toggle opens. */
  bodyId: string;
  onToggle: () => void;
  options: RuleObjectOptions;
  findings: LintFinding[];
}

/**
 * The summary row of a rule: position, name, type, action, state and, while folded, what it matches; its lint
 * findings; and the buttons to open it, move it up or down and delete it.
 */
export function RuleHeader({
  form,
  index,
  count,
  title,
  isExpanded,
  isReadOnly,
  hasErrors,
  bodyId,
  onToggle,
  options,
  findings,
}: RuleHeaderProps) {
  const { t } = useTranslation();
  const typeLabels = useRuleTypeLabels();
  const actionLabels = useActionLabels();
  const rule = form.getValues().rules[index];
  return (
    <Row justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Row gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed" fw={600}>
            {index + 1}.
          </Text>
          <Text size="sm" fw={600}>
            {title}
          </Text>
          <Badge size="xs" variant="light">
            {typeLabels[rule.type]}
          </Badge>
          <Badge size="xs" variant="outline" color={rule.action === 'block' ? 'red' : 'gray'}>
            {actionLabels[rule.action]}
          </Badge>
          {!rule.enabled ? (
            <Badge size="xs" variant="outline" color="gray">
              {t('policies.rules.disabled', 'Disabled')}
            </Badge>
          ) : null}
          {hasErrors ? (
            <Text size="xs" c="red">
              {t('policies.rules.hasErrors', 'Needs attention')}
            </Text>
          ) : null}
        </Row>
        {!isExpanded ? (
          <Text size="xs" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
            {ruleMatcherSummary(t, rule, {
              app: (id) => options.apps.find((app) => app.value === id)?.label,
              category: (id) => options.categories.find((c) => c.value === id)?.label,
              feed: (id) => options.feeds.find((f) => f.value === id)?.label,
            })}
          </Text>
        ) : null}
        <RuleFindings findings={findings} />
        {needsTlsInspection(rule) ? (
          <Text size="xs" c="orange.8" data-testid="rule-tls-hint">
            {t(
              'policies.rules.tlsHint',
              'Applies to plain HTTP only: on HTTPS the gateway sees just the site name (paths, keywords and file extensions need TLS inspection).',
            )}
          </Text>
        ) : null}
      </Stack>
      <Row gap={2} wrap="nowrap">
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={onToggle}
          aria-expanded={isExpanded}
          aria-controls={bodyId}
        >
          {isExpanded
            ? t('policies.rules.collapse', 'Close')
            : isReadOnly
              ? t('policies.rules.show', 'Show')
              : t('policies.rules.edit', 'Edit')}
          <VisuallyHidden>{` ${title}`}</VisuallyHidden>
        </Button>
        {!isReadOnly ? (
          <>
            <Tooltip label={t('policies.list.moveUp', 'Move up')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('policies.rules.moveUp', 'Move rule {{name}} up', { name: title })}
                disabled={index === 0}
                onClick={() => form.reorderListItem('rules', { from: index, to: index - 1 })}
              >
                <ArrowUpIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('policies.list.moveDown', 'Move down')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('policies.rules.moveDown', 'Move rule {{name}} down', { name: title })}
                disabled={index === count - 1}
                onClick={() => form.reorderListItem('rules', { from: index, to: index + 1 })}
              >
                <ArrowDownIcon />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('policies.rules.delete', 'Delete rule')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('policies.rules.deleteLabel', 'Delete rule {{name}}', { name: title })}
                onClick={() => form.removeListItem('rules', index)}
              >
                <TrashIcon />
              </ActionIcon>
            </Tooltip>
          </>
        ) : null}
      </Row>
    </Row>
  );
}
