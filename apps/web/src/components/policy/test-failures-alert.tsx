import { Alert, List, Text } from '@mantine/core';
import type { PolicyTestFailure } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useDecisionLabels } from './decision-labels';
import { RuleRefText } from './rule-ref';

/** Props of {@link TestFailuresAlert}. */
export interface TestFailuresAlertProps {
  failures: PolicyTestFailure[];
  onClose?: () => void;
}

/**
 * Why a change was refused (409 `policy_tests_failed`): every pinned test it would break, with what the test
 * expects, what the changed policy would decide, and the rule that would decide it.
 */
export function TestFailuresAlert({ failures, onClose }: TestFailuresAlertProps) {
  const { t } = useTranslation();
  const decisions = useDecisionLabels();
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={t('policies.failures.title', 'Not saved: this change breaks policy tests')}
      withCloseButton={Boolean(onClose)}
      closeButtonLabel={t('policies.failures.close', 'Dismiss')}
      onClose={onClose}
    >
      <Text size="sm" mb="xs">
        {t('policies.failures.intro', {
          count: failures.length,
          defaultValue_one: 'The change was undone. {{count}} test would fail:',
          defaultValue_other: 'The change was undone. {{count}} tests would fail:',
        })}
      </Text>
      <List size="sm" spacing="xs">
        {failures.map((failure) => (
          <List.Item key={failure.testId}>
            <Text component="span" size="sm" fw={600}>
              {failure.name}
            </Text>
            {': '}
            {t('policies.failures.expected', 'expected {{expected}}, would be {{actual}}', {
              expected: decisions[failure.expect],
              actual: decisions[failure.actual],
            })}
            {failure.rule ? (
              <>
                {' — '}
                {t('policies.failures.decidedBy', 'decided by')} <RuleRefText rule={failure.rule} />
              </>
            ) : (
              <>
                {'. '}
                {t('policies.decisions.noRuleMatched', 'No rule matched — allowed by default')}
              </>
            )}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
