import { Badge, Button, CloseButton, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import type { App } from '@palisade/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { appCategoryName } from '../../../lib/policy-names';
import { useApps, useBlockedApps, useSetBlockedApps } from '../api/apps';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { PolicyTestFailuresAlert, useTestFailures } from '../components/policy-test-failures-alert';

/** How many matching apps the picker lists at a time. */
const PICKER_LIMIT = 100;

/**
 * `/policy/blocked-apps`: apps blocked for everyone in the tenant, whatever the policies say. Pick apps from
 * the catalog (and custom apps), review the list, and save; a save that would break a policy test is refused
 * and the broken tests are shown.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const blockedQuery = useBlockedApps(tenant);
  const appsQuery = useApps(tenant);

  const renderBody = () => {
    if (blockedQuery.isPending || appsQuery.isPending)
      return <LoadingState label={t('policyObjects.blockedApps.loading', 'Loading blocked apps…')} />;
    if (blockedQuery.isError)
      return <ErrorState error={blockedQuery.error} onRetry={() => void blockedQuery.refetch()} />;
    if (appsQuery.isError)
      return <ErrorState error={appsQuery.error} onRetry={() => void appsQuery.refetch()} />;
    return <BlockedAppsEditor blocked={blockedQuery.data} apps={appsQuery.data} />;
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.blockedApps.title', 'Blocked apps')}
        description={t(
          'policyObjects.blockedApps.description',
          'Apps blocked for everyone in this tenant, whatever the policies say: their domains and IP addresses are refused.',
        )}
      />
      {renderBody()}
    </>
  );
}

function BlockedAppsEditor({ blocked, apps }: { blocked: App[]; apps: App[] }) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canUpdate = useCan('policies:update');
  const failures = useTestFailures();

  const saved = useMemo(() => blocked.map((app) => app.appid), [blocked]);
  const byId = useMemo(() => {
    const map = new Map<string, App>();
    for (const app of [...apps, ...blocked]) map.set(app.appid, app);
    return map;
  }, [apps, blocked]);

  // The choice being edited; null until the first change, so a refetch shows the saved state.
  const [draft, setDraft] = useState<string[] | null>(null);
  const selected = draft ?? saved;
  const isDirty =
    draft !== null && (draft.length !== saved.length || draft.some((appid) => !saved.includes(appid)));

  const saveMutation = useSetBlockedApps(tenant, {
    onSuccess: () => {
      setDraft(null);
      showSuccess(t('policyObjects.blockedApps.saved', 'Blocked apps saved.'));
    },
    onError: (error) => {
      if (!failures.capture(error)) showMutationError(t, error);
    },
  });

  const change = (next: string[]) => {
    failures.clear();
    setDraft(next);
  };

  const options = useMemo(
    () =>
      [...byId.values()]
        .sort((a, b) => a.appname.localeCompare(b.appname))
        .map((app) => ({ value: app.appid, label: app.appname })),
    [byId],
  );
  const selectedApps = selected
    .map((appid) => byId.get(appid))
    .filter((app): app is App => app !== undefined)
    .sort((a, b) => a.appname.localeCompare(b.appname));

  return (
    <Stack gap="md">
      <PolicyTestFailuresAlert failures={failures.failures} onClose={failures.clear} />
      {canUpdate ? (
        <MultiSelect
          label={t('policyObjects.blockedApps.pick', 'Apps to block')}
          description={t(
            'policyObjects.blockedApps.pickHint',
            'Type to search the catalog and your custom apps; pick as many as needed.',
          )}
          placeholder={t('policyObjects.blockedApps.pickPlaceholder', 'Search apps')}
          data={options}
          value={selected}
          onChange={change}
          searchable
          clearable
          hidePickedOptions
          limit={PICKER_LIMIT}
          nothingFoundMessage={t('policyObjects.blockedApps.nothingFound', 'No app matches.')}
          maxDropdownHeight={280}
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      <Group justify="space-between" align="center">
        <Text fw={500} aria-live="polite">
          {t('policyObjects.blockedApps.count', {
            count: selected.length,
            defaultValue_one: '{{count}} app blocked',
            defaultValue_other: '{{count}} apps blocked',
          })}
          {isDirty ? (
            <Text span c="orange" size="sm" ml="xs">
              {t('policyObjects.blockedApps.unsaved', '(not saved yet)')}
            </Text>
          ) : null}
        </Text>
        {canUpdate ? (
          <Group gap="sm">
            <Button
              variant="default"
              disabled={!isDirty || saveMutation.isPending}
              onClick={() => setDraft(null)}
            >
              {t('policyObjects.blockedApps.reset', 'Undo changes')}
            </Button>
            <Button
              disabled={!isDirty}
              loading={saveMutation.isPending}
              onClick={() => saveMutation.mutate(selected)}
            >
              {t('policyObjects.blockedApps.save', 'Save')}
            </Button>
          </Group>
        ) : null}
      </Group>
      {selectedApps.length === 0 ? (
        <EmptyState
          message={t('policyObjects.blockedApps.empty', 'No app is blocked for the whole tenant.')}
        />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table withTableBorder verticalSpacing="xs">
            <Table.Caption>
              {t('policyObjects.blockedApps.caption', 'Apps blocked for the whole tenant')}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('policyObjects.columns.name', 'Name')}</Table.Th>
                <Table.Th scope="col">{t('policyObjects.apps.category', 'Category')}</Table.Th>
                <Table.Th scope="col">{t('policyObjects.apps.domains', 'Domains')}</Table.Th>
                {canUpdate ? (
                  <Table.Th scope="col" ta="right">
                    {t('policyObjects.columns.actions', 'Actions')}
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {selectedApps.map((app) => (
                <Table.Tr key={app.appid}>
                  <Table.Th scope="row" fw={500}>
                    <Group gap={6}>
                      {app.appname}
                      {app.custom ? (
                        <Badge size="xs" variant="light" color="grape">
                          {t('policyObjects.apps.custom', 'Custom')}
                        </Badge>
                      ) : null}
                      {!saved.includes(app.appid) ? (
                        <Badge size="xs" variant="light" color="orange">
                          {t('policyObjects.blockedApps.new', 'New')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Th>
                  <Table.Td>{appCategoryName(t, app.category)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {t('policyObjects.blockedApps.domainCount', {
                        count: app.domains.length,
                        defaultValue_one: '{{count}} domain',
                        defaultValue_other: '{{count}} domains',
                      })}
                    </Text>
                  </Table.Td>
                  {canUpdate ? (
                    <Table.Td>
                      <Group justify="flex-end">
                        <CloseButton
                          aria-label={t('policyObjects.blockedApps.remove', 'Stop blocking {{name}}', {
                            name: app.appname,
                          })}
                          onClick={() => change(selected.filter((appid) => appid !== app.appid))}
                        />
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
