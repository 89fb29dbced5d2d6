import { Badge, Group as Row, Text, VisuallyHidden } from '@mantine/core';
import type { RuleRef } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { policyDisplayName, ruleDisplayName } from '../../lib/policy-names';

/** The "System" badge of system rules and derived policies. */
export function SystemBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color="gray">
      {t('policies.system.badge', 'System')}
    </Badge>
  );
}

/** A rule as "Policy › Rule", with the system badge when it is a system rule. */
export function RuleRefText({ rule, size = 'sm' }: { rule: RuleRef; size?: 'xs' | 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation();
  return (
    <Row gap={6} wrap="wrap" component="span" display="inline-flex">
      <Text component="span" size={size}>
        {policyDisplayName(t, rule.policyName)}
        <Text component="span" c="dimmed" aria-hidden="true">
          {' › '}
        </Text>
        <VisuallyHidden component="span">{t('policies.ruleRef.separator', ', rule ')}</VisuallyHidden>
        <Text component="span" fw={600}>
          {ruleDisplayName(t, rule)}
        </Text>
      </Text>
      {rule.system ? <SystemBadge /> : null}
    </Row>
  );
}
