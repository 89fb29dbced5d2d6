import { Alert, Badge, Button, Group, Stack, Switch, Table, Text } from '@mantine/core';
import type { Feed, FeedKind, UploadFeedInput, UrlFeedInput } from '@palisade/contracts';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { RelativeTime } from '../../../components/ui/relative-time';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { catalogName } from '../../../lib/policy-names';
import {
  useCreateUrlFeed,
  useDeleteFeeds,
  useFeeds,
  useRefreshFeed,
  useUpdateFeed,
  useUploadFeed,
} from '../api/feeds';
import { useSafeDelete } from '../components/object-crud';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { PolicyTestFailuresAlert, useTestFailures } from '../components/policy-test-failures-alert';
import { UploadFeedFormModal } from '../components/upload-feed-form';
import { UrlFeedFormModal } from '../components/url-feed-form';
import { UsedByButton } from '../components/where-used-dialog';
import { useRefreshLabels } from '../utils/refresh-labels';

type OpenModal = null | { kind: 'url' | 'upload'; key: number };

const KIND_COLORS: Record<FeedKind, string> = { builtin: 'gray', upload: 'blue', url: 'teal' };

/**
 * `/policy/threat-intel`: the feeds of malicious IPs, CIDR blocks and domains. Enabled feeds are blocked
 * before every other rule; built-in feeds ship with the product, others are uploaded `.txt` files or URLs
 * fetched on a schedule.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const refreshLabels = useRefreshLabels();
  const feedsQuery = useFeeds(tenant);

  const [modal, setModal] = useState<OpenModal>(null);
  const updateFailures = useTestFailures();
  const closeModal = () => setModal(null);

  const createUrlMutation = useCreateUrlFeed(tenant, { onError: () => {} });
  const uploadMutation = useUploadFeed(tenant, { onError: () => {} });
  const updateMutation = useUpdateFeed(tenant, {
    onSuccess: () => updateFailures.clear(),
    onError: (error, { id }) => {
      if (!updateFailures.capture(error, id)) showMutationError(t, error);
    },
  });
  const refreshMutation = useRefreshFeed(tenant, {
    onSuccess: (_feed, id) => {
      const name = feedsQuery.data?.find((feed) => feed.id === id)?.name ?? '';
      showSuccess(t('policyObjects.feeds.refreshed', 'Feed {{name}} fetched.', { name }));
    },
  });
  const deletion = useSafeDelete({
    kind: 'feed',
    idOf: (feed: Feed) => feed.id,
    nameOf: (feed) => feed.name,
    useDelete: useDeleteFeeds,
    deletedMessage: (name) => t('policyObjects.feeds.deleted', 'Feed {{name}} deleted.', { name }),
  });

  const handleAddUrl = async (input: UrlFeedInput) => {
    await createUrlMutation.mutateAsync(input);
    showSuccess(t('policyObjects.feeds.created', 'Feed {{name}} added.', { name: input.name }));
    closeModal();
  };
  const handleUpload = async (input: UploadFeedInput) => {
    await uploadMutation.mutateAsync(input);
    showSuccess(t('policyObjects.feeds.created', 'Feed {{name}} added.', { name: input.name }));
    closeModal();
  };

  const kindLabels: Record<FeedKind, string> = {
    builtin: t('policyObjects.feeds.kind.builtin', 'Built-in'),
    upload: t('policyObjects.feeds.kind.upload', 'Uploaded'),
    url: t('policyObjects.feeds.kind.url', 'URL'),
  };

  const renderRefreshed = (feed: Feed) => (
    <RelativeTime value={feed.lastRefreshedAt} size="sm" empty={t('policyObjects.feeds.never', 'Never')} />
  );

  const renderRow = (feed: Feed) => {
    const isUpdating = updateMutation.isPending && updateMutation.variables?.id === feed.id;
    const isRefreshing = refreshMutation.isPending && refreshMutation.variables === feed.id;
    const name = catalogName(t, 'feed', feed.id, feed.name);
    return (
      <Fragment key={feed.id}>
        <Table.Tr>
          <Table.Th scope="row" fw={400} maw={280}>
            <Text size="sm" fw={500}>
              {name}
            </Text>
            {feed.url ? (
              <Text size="xs" c="dimmed" truncate="end" title={feed.url}>
                {feed.url}
              </Text>
            ) : null}
            {feed.fileName ? (
              <Text size="xs" c="dimmed">
                {feed.fileName}
              </Text>
            ) : null}
            {feed.kind === 'url' && feed.refreshMinutes ? (
              <Text size="xs" c="dimmed">
                {refreshLabels(feed.refreshMinutes)}
              </Text>
            ) : null}
          </Table.Th>
          <Table.Td>
            <Badge variant="light" color={KIND_COLORS[feed.kind]} style={{ minWidth: 'max-content' }}>
              {kindLabels[feed.kind]}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              {t('policyObjects.feeds.ipCount', {
                count: feed.ipCount,
                formatted: formatNumber(feed.ipCount),
                defaultValue_one: '{{formatted}} IP or CIDR block',
                defaultValue_other: '{{formatted}} IPs or CIDR blocks',
              })}
            </Text>
            <Text size="sm">
              {t('policyObjects.feeds.domainCount', {
                count: feed.domainCount,
                formatted: formatNumber(feed.domainCount),
                defaultValue_one: '{{formatted}} domain',
                defaultValue_other: '{{formatted}} domains',
              })}
            </Text>
          </Table.Td>
          <Table.Td>
            {renderRefreshed(feed)}
            {feed.lastError ? (
              <Alert
                color="red"
                variant="light"
                p={6}
                mt={4}
                maw={260}
                title={t('policyObjects.feeds.lastError', 'Last fetch failed')}
                styles={{ title: { fontSize: 'var(--mantine-font-size-xs)', marginBottom: 2 } }}
              >
                <Text size="xs">{feed.lastError}</Text>
              </Alert>
            ) : null}
          </Table.Td>
          <Table.Td>
            <Switch
              aria-label={t('policyObjects.feeds.enabledOf', 'Block the entries of {{name}}', {
                name,
              })}
              checked={feed.enabled}
              disabled={!canUpdate || isUpdating}
              onChange={(event) => {
                updateFailures.clear();
                updateMutation.mutate({ id: feed.id, body: { enabled: event.currentTarget.checked } });
              }}
            />
          </Table.Td>
          <Table.Td>
            <UsedByButton kind="feed" id={feed.id} name={name} count={feed.usedBy} />
          </Table.Td>
          <Table.Td>
            <Group gap={4} justify="flex-end" wrap="nowrap">
              {feed.kind === 'url' && canUpdate ? (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  loading={isRefreshing}
                  aria-label={t('policyObjects.feeds.refreshNamed', 'Fetch {{name}} now', {
                    name,
                  })}
                  onClick={() => refreshMutation.mutate(feed.id)}
                >
                  {t('policyObjects.feeds.refresh', 'Fetch now')}
                </Button>
              ) : null}
              {feed.kind !== 'builtin' && canDelete ? (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  aria-label={t('policyObjects.actions.deleteNamed', 'Delete {{name}}', { name })}
                  onClick={() => deletion.ask(feed)}
                >
                  {t('policyObjects.actions.delete', 'Delete')}
                </Button>
              ) : null}
            </Group>
          </Table.Td>
        </Table.Tr>
        {updateFailures.subject === feed.id && updateFailures.failures ? (
          <Table.Tr>
            <Table.Td colSpan={7}>
              <PolicyTestFailuresAlert failures={updateFailures.failures} onClose={updateFailures.clear} />
            </Table.Td>
          </Table.Tr>
        ) : null}
      </Fragment>
    );
  };

  const renderBody = () => {
    if (feedsQuery.isPending)
      return <LoadingState label={t('policyObjects.feeds.loading', 'Loading feeds…')} />;
    if (feedsQuery.isError)
      return <ErrorState error={feedsQuery.error} onRetry={() => void feedsQuery.refetch()} />;
    const feeds = feedsQuery.data;
    if (feeds.length === 0) return <EmptyState message={t('policyObjects.feeds.empty', 'No feeds yet.')} />;
    return (
      <Table.ScrollContainer minWidth={960}>
        <Table withTableBorder verticalSpacing="sm">
          <Table.Caption>
            {t('policyObjects.feeds.caption', {
              count: feeds.length,
              defaultValue_one: '{{count}} feed',
              defaultValue_other: '{{count}} feeds',
            })}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('policyObjects.columns.name', 'Name')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.feeds.kindColumn', 'Kind')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.feeds.entries', 'Entries')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.feeds.lastRefreshed', 'Last fetched')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.feeds.enabled', 'Enabled')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.columns.usedBy', 'Used by')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {t('policyObjects.columns.actions', 'Actions')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{feeds.map(renderRow)}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.feeds.title', 'Threat intelligence')}
        description={t(
          'policyObjects.feeds.description',
          'Feeds of malicious IPs, CIDR blocks and domains. Entries of enabled feeds are blocked before any other rule.',
        )}
        actions={
          canCreate ? (
            <>
              <Button variant="default" onClick={() => setModal({ kind: 'upload', key: Date.now() })}>
                {t('policyObjects.feeds.upload.open', 'Upload .txt')}
              </Button>
              <Button onClick={() => setModal({ kind: 'url', key: Date.now() })}>
                {t('policyObjects.feeds.url.open', 'Add URL feed')}
              </Button>
            </>
          ) : null
        }
      />
      <Stack gap="md">{renderBody()}</Stack>
      {modal?.kind === 'url' ? (
        <UrlFeedFormModal key={modal.key} opened onSubmit={handleAddUrl} onCancel={closeModal} />
      ) : null}
      {modal?.kind === 'upload' ? (
        <UploadFeedFormModal key={modal.key} opened onSubmit={handleUpload} onCancel={closeModal} />
      ) : null}
      {deletion.dialog}
    </>
  );
}
