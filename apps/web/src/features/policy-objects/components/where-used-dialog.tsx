import { Anchor, Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import type { ObjectKind, PolicyTestFailure, WhereUsed } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RuleRefText } from '../../../components/policy/rule-ref';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { useWhereUsed } from '../api/where-used';
import { PolicyTestFailuresAlert } from './policy-test-failures-alert';

/** The object kinds of this area (where-used also knows groups and policies). */
export type PolicyObjectKind = Extract<ObjectKind, 'location' | 'app' | 'category' | 'feed'>;

/** The rules and policy groups of a where-used answer, as lists. */
function WhereUsedLists({ usage }: { usage: WhereUsed }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {usage.rules.length > 0 ? (
        <section aria-label={t('policyObjects.whereUsed.rulesHeading', 'Rules')}>
          <Title order={3} size="h6" mb={4}>
            {t('policyObjects.whereUsed.rulesHeading', 'Rules')}
          </Title>
          <List size="sm" spacing={2}>
            {usage.rules.map((rule) => (
              <List.Item key={`${rule.policyId}:${rule.ruleId}`}>
                <RuleRefText rule={rule} />
              </List.Item>
            ))}
          </List>
        </section>
      ) : (
        <Text size="sm" c="dimmed">
          {t('policyObjects.whereUsed.noRules', 'No rule uses it.')}
        </Text>
      )}
      {usage.policyGroups.length > 0 ? (
        <section aria-label={t('policyObjects.whereUsed.groupsHeading', 'Policy groups')}>
          <Title order={3} size="h6" mb={4}>
            {t('policyObjects.whereUsed.groupsHeading', 'Policy groups')}
          </Title>
          <List size="sm" spacing={2}>
            {usage.policyGroups.map((group) => (
              <List.Item key={group.id}>
                <Anchor component={Link} to={`/policy/policyGroups/${group.id}`} size="sm">
                  {group.name}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </section>
      ) : null}
    </Stack>
  );
}

/** Props of {@link WhereUsedDialog}. */
export interface WhereUsedDialogProps {
  opened: boolean;
  kind: PolicyObjectKind;
  /** The object's id (an appid for apps). */
  id: string;
  name: string;
  onClose: () => void;
}

/** Lists the rules (policy › rule) and policy groups that use an object, fetched when it opens. */
export function WhereUsedDialog({ opened, kind, id, name, onClose }: WhereUsedDialogProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const usage = useWhereUsed(tenant, kind, id, opened);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('policyObjects.whereUsed.title', 'Where {{name}} is used', { name })}
      centered
    >
      <Stack gap="md">
        {usage.isPending ? (
          <LoadingState label={t('policyObjects.whereUsed.loading', 'Looking up where it is used…')} />
        ) : usage.isError ? (
          <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
        ) : (
          <WhereUsedLists usage={usage.data} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('policyObjects.whereUsed.close', 'Close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Props of {@link UsedByButton}. */
export interface UsedByButtonProps {
  kind: PolicyObjectKind;
  id: string;
  name: string;
  /** How many rules use the object (the list's `usedBy`). */
  count: number;
}

/** "Used by N rules": opens {@link WhereUsedDialog}. Unused objects say so as plain text. */
export function UsedByButton({ kind, id, name, count }: UsedByButtonProps) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  if (count === 0) {
    return (
      <Text size="sm" c="dimmed" span style={{ whiteSpace: 'nowrap' }}>
        {t('policyObjects.whereUsed.unused', 'Not used')}
      </Text>
    );
  }
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        aria-haspopup="dialog"
        aria-label={t('policyObjects.whereUsed.showFor', {
          count,
          name,
          defaultValue_one: '{{name}} is used by {{count}} rule: show where',
          defaultValue_other: '{{name}} is used by {{count}} rules: show where',
        })}
        onClick={() => setOpen(true)}
      >
        {t('policyObjects.whereUsed.count', {
          count,
          defaultValue_one: 'Used by {{count}} rule',
          defaultValue_other: 'Used by {{count}} rules',
        })}
      </Button>
      <WhereUsedDialog opened={isOpen} kind={kind} id={id} name={name} onClose={() => setOpen(false)} />
    </>
  );
}

/** Props of {@link SafeDeleteDialog}. */
export interface SafeDeleteDialogProps {
  opened: boolean;
  kind: PolicyObjectKind;
  id: string;
  name: string;
  isDeleting?: boolean;
  /** Tests a refused delete would break (409 `policy_tests_failed`). */
  failures?: PolicyTestFailure[] | null;
  onClose: () => void;
  onConfirm: () => void;
}

/**
 * Asks before deleting an object. It first asks the server where the object is used and, when rules use it,
 * shows the cascade: which rules lose it, and that rules left with nothing to match are removed. The delete
 * button waits for that answer.
 */
export function SafeDeleteDialog({
  opened,
  kind,
  id,
  name,
  isDeleting = false,
  failures = null,
  onClose,
  onConfirm,
}: SafeDeleteDialogProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const usage = useWhereUsed(tenant, kind, id, opened);
  const loseText: Record<PolicyObjectKind, string> = {
    location: t('policyObjects.whereUsed.lose.location', 'These rules will lose this location:'),
    app: t('policyObjects.whereUsed.lose.app', 'These rules will lose this app:'),
    category: t('policyObjects.whereUsed.lose.category', 'These rules will lose this category:'),
    feed: t('policyObjects.whereUsed.lose.feed', 'These rules will lose this feed:'),
  };

  const renderUsage = () => {
    if (usage.isPending)
      return <LoadingState label={t('policyObjects.whereUsed.loading', 'Looking up where it is used…')} />;
    if (usage.isError) return <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />;
    const { rules, policyGroups } = usage.data;
    if (rules.length === 0) {
      return (
        <Text size="sm">{t('policyObjects.delete.unused', 'No rule uses it, so no rule changes.')}</Text>
      );
    }
    return (
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {loseText[kind]}
        </Text>
        <List size="sm" spacing={2} aria-label={t('policyObjects.delete.affectedRules', 'Affected rules')}>
          {rules.map((rule) => (
            <List.Item key={`${rule.policyId}:${rule.ruleId}`}>
              <RuleRefText rule={rule} />
            </List.Item>
          ))}
        </List>
        <Text size="sm">
          {t('policyObjects.delete.cascade', 'Rules left with nothing to match are removed.')}
        </Text>
        {policyGroups.length > 0 ? (
          <Text size="sm" c="dimmed">
            {t('policyObjects.delete.groups', 'Policy groups affected: {{names}}', {
              names: policyGroups.map((group) => group.name).join(', '),
            })}
          </Text>
        ) : null}
      </Stack>
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={isDeleting ? () => {} : onClose}
      title={t('policyObjects.delete.title', 'Delete {{name}}?', { name })}
      centered
    >
      <Stack gap="md">
        <Text size="sm">{t('policyObjects.delete.message', 'This cannot be undone.')}</Text>
        {opened ? renderUsage() : null}
        <PolicyTestFailuresAlert failures={failures} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isDeleting}>
            {t('policyObjects.delete.cancel', 'Cancel')}
          </Button>
          <Button
            color="red"
            onClick={onConfirm}
            loading={isDeleting}
            disabled={usage.isPending || usage.isError}
          >
            {usage.data && usage.data.rules.length > 0
              ? t('policyObjects.delete.confirmCascade', 'Delete and update rules')
              : t('policyObjects.delete.confirm', 'Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
