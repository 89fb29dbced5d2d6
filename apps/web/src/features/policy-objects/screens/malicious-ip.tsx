import 'mantine-datatable/styles.css';
import { Badge, Code, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { MaliciousIp } from '@palisade/contracts';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDataTablePagination } from '../../../components/ui/data-table-pagination';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useWorkingTenant } from '../../../lib/auth';
import { formatNumber } from '../../../lib/i18n';
import { PAGE_SIZES, type PageSize } from '../../../lib/list-state';
import { catalogName } from '../../../lib/policy-names';
import { useMaliciousIps } from '../api/feeds';
import { ObjectsPageHeader } from '../components/objects-page-header';

/** How long the filter waits after the last keystroke before it asks the server. */
const FILTER_DEBOUNCE_MS = 300;

interface ListState {
  q: string;
  isDuplicatesOnly: boolean;
  page: number;
  pageSize: PageSize;
}

function parseState(params: URLSearchParams): ListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('pageSize'));
  return {
    q: params.get('q') ?? '',
    isDuplicatesOnly: params.get('duplicates') === 'true',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : PAGE_SIZES[0],
  };
}

function toParams(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q.trim());
  if (state.isDuplicatesOnly) params.set('duplicates', 'true');
  if (state.page > 1) params.set('page', String(state.page));
  if (state.pageSize !== PAGE_SIZES[0]) params.set('pageSize', String(state.pageSize));
  return params;
}

/**
 * `/policy/maliciousip`: every malicious IP and CIDR block of the enabled feeds, with the feeds that list it,
 * paged on the server. An entry listed by more than one feed is a duplicate and says which feeds list it
 * (spec §5: the ip and both sources).
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const pagination = useDataTablePagination();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = parseState(searchParams);
  const setState = (patch: Partial<ListState>, replace = false) =>
    setSearchParams((current) => toParams({ ...parseState(current), ...patch }), { replace });

  const [filterText, setFilterText] = useState(state.q);
  const applyFilter = useDebouncedCallback((q: string) => setState({ q, page: 1 }, true), FILTER_DEBOUNCE_MS);
  useEffect(() => {
    setFilterText((text) => (text.trim() === state.q.trim() ? text : state.q));
  }, [state.q]);

  const listQuery = useMaliciousIps(tenant, {
    ...(state.q.trim() ? { q: state.q.trim() } : {}),
    ...(state.isDuplicatesOnly ? { duplicatesOnly: 'true' as const } : {}),
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
  });

  const sourceNames = (entry: MaliciousIp) => {
    const names = entry.sources.map((source) => catalogName(t, 'feed', source.id, source.name));
    return names.length > 1
      ? t('policyObjects.maliciousIps.sourceList', '{{first}} and {{last}}', {
          first: names.slice(0, -1).join(', '),
          last: names[names.length - 1],
        })
      : (names[0] ?? '');
  };

  const columns: DataTableColumn<MaliciousIp>[] = [
    {
      accessor: 'ip',
      title: t('policyObjects.maliciousIps.ip', 'IP or CIDR block'),
      noWrap: true,
      render: (entry) => <Code>{entry.ip}</Code>,
    },
    {
      accessor: 'sources',
      title: t('policyObjects.maliciousIps.sources', 'Listed by'),
      render: (entry) => (
        <Group gap={4} wrap="wrap">
          {entry.sources.map((source) => (
            <Badge key={source.id} variant="light" color="gray" tt="none">
              {catalogName(t, 'feed', source.id, source.name)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      accessor: 'duplicate',
      title: t('policyObjects.maliciousIps.duplicate', 'Duplicate'),
      render: (entry) =>
        entry.sources.length > 1 ? (
          <Group gap={6} wrap="nowrap">
            <Badge color="orange" variant="light">
              {t('policyObjects.maliciousIps.duplicateBadge', 'Duplicate')}
            </Badge>
            <Text size="sm">
              {t('policyObjects.maliciousIps.duplicateText', '{{ip}} is listed by {{sources}}', {
                ip: entry.ip,
                sources: sourceNames(entry),
              })}
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
  ];

  const renderBody = () => {
    if (listQuery.isPending)
      return <LoadingState label={t('policyObjects.maliciousIps.loading', 'Loading malicious IPs…')} />;
    if (listQuery.isError && !listQuery.data)
      return <ErrorState error={listQuery.error} onRetry={() => void listQuery.refetch()} />;
    const { items, total, duplicates } = listQuery.data;
    return (
      <>
        <Text size="sm" role="status">
          {t('policyObjects.maliciousIps.summary', '{{entries}}; {{duplicates}}.', {
            entries: t('policyObjects.maliciousIps.entries', {
              count: total,
              formatted: formatNumber(total),
              defaultValue_one: '{{formatted}} entry',
              defaultValue_other: '{{formatted}} entries',
            }),
            duplicates: t('policyObjects.maliciousIps.duplicates', {
              count: duplicates,
              formatted: formatNumber(duplicates),
              defaultValue_one: '{{formatted}} listed by more than one feed',
              defaultValue_other: '{{formatted}} listed by more than one feed',
            }),
          })}
        </Text>
        {listQuery.isError ? (
          <ErrorState error={listQuery.error} onRetry={() => void listQuery.refetch()} />
        ) : null}
        <DataTable<MaliciousIp>
          withTableBorder
          borderRadius="sm"
          minHeight={160}
          records={items}
          columns={columns}
          idAccessor="ip"
          fetching={listQuery.isFetching}
          loadingText={t('policyObjects.maliciousIps.loading', 'Loading malicious IPs…')}
          noRecordsText={
            state.q || state.isDuplicatesOnly
              ? t('policyObjects.maliciousIps.noMatch', 'No entries match.')
              : t('policyObjects.maliciousIps.empty', 'No malicious IPs: no enabled feed lists any.')
          }
          page={state.page}
          onPageChange={(page) => setState({ page })}
          totalRecords={total}
          recordsPerPage={state.pageSize}
          onRecordsPerPageChange={(size: number) => setState({ pageSize: size as PageSize, page: 1 })}
          recordsPerPageLabel={t('policyObjects.maliciousIps.pageSize', 'Entries per page')}
          {...pagination}
        />
      </>
    );
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.maliciousIps.title', 'Malicious IPs')}
        description={t(
          'policyObjects.maliciousIps.description',
          'Every IP address and CIDR block of the enabled threat-intelligence feeds, with the feeds that list it.',
        )}
      />
      <Stack gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput
            type="search"
            label={t('policyObjects.maliciousIps.filter', 'Filter')}
            placeholder={t('policyObjects.maliciousIps.filterPlaceholder', 'IP, CIDR block or feed')}
            value={filterText}
            onChange={(event) => {
              setFilterText(event.currentTarget.value);
              applyFilter(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          <Switch
            label={t('policyObjects.maliciousIps.duplicatesOnly', 'Duplicates only')}
            checked={state.isDuplicatesOnly}
            onChange={(event) => setState({ isDuplicatesOnly: event.currentTarget.checked, page: 1 })}
            mb={8}
          />
        </Group>
        {renderBody()}
      </Stack>
    </>
  );
}
