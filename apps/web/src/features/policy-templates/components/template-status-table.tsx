import {
  Badge,
  Button,
  Checkbox,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { TemplateTenantStatus } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format-time';
import { STATE_COLORS, stateLabel } from './labels';

export interface TemplateStatusTableProps {
  items: TemplateTenantStatus[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  selected: string[];
  onSelectedChange: (selected: string[]) => void;
  /** Re-apply to one tenant (drifted or outdated): previews it first. */
  onReapply?: (tenant: string) => void;
}

/** The managed tenants with the template's state in each, selectable for a preview. */
export function TemplateStatusTable({
  items,
  total,
  page,
  pageSize,
  onPageChange,
  selected,
  onSelectedChange,
  onReapply,
}: TemplateStatusTableProps) {
  const { t, i18n } = useTranslation();
  const toggle = (tenant: string, checked: boolean) =>
    onSelectedChange(checked ? [...selected, tenant] : selected.filter((name) => name !== tenant));
  const onPage = items.map((item) => item.tenant);
  const allChecked = onPage.length > 0 && onPage.every((name) => selected.includes(name));
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={720}>
        <Table aria-label={t('policyTemplates.status.table', 'Tenants and their state')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label={t('policyTemplates.status.selectAll', 'Select every tenant on this page')}
                  checked={allChecked}
                  onChange={(event) =>
                    onSelectedChange(
                      event.currentTarget.checked
                        ? [...new Set([...selected, ...onPage])]
                        : selected.filter((name) => !onPage.includes(name)),
                    )
                  }
                />
              </Table.Th>
              <Table.Th>{t('policyTemplates.status.tenant', 'Tenant')}</Table.Th>
              <Table.Th>{t('policyTemplates.status.state', 'State')}</Table.Th>
              <Table.Th>{t('policyTemplates.status.applied', 'Applied')}</Table.Th>
              <Table.Th>{t('policyTemplates.status.changedLocally', 'Changed locally')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('policyTemplates.status.actions', 'Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.tenant}>
                <Table.Td>
                  <Checkbox
                    aria-label={t('policyTemplates.status.select', 'Select {{name}}', {
                      name: item.displayName,
                    })}
                    checked={selected.includes(item.tenant)}
                    onChange={(event) => toggle(item.tenant, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{item.displayName}</Text>
                  <Text size="xs" c="dimmed">
                    {item.tenant}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLORS[item.state]} variant="light">
                    {stateLabel(t, item.state)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {item.appliedAt ? (
                    <Text size="sm">
                      {t('policyTemplates.status.appliedVersion', 'Version {{version}}, {{at}} by {{by}}', {
                        version: item.appliedVersion,
                        at: formatDateTime(item.appliedAt, i18n.language),
                        by: item.appliedBy,
                      })}
                    </Text>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>
                  {item.drifted.length === 0
                    ? '—'
                    : item.drifted.map((d) => (
                        <Text size="sm" key={d.policy}>
                          {d.changedAt
                            ? t('policyTemplates.status.driftedAt', '{{policy}} (changed {{at}})', {
                                policy: d.policy,
                                at: formatDateTime(d.changedAt, i18n.language),
                              })
                            : t('policyTemplates.status.driftedDeleted', '{{policy}} (deleted)', {
                                policy: d.policy,
                              })}
                        </Text>
                      ))}
                </Table.Td>
                <Table.Td>
                  {onReapply && (item.state === 'drifted' || item.state === 'outdated') ? (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onReapply(item.tenant)}
                      aria-label={t('policyTemplates.status.reapplyTo', 'Re-apply to {{name}}', {
                        name: item.displayName,
                      })}
                    >
                      {t('policyTemplates.status.reapply', 'Re-apply')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > pageSize ? (
        <Group justify="flex-end">
          <Pagination total={Math.ceil(total / pageSize)} value={page} onChange={onPageChange} />
        </Group>
      ) : null}
    </Stack>
  );
}
