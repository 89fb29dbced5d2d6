import 'mantine-datatable/styles.css';
import { Badge, Button, Card, Code, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import type { CreatedEmbedLink, EmbedLink } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { CreatedEmbedLinks, EmbedLinkForm } from '../../../components/embed/embed-link-form';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { ErrorState } from '../../../components/ui/query-state';
import { useEmbedLinks, useRevokeEmbedLink } from '../../../data/embed-links/embed-links';
import { useCan, useSession, useWorkingTenant } from '../../../lib/auth';
import { embedTargetsFor, workingTenantKind } from '../../../lib/embed-links';
import { formatDateTime } from '../../../lib/format-time';
import { showSuccess } from '../../../lib/mutation-toast';

/** Links per page. */
const PAGE_SIZE = 10;

type LinkStatus = 'active' | 'expired' | 'revoked';

function linkStatus(link: EmbedLink, now = Date.now()): LinkStatus {
  if (link.revokedAt) return 'revoked';
  if (Date.parse(link.expiresAt) <= now) return 'expired';
  return 'active';
}

const STATUS_COLORS: Record<LinkStatus, string> = { active: 'green', expired: 'gray', revoked: 'red' };

/**
 * Settings → Embedded dashboards: the working tenant's embed links — the credentials of embedded dashboards'
 * links (spec §2) — server-paged, newest first, with who made each, when it ends and when it was last used; make
 * one (its addresses shown once) or revoke one (its screens stop at once). Its creator revokes a link, and so
 * does whoever manages administrators.
 */
export function EmbedLinksCard() {
  const { t } = useTranslation();
  const titleId = useId();
  const labels = useEmbedKindLabels();
  const { session } = useSession();
  const tenant = useWorkingTenant();
  const canManageAll = useCan('roles:update');
  const [page, setPage] = useState(1);
  const [isActiveOnly, setIsActiveOnly] = useState(true);
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<CreatedEmbedLink | null>(null);
  const [toRevoke, setToRevoke] = useState<EmbedLink | null>(null);
  const links = useEmbedLinks(tenant, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...(isActiveOnly ? { active: 'true' as const } : {}),
  });
  const revoke = useRevokeEmbedLink(tenant, {
    onSuccess: () => {
      showSuccess(t('embed.links.revoked', 'Link revoked: its screens stop at once'));
      setToRevoke(null);
    },
  });
  const statusLabels: Record<LinkStatus, string> = {
    active: t('embed.links.status.active', 'Active'),
    expired: t('embed.links.status.expired', 'Expired'),
    revoked: t('embed.links.status.revoked', 'Revoked'),
  };
  const closeCreate = () => {
    setIsCreating(false);
    setCreated(null);
  };

  const columns: DataTableColumn<EmbedLink>[] = [
    {
      accessor: 'name',
      title: t('embed.links.column.name', 'Name'),
      render: (link) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {link.name}
          </Text>
          <Code fz="xs">{`${link.prefix}…`}</Code>
        </Stack>
      ),
    },
    {
      accessor: 'kinds',
      title: t('embed.links.column.kinds', 'Dashboards'),
      render: (link) => <Text size="sm">{link.kinds.map((kind) => labels[kind]).join(', ')}</Text>,
    },
    {
      accessor: 'createdBy.username',
      title: t('embed.links.column.createdBy', 'Made by'),
      render: (link) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {link.createdBy.username}
        </Text>
      ),
    },
    {
      accessor: 'expiresAt',
      title: t('embed.links.column.expires', 'Expires'),
      render: (link) => formatDateTime(link.expiresAt),
    },
    {
      accessor: 'lastUsedAt',
      title: t('embed.links.column.lastUsed', 'Last used'),
      render: (link) =>
        link.lastUsedAt ? formatDateTime(link.lastUsedAt) : t('embed.links.notUsed', 'Not used yet'),
    },
    {
      accessor: 'status',
      title: t('embed.links.column.status', 'Status'),
      noWrap: true,
      render: (link) => {
        const status = linkStatus(link);
        return (
          <Badge color={STATUS_COLORS[status]} variant="light" radius="sm">
            {statusLabels[status]}
          </Badge>
        );
      },
    },
    {
      accessor: 'actions',
      title: t('embed.links.column.actions', 'Actions'),
      textAlign: 'right',
      render: (link) =>
        link.revokedAt || !(canManageAll || link.createdBy.id === session?.userid) ? null : (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => setToRevoke(link)}
            aria-label={t('embed.links.revokeLabel', 'Revoke {{name}}', { name: link.name })}
          >
            {t('embed.links.revoke', 'Revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} maw={720}>
            <Title order={2} size="h4" id={titleId}>
              {t('embed.settings.title', 'Embedded dashboards')}
            </Title>
            <Text size="sm">
              {t(
                'embed.settings.text',
                'Links that open dashboards of this tenant on their own, without the console around them, for another page or a wall screen. Each link is its own read-only key: it opens only the dashboards it names, never signs anybody in, and ends when it expires or is revoked here. The per-user dashboard’s link is made on each user’s page.',
              )}
            </Text>
          </Stack>
          <Button onClick={() => setIsCreating(true)}>{t('embed.links.create', 'Create link')}</Button>
        </Group>
        <Switch
          label={t('embed.links.activeOnly', 'Active links only')}
          checked={isActiveOnly}
          onChange={(event) => {
            setIsActiveOnly(event.currentTarget.checked);
            setPage(1);
          }}
        />
        {links.isError && !links.data ? (
          <ErrorState error={links.error} onRetry={() => void links.refetch()} />
        ) : (
          <DataTable<EmbedLink>
            withTableBorder
            borderRadius="sm"
            minHeight={links.data?.items.length ? undefined : 160}
            records={links.data?.items ?? []}
            columns={columns}
            idAccessor="id"
            fetching={links.isFetching}
            totalRecords={links.data?.total ?? 0}
            recordsPerPage={PAGE_SIZE}
            page={page}
            onPageChange={setPage}
            noRecordsText={
              isActiveOnly
                ? t('embed.links.emptyActive', 'No active link.')
                : t('embed.links.empty', 'No link has been made.')
            }
            paginationText={({ from, to, totalRecords }) =>
              t('embed.links.pagination', {
                from,
                to,
                total: totalRecords,
                defaultValue: '{{from}}–{{to}} of {{total}}',
              })
            }
            aria-label={t('embed.settings.title', 'Embedded dashboards')}
          />
        )}
      </Stack>
      <Modal
        opened={isCreating}
        onClose={closeCreate}
        title={
          created
            ? t('embed.created.heading', 'Link created')
            : t('embed.links.createTitle', 'Create an embed link')
        }
        size="lg"
      >
        {created ? (
          <CreatedEmbedLinks
            link={created}
            targets={embedTargetsFor(created.kinds, tenant, workingTenantKind(session, tenant))}
            onDone={closeCreate}
          />
        ) : isCreating ? (
          <EmbedLinkForm tenant={tenant} defaultName="" onCreated={setCreated} onCancel={closeCreate} />
        ) : null}
      </Modal>
      <ConfirmModal
        opened={toRevoke !== null}
        title={t('embed.links.revokeTitle', 'Revoke the link?')}
        message={t(
          'embed.links.revokeText',
          'Every screen showing “{{name}}” stops at once, and the link never opens again.',
          { name: toRevoke?.name ?? '' },
        )}
        confirmLabel={t('embed.links.revoke', 'Revoke')}
        isDestructive
        isBusy={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id)}
      />
    </Card>
  );
}
