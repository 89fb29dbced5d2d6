import 'mantine-datatable/styles.css';
import { Badge, Button, Card, Code, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import {
  ACTIONS,
  type ApiToken,
  MODULES,
  type Permission,
  ROLE_PERMISSIONS,
  type Session,
} from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useSession } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';
import { CreateTokenModal } from './create-token-modal';
import { usePermissionLabels } from './permission-matrix';
import { RevokeTokenModal } from './revoke-token-modal';

const PAGE_SIZE = 10;

/** Where a token stands now. */
export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(token: ApiToken, now = Date.now()): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
  return 'active';
}

const STATUS_COLORS: Record<TokenStatus, string> = { active: 'green', expired: 'gray', revoked: 'red' };

/** "Users: view, create · Groups: view", one module per part, in catalogue order. */
function usePermissionSummary() {
  const labels = usePermissionLabels();
  return (permissions: readonly string[]) =>
    MODULES.map((module) => {
      const actions = ACTIONS.filter((action) => permissions.includes(`${module}:${action}`));
      return actions.length
        ? `${labels.module(module)}: ${actions.map((action) => labels.action(action).toLowerCase()).join(', ')}`
        : null;
    })
      .filter(Boolean)
      .join(' · ');
}

/** What the session holds (its effective permissions, or its built-in role's). */
function heldPermissions(session: Session): readonly Permission[] {
  return session.permissions ?? ROLE_PERMISSIONS[session.role] ?? [];
}

function TokensSection({ session }: { session: Session }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [isCreating, setIsCreating] = useState(false);
  const [toRevoke, setToRevoke] = useState<ApiToken | null>(null);
  const tokens = useTokens(session.tenant, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const revoke = useRevokeToken(session.tenant, {
    onSuccess: () => {
      notify(t('tokens.revoke.done', 'Token revoked'), { color: 'green' });
      setToRevoke(null);
    },
  });
  const summary = usePermissionSummary();
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const date = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
  const dateTime = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const statusLabels: Record<TokenStatus, string> = {
    active: t('tokens.status.active', 'Active'),
    expired: t('tokens.status.expired', 'Expired'),
    revoked: t('tokens.status.revoked', 'Revoked'),
  };

  const columns: DataTableColumn<ApiToken>[] = [
    {
      accessor: 'name',
      title: t('tokens.column.name', 'Name'),
      render: (token) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {token.name}
          </Text>
          <Code fz="xs">{`${token.prefix}…`}</Code>
        </Stack>
      ),
    },
    {
      accessor: 'permissions',
      title: t('tokens.column.permissions', 'Permissions'),
      render: (token) => {
        const text = summary(token.permissions);
        return (
          <Group gap={6} wrap="nowrap">
            {token.isReadOnly ? (
              <Badge variant="light" color="blue" radius="sm">
                {t('tokens.readOnly', 'Read-only')}
              </Badge>
            ) : null}
            <Tooltip label={text} multiline w={320} withinPortal>
              <Text size="sm" lineClamp={2} tabIndex={0}>
                {text}
              </Text>
            </Tooltip>
          </Group>
        );
      },
    },
    {
      accessor: 'expiresAt',
      title: t('tokens.column.expires', 'Expires'),
      render: (token) => (token.expiresAt ? date(token.expiresAt) : t('tokens.never', 'Never')),
    },
    {
      accessor: 'lastUsedAt',
      title: t('tokens.column.lastUsed', 'Last used'),
      render: (token) =>
        token.lastUsedAt ? (
          <Stack gap={0}>
            <Text size="sm">{dateTime(token.lastUsedAt)}</Text>
            {token.lastUsedIp ? (
              <Text size="xs" c="dimmed">
                {token.lastUsedIp}
              </Text>
            ) : null}
          </Stack>
        ) : (
          t('tokens.notUsed', 'Not used yet')
        ),
    },
    {
      accessor: 'status',
      title: t('tokens.column.status', 'Status'),
      render: (token) => {
        const status = tokenStatus(token);
        return (
          <Badge color={STATUS_COLORS[status]} variant="light" radius="sm">
            {statusLabels[status]}
          </Badge>
        );
      },
    },
    {
      accessor: 'actions',
      title: t('tokens.column.actions', 'Actions'),
      textAlign: 'right',
      render: (token) =>
        token.revokedAt ? null : (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => setToRevoke(token)}
            aria-label={t('tokens.revoke.label', 'Revoke {{name}}', { name: token.name })}
          >
            {t('tokens.revoke.button', 'Revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="api-tokens-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={3} id="api-tokens-title">
              {t('tokens.title', 'API tokens')}
            </Title>
            <Text size="sm" c="dimmed">
              {t(
                'tokens.description',
                'Tokens let scripts and automation call the API as you, limited to the permissions you give them.',
              )}
            </Text>
          </Stack>
          <Button onClick={() => setIsCreating(true)}>{t('tokens.create', 'Create token')}</Button>
        </Group>
        {tokens.isError && !tokens.data ? (
          <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : (
          <DataTable<ApiToken>
            withTableBorder
            borderRadius="sm"
            minHeight={tokens.data?.items.length ? undefined : 160}
            records={tokens.data?.items ?? []}
            columns={columns}
            idAccessor="id"
            fetching={tokens.isFetching}
            totalRecords={tokens.data?.total ?? 0}
            recordsPerPage={PAGE_SIZE}
            page={page}
            onPageChange={setPage}
            noRecordsText={t('tokens.empty', 'No API tokens yet.')}
            paginationText={({ from, to, totalRecords }) =>
              t('tokens.pagination', {
                from,
                to,
                total: totalRecords,
                defaultValue: '{{from}}–{{to}} of {{total}}',
              })
            }
            aria-label={t('tokens.title', 'API tokens')}
          />
        )}
      </Stack>
      <CreateTokenModal
        opened={isCreating}
        onClose={() => setIsCreating(false)}
        tenant={session.tenant}
        held={heldPermissions(session)}
      />
      <RevokeTokenModal
        token={toRevoke}
        isRevoking={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id)}
      />
    </Card>
  );
}

/** The signed-in administrator's API tokens: list, create (secret shown once), revoke. Hidden for end users. */
export function ApiTokensPanel() {
  const { session } = useSession();
  if (!session || session.usertype === 0) return null;
  return <TokensSection session={session} />;
}
