import 'mantine-datatable/styles.css';
import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { TenantApiToken } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useTenantTokens } from '../api/get-tenant-tokens';
import { useRevokeTenantToken } from '../api/revoke-tenant-token';
import { RevokeTokenModal } from './revoke-token-modal';
import { useTokenColumns } from './token-columns';

/** Tokens per page. */
export const TENANT_TOKENS_PAGE_SIZE = 10;

function TenantTokensSection({ tenant }: { tenant: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [isActiveOnly, setIsActiveOnly] = useState(true);
  const [toRevoke, setToRevoke] = useState<TenantApiToken | null>(null);
  const tokens = useTenantTokens(tenant, {
    limit: TENANT_TOKENS_PAGE_SIZE,
    offset: (page - 1) * TENANT_TOKENS_PAGE_SIZE,
    ...(isActiveOnly ? { active: 'true' as const } : {}),
  });
  const revoke = useRevokeTenantToken(tenant, {
    onSuccess: () => {
      showSuccess(t('tokens.revoke.done', 'Token revoked'));
      setToRevoke(null);
    },
  });
  const column = useTokenColumns<TenantApiToken>({
    onRevoke: setToRevoke,
    // Two administrators may name their tokens alike: the button says whose it is.
    revokeLabel: (token) =>
      t('tokens.tenant.revokeLabel', 'Revoke {{name}} of {{owner}}', {
        name: token.name,
        owner: token.owner.username,
      }),
  });
  const owner: DataTableColumn<TenantApiToken> = {
    accessor: 'owner.username',
    title: t('tokens.column.owner', 'Administrator'),
    render: (token) => (
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {token.owner.username}
      </Text>
    ),
  };
  const columns = [
    column.name,
    owner,
    column.permissions,
    column.expires,
    column.lastUsed,
    column.status,
    column.actions,
  ];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="tenant-tokens-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h3" id="tenant-tokens-title">
              {t('tokens.tenant.title', "Administrators' API tokens")}
            </Title>
            <Text size="sm" c="dimmed">
              {t(
                'tokens.tenant.description',
                'Every API token of this tenant’s administrators. A token acts with its administrator’s current rights; revoke one that should stop working.',
              )}
            </Text>
          </Stack>
        </Group>
        <Switch
          label={t('tokens.tenant.activeOnly', 'Active tokens only')}
          checked={isActiveOnly}
          onChange={(event) => {
            setIsActiveOnly(event.currentTarget.checked);
            setPage(1);
          }}
        />
        {tokens.isError && !tokens.data ? (
          <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : (
          <DataTable<TenantApiToken>
            withTableBorder
            borderRadius="sm"
            minHeight={tokens.data?.items.length ? undefined : 160}
            records={tokens.data?.items ?? []}
            columns={columns}
            idAccessor="id"
            fetching={tokens.isFetching}
            totalRecords={tokens.data?.total ?? 0}
            recordsPerPage={TENANT_TOKENS_PAGE_SIZE}
            page={page}
            onPageChange={setPage}
            noRecordsText={
              isActiveOnly
                ? t('tokens.tenant.emptyActive', 'No administrator has an active API token.')
                : t('tokens.tenant.empty', 'No administrator has created an API token.')
            }
            paginationText={({ from, to, totalRecords }) =>
              t('tokens.pagination', {
                from,
                to,
                total: totalRecords,
                defaultValue: '{{from}}–{{to}} of {{total}}',
              })
            }
            aria-label={t('tokens.tenant.title', "Administrators' API tokens")}
          />
        )}
      </Stack>
      <RevokeTokenModal
        token={toRevoke}
        owner={toRevoke?.owner.username}
        isRevoking={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id)}
      />
    </Card>
  );
}

/**
 * Every administrator's API tokens of the working tenant, server-paged, newest first, active ones by default;
 * any of them can be revoked. Only for whoever may manage the administrators (`roles:update`; the server checks
 * again).
 */
export function TenantTokensPanel() {
  const tenant = useWorkingTenant();
  const canUpdate = useCan('roles:update');
  if (!canUpdate || !tenant) return null;
  return <TenantTokensSection tenant={tenant} />;
}
