import { Alert, List, Text } from '@mantine/core';
import type { LintFinding } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { policyDisplayName, ruleDisplayName, translateMessage } from './labels';

const SEVERITY_COLOR: Record<LintFinding['severity'], string> = {
  error: 'red',
  warning: 'orange',
  info: 'blue',
};

/** What a finding says, in words: the engine's message key with the rules or the object it names. */
export function lintText(t: TFunction, finding: LintFinding): string {
  return translateMessage(t, finding.message, finding.values, finding.message);
}

/** Translated severities. */
function useSeverityLabels(): Record<LintFinding['severity'], string> {
  const { t } = useTranslation();
  return {
    error: t('policies.lint.severity.error', 'Error'),
    warning: t('policies.lint.severity.warning', 'Warning'),
    info: t('policies.lint.severity.info', 'Note'),
  };
}

/** The findings of one rule, shown next to it. */
export function RuleFindings({ findings }: { findings: LintFinding[] }) {
  const { t } = useTranslation();
  const severities = useSeverityLabels();
  if (findings.length === 0) return null;
  return (
    <List size="xs" spacing={2} data-testid="rule-findings">
      {findings.map((finding, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: findings have no id; the list is replaced as a whole
        <List.Item key={index}>
          <Text component="span" size="xs" fw={600} c={SEVERITY_COLOR[finding.severity]}>
            {severities[finding.severity]}:
          </Text>{' '}
          <Text component="span" size="xs">
            {lintText(t, finding)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/** Findings that are not about a rule of the edited policy (objects, other policies). */
export function OtherFindings({ findings, title }: { findings: LintFinding[]; title: string }) {
  const { t } = useTranslation();
  const severities = useSeverityLabels();
  if (findings.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" title={title}>
      <List size="sm" spacing={4}>
        {findings.map((finding, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: findings have no id; the list is replaced as a whole
          <List.Item key={index}>
            <Text component="span" size="sm" fw={600}>
              {severities[finding.severity]}:
            </Text>{' '}
            {finding.rule
              ? `${policyDisplayName(t, finding.rule.policyName)} › ${ruleDisplayName(t, finding.rule)}: `
              : ''}
            {lintText(t, finding)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
