import { Anchor, Button, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, QueryState } from '../../../components/ui/query-state';
import { useCan, useSession } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format-time';
import { usePolicyTemplates } from '../api/get-policy-templates';
import { CreateTemplateModal } from '../components/create-template-modal';
import { CONSOLE_ROLES } from '../components/labels';

const PAGE_SIZE = 25;

/**
 * `/admin-console/templates`: the policy templates of the partner console, server-paged by name. A template is
 * made of policies of a tenant (the console's own or a managed one) and applied to the tenants it manages.
 */
export function Component() {
  const { t, i18n } = useTranslation();
  const { session } = useSession();
  const navigate = useNavigate();
  const canCreate = useCan('tenant:update');
  const consoleTenant = session?.tenant ?? '';
  const hasConsole = session !== null && CONSOLE_ROLES.includes(session.role);
  const [page, setPage] = useState(1);
  const [isCreateOpen, setCreateOpen] = useState(false);
  const list = usePolicyTemplates(hasConsole ? consoleTenant : '', {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const title = t('policyTemplates.title', 'Policy templates');
  if (!hasConsole) {
    return (
      <>
        <PageHeader title={title} />
        <EmptyState
          message={t(
            'partners.notAllowed',
            'The partner console is for partner and platform administrators.',
          )}
        />
      </>
    );
  }
  const createButton = canCreate ? (
    <Button onClick={() => setCreateOpen(true)}>
      {t('policyTemplates.create.button', 'Create template')}
    </Button>
  ) : null;
  const total = list.data?.total ?? 0;

  return (
    <>
      <PageHeader
        title={title}
        description={t(
          'policyTemplates.intro',
          'Policies with their objects, applied to the tenants you manage.',
        )}
        actions={
          <Group gap="sm">
            <Button component={Link} to="/admin-console" variant="default">
              {t('policyTemplates.backToConsole', 'Partner console')}
            </Button>
            {createButton}
          </Group>
        }
      />
      <QueryState
        query={list}
        isEmpty={(data) => data.total === 0}
        emptyMessage={t('policyTemplates.empty', 'No templates yet.')}
        emptyAction={createButton}
      >
        {(data) => (
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('policyTemplates.total', {
                count: total,
                defaultValue_one: '{{count, number}} template',
                defaultValue_other: '{{count, number}} templates',
              })}
            </Text>
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-label={t('policyTemplates.table', 'Policy templates')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('policyTemplates.column.name', 'Name')}</Table.Th>
                    <Table.Th>{t('policyTemplates.column.version', 'Version')}</Table.Th>
                    <Table.Th>{t('policyTemplates.column.policies', 'Policies')}</Table.Th>
                    <Table.Th>{t('policyTemplates.column.source', 'Taken from')}</Table.Th>
                    <Table.Th>{t('policyTemplates.column.updated', 'Updated')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((template) => (
                    <Table.Tr key={template.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/admin-console/templates/${template.id}`}>
                          {template.name}
                        </Anchor>
                        {template.description ? (
                          <Text size="xs" c="dimmed">
                            {template.description}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{template.version}</Table.Td>
                      <Table.Td>{template.policyCount}</Table.Td>
                      <Table.Td>{template.sourceTenant}</Table.Td>
                      <Table.Td>
                        {formatDateTime(template.updatedAt, i18n.language)} · {template.updatedBy}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {total > PAGE_SIZE ? (
              <Pagination
                total={Math.ceil(total / PAGE_SIZE)}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({
                  'aria-label':
                    control === 'next'
                      ? t('policyTemplates.nextPage', 'Next page')
                      : control === 'previous'
                        ? t('policyTemplates.previousPage', 'Previous page')
                        : undefined,
                })}
              />
            ) : null}
          </Stack>
        )}
      </QueryState>
      {canCreate ? (
        <CreateTemplateModal
          opened={isCreateOpen}
          onClose={() => setCreateOpen(false)}
          tenant={consoleTenant}
          onCreated={(created) => void navigate(`/admin-console/templates/${created.id}`)}
        />
      ) : null}
    </>
  );
}
