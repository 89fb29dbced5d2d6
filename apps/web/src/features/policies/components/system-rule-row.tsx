import { Badge, Paper, Group as Row, Text } from '@mantine/core';
import type { PolicyRule } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { SystemBadge } from '../../../components/policy/rule-ref';
import { useActionLabels, useRuleTypeLabels } from './labels';

/** A system rule: shown with its badge, read-only and not removable. */
export function SystemRuleRow({ rule }: { rule: PolicyRule }) {
  const { t } = useTranslation();
  const typeLabels = useRuleTypeLabels();
  const actionLabels = useActionLabels();
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      component="li"
      bg="var(--mantine-color-default-hover)"
      style={{ listStyle: 'none' }}
    >
      <Row gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {rule.name}
        </Text>
        <SystemBadge />
        <Badge size="xs" variant="light">
          {typeLabels[rule.type]}
        </Badge>
        <Badge size="xs" variant="outline" color={rule.action === 'block' ? 'red' : 'gray'}>
          {actionLabels[rule.action]}
        </Badge>
      </Row>
      <Text size="xs" c="dimmed" mt={4} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
        {rule.url || t('policies.rules.emptyMatcher', '(no matcher)')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('policies.rules.systemHint', 'Managed by the console; it cannot be edited or removed here.')}
      </Text>
    </Paper>
  );
}
