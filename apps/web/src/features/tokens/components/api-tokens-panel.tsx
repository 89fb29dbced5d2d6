import 'mantine-datatable/styles.css';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type ApiToken, type Permission, ROLE_PERMISSIONS, type Session } from '@palisade/contracts';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { useSession } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import { useTokens } from '../api/get-tokens';
import { useRevokeToken } from '../api/revoke-token';
import { CreateTokenModal } from './create-token-modal';
import { RevokeTokenModal } from './revoke-token-modal';
import { useTokenColumns } from './token-columns';

const PAGE_SIZE = 10;

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
      showSuccess(t('tokens.revoke.done', 'Token revoked'));
      setToRevoke(null);
    },
  });
  const column = useTokenColumns<ApiToken>({ onRevoke: setToRevoke });
  const columns = [
    column.name,
    column.permissions,
    column.expires,
    column.lastUsed,
    column.status,
    column.actions,
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
          <Button onClick={() => setIsCreating(true)}>{t('tokens.create', 'Add token')}</Button>
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
