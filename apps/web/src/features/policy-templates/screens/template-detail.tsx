import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { TemplateApplyResult, TemplatePreview } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, QueryState } from '../../../components/ui/query-state';
import { useCan, useSession } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { usePolicyTemplate } from '../api/get-policy-template';
import { useTemplateStatus } from '../api/get-template-status';
import {
  useApplyPolicyTemplate,
  useDeletePolicyTemplate,
  usePreviewPolicyTemplate,
  useUpdatePolicyTemplate,
} from '../api/policy-template-mutations';
import { CONSOLE_ROLES } from '../components/labels';
import { TemplateApplyResults, TemplatePreviewList } from '../components/template-preview';
import { TemplateStatusTable } from '../components/template-status-table';

const PAGE_SIZE = 25;

/**
 * `/admin-console/templates/:id`: a policy template — its policies, and per managed tenant whether it is applied
 * and in sync, drifted (changed locally) or older than the template. Select tenants → Preview (per tenant what
 * changes and which pinned policy tests would break) → Apply (results per tenant). Drifted tenants re-apply the
 * same way, which overwrites the local change.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { session } = useSession();
  const navigate = useNavigate();
  const canApply = useCan('tenant:update');
  const consoleTenant = session?.tenant ?? '';
  const hasConsole = session !== null && CONSOLE_ROLES.includes(session.role);
  const tenant = hasConsole ? consoleTenant : '';
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [preview, setPreview] = useState<TemplatePreview[] | null>(null);
  const [results, setResults] = useState<TemplateApplyResult[] | null>(null);
  const [isDeleteOpen, setDeleteOpen] = useState(false);
  const template = usePolicyTemplate(tenant, id);
  const status = useTemplateStatus(tenant, id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });

  const runPreview = usePreviewPolicyTemplate(tenant, id, {
    onSuccess: (tenants) => {
      setResults(null);
      setPreview(tenants);
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('policyTemplates.preview.failed', 'The preview failed') }),
  });
  const apply = useApplyPolicyTemplate(tenant, id, {
    onSuccess: (tenants) => {
      setPreview(null);
      setResults(tenants);
      const applied = tenants.filter((r) => r.result === 'applied').length;
      showSuccess(
        t('policyTemplates.apply.done', 'Applied to {{applied}} of {{count, number}} tenants.', {
          applied,
          count: tenants.length,
        }),
      );
    },
    onError: (error) =>
      showMutationError(t, error, {
        title: t('policyTemplates.apply.failed', 'The template was not applied'),
      }),
  });
  const update = useUpdatePolicyTemplate(tenant, id, {
    onSuccess: (updated) =>
      showSuccess(
        t(
          'policyTemplates.update.done',
          'The template now holds the policies as they are (version {{version}}).',
          {
            version: updated.version,
          },
        ),
      ),
    onError: (error) =>
      showMutationError(t, error, {
        title: t('policyTemplates.update.failed', 'The template was not updated'),
      }),
  });
  const remove = useDeletePolicyTemplate(tenant, {
    onSuccess: () => {
      setDeleteOpen(false);
      showSuccess(t('policyTemplates.delete.done', 'The template was deleted.'));
      void navigate('/admin-console/templates');
    },
    onError: (error) => {
      setDeleteOpen(false);
      showMutationError(t, error, {
        title: t('policyTemplates.delete.failed', 'The template was not deleted'),
      });
    },
  });

  if (!hasConsole) {
    return (
      <>
        <PageHeader title={t('policyTemplates.title', 'Policy templates')} />
        <EmptyState
          message={t(
            'partners.notAllowed',
            'The partner console is for partner and platform administrators.',
          )}
        />
      </>
    );
  }

  const previewTenants = (tenants: string[]) => {
    setSelected(tenants);
    runPreview.mutate(tenants);
  };

  return (
    <QueryState query={template}>
      {(data) => (
        <>
          <PageHeader
            title={data.name}
            badge={
              <Badge variant="light">
                {t('policyTemplates.version', 'Version {{version}}', { version: data.version })}
              </Badge>
            }
            description={data.description || undefined}
            actions={
              <Group gap="sm">
                <Button component={Link} to="/admin-console/templates" variant="default">
                  {t('policyTemplates.backToList', 'All templates')}
                </Button>
                {canApply ? (
                  <Button
                    variant="default"
                    loading={update.isPending}
                    onClick={() =>
                      update.mutate({
                        name: data.name,
                        description: data.description,
                        sourceTenant: data.sourceTenant,
                        policyIds: data.policies.map((p) => p.key),
                      })
                    }
                  >
                    {t('policyTemplates.update.button', 'Take policies again from {{tenant}}', {
                      tenant: data.sourceTenant,
                    })}
                  </Button>
                ) : null}
                {canApply ? (
                  <Button color="red" variant="light" onClick={() => setDeleteOpen(true)}>
                    {t('policyTemplates.delete.button', 'Delete')}
                  </Button>
                ) : null}
              </Group>
            }
          />
          <Stack gap="xl">
            <Stack gap="sm" component="section" aria-labelledby="template-policies">
              <Title order={2} size="h4" id="template-policies">
                {t('policyTemplates.policies', 'Policies')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('policyTemplates.takenFrom', 'Taken from {{tenant}}.', { tenant: data.sourceTenant })}
              </Text>
              {data.policies.map((policy) => (
                <Card key={policy.key} withBorder padding="sm">
                  <Text fw={500}>{policy.name}</Text>
                  {policy.description ? (
                    <Text size="sm" c="dimmed">
                      {policy.description}
                    </Text>
                  ) : null}
                  <List size="sm" mt="xs">
                    {policy.rules.map((rule) => (
                      <List.Item key={rule.name}>
                        {rule.name}: {rule.action} {rule.type} {rule.url.join(', ')}
                        {rule.categories.length ? ` [${rule.categories.join(', ')}]` : ''}
                        {rule.locations.length
                          ? ` ${t('policyTemplates.ruleAt', 'at {{locations}}', { locations: rule.locations.join(', ') })}`
                          : ''}
                      </List.Item>
                    ))}
                  </List>
                </Card>
              ))}
            </Stack>

            <Stack gap="sm" component="section" aria-labelledby="template-tenants">
              <Group justify="space-between">
                <Title order={2} size="h4" id="template-tenants">
                  {t('policyTemplates.tenants', 'Tenants')}
                </Title>
                {canApply ? (
                  <Button
                    disabled={selected.length === 0}
                    loading={runPreview.isPending}
                    onClick={() => previewTenants(selected)}
                  >
                    {t('policyTemplates.preview.button', 'Preview ({{count, number}})', {
                      count: selected.length,
                    })}
                  </Button>
                ) : null}
              </Group>
              <QueryState
                query={status}
                isEmpty={(rows) => rows.total === 0}
                emptyMessage={t('policyTemplates.status.empty', 'You manage no tenants yet.')}
              >
                {(rows) => (
                  <TemplateStatusTable
                    items={rows.items}
                    total={rows.total}
                    page={pageNumber(rows.total, PAGE_SIZE, page)}
                    pageSize={PAGE_SIZE}
                    onPageChange={setPage}
                    selected={selected}
                    onSelectedChange={setSelected}
                    onReapply={canApply ? (name) => previewTenants([name]) : undefined}
                  />
                )}
              </QueryState>
            </Stack>

            {preview ? (
              <Stack gap="sm" component="section" aria-labelledby="template-preview">
                <Group justify="space-between">
                  <Title order={2} size="h4" id="template-preview">
                    {t('policyTemplates.preview.title', 'Preview')}
                  </Title>
                  <Group gap="sm">
                    <Button variant="default" onClick={() => setPreview(null)}>
                      {t('common.cancel', 'Cancel')}
                    </Button>
                    <Button
                      loading={apply.isPending}
                      onClick={() => apply.mutate(preview.map((p) => p.tenant))}
                    >
                      {t('policyTemplates.apply.button', 'Apply to {{count, number}} tenants', {
                        count: preview.length,
                      })}
                    </Button>
                  </Group>
                </Group>
                <TemplatePreviewList tenants={preview} />
              </Stack>
            ) : null}

            {results ? (
              <Stack gap="sm" component="section" aria-labelledby="template-results">
                <Title order={2} size="h4" id="template-results">
                  {t('policyTemplates.result.title', 'Apply results')}
                </Title>
                <TemplateApplyResults tenants={results} />
              </Stack>
            ) : null}
          </Stack>
          <ConfirmModal
            opened={isDeleteOpen}
            title={t('policyTemplates.delete.title', 'Delete template?')}
            message={t(
              'policyTemplates.delete.message',
              "The tenants' copies of its policies stay as they are; they are no longer followed.",
            )}
            confirmLabel={t('policyTemplates.delete.button', 'Delete')}
            isDestructive
            isBusy={remove.isPending}
            onClose={() => setDeleteOpen(false)}
            onConfirm={() => remove.mutate(id)}
          />
        </>
      )}
    </QueryState>
  );
}

/** The page shown, kept within the pages there are. */
function pageNumber(total: number, size: number, page: number) {
  return Math.min(page, Math.max(1, Math.ceil(total / size)));
}
