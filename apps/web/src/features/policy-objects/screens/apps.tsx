import { Badge, Button, Group, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import type { App, AppInput } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { appCategoryName } from '../../../lib/policy-names';
import { useApps, useDeleteApps, useSaveApp } from '../api/apps';
import type { AppListParams } from '../api/policy-objects-keys';
import { AppFormModal } from '../components/app-form';
import { CollapsibleList } from '../components/collapsible-list';
import { useObjectEditor, useSafeDelete } from '../components/object-crud';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { RowActions } from '../components/row-actions';
import { UsedByButton } from '../components/where-used-dialog';
import { groupByLetter, LETTERS, type Letter, parseLetter } from '../utils/letters';

/** How long the search waits after the last keystroke before it asks the server. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/policy/apps`: the application catalog as an alphabetical look-up (letter bar, search, apps under letter
 * headings), with the tenant's custom apps next to the shipped ones. Letter, search and "custom only" are in
 * the address, so links and Back restore them.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');

  const [searchParams, setSearchParams] = useSearchParams();
  const letter = parseLetter(searchParams.get('letter'));
  const q = searchParams.get('q') ?? '';
  const isCustomOnly = searchParams.get('custom') === 'true';
  const setParam = (name: string, value: string | null) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: name === 'q' },
    );

  const [searchText, setSearchText] = useState(q);
  const applySearch = useDebouncedCallback(
    (text: string) => setParam('q', text.trim() || null),
    SEARCH_DEBOUNCE_MS,
  );
  useEffect(() => {
    setSearchText((text) => (text.trim() === q ? text : q));
  }, [q]);

  const query: AppListParams = {
    ...(q ? { q } : {}),
    ...(letter ? { letter } : {}),
    ...(isCustomOnly ? { custom: 'true' as const } : {}),
  };
  const appsQuery = useApps(tenant, query);

  const editor = useObjectEditor({
    useSave: useSaveApp,
    toVars: (app: App | undefined, body: AppInput) => ({ appid: app?.appid, body }),
    nameOfInput: (input) => input.appname,
    createdMessage: (name) => t('policyObjects.apps.created', 'App {{name}} added.', { name }),
  });
  const deletion = useSafeDelete({
    kind: 'app',
    idOf: (app: App) => app.appid,
    nameOf: (app) => app.appname,
    useDelete: useDeleteApps,
    deletedMessage: (name) => t('policyObjects.apps.deleted', 'App {{name}} deleted.', { name }),
  });

  const addButton = canCreate ? (
    <Button onClick={() => editor.open()}>{t('policyObjects.apps.add', 'Add custom app')}</Button>
  ) : null;

  const renderApp = (app: App) => (
    <Table.Tr key={app.appid}>
      <Table.Th scope="row" fw={500}>
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={500} span>
            {app.appname}
          </Text>
          {app.custom ? (
            <Badge size="xs" variant="light" color="grape">
              {t('policyObjects.apps.custom', 'Custom')}
            </Badge>
          ) : null}
          {app.blocked ? (
            <Badge size="xs" variant="filled" color="red">
              {t('policyObjects.apps.blocked', 'Blocked')}
            </Badge>
          ) : null}
        </Group>
      </Table.Th>
      <Table.Td>
        <Text size="sm">{appCategoryName(t, app.category)}</Text>
      </Table.Td>
      <Table.Td>
        {app.domains.length > 0 ? (
          <CollapsibleList
            items={app.domains}
            label={t('policyObjects.apps.domainsOf', 'domains of {{name}}', { name: app.appname })}
          />
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
        {app.ips.length > 0 ? (
          <Text size="xs" c="dimmed" mt={4}>
            {t('policyObjects.apps.ipCount', {
              count: app.ips.length,
              defaultValue_one: '{{count}} IP address',
              defaultValue_other: '{{count}} IP addresses',
            })}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <UsedByButton kind="app" id={app.appid} name={app.appname} count={app.usedBy} />
      </Table.Td>
      <Table.Td>
        {app.custom ? (
          <RowActions
            name={app.appname}
            onEdit={canUpdate ? () => editor.open(app) : undefined}
            onDelete={canDelete ? () => deletion.ask(app) : undefined}
          />
        ) : null}
      </Table.Td>
    </Table.Tr>
  );

  const renderBody = () => {
    if (appsQuery.isPending) return <LoadingState label={t('policyObjects.apps.loading', 'Loading apps…')} />;
    if (appsQuery.isError && !appsQuery.data)
      return <ErrorState error={appsQuery.error} onRetry={() => void appsQuery.refetch()} />;
    const apps = appsQuery.data;
    if (apps.length === 0) {
      return (
        <EmptyState
          message={
            q || letter || isCustomOnly
              ? t('policyObjects.apps.noMatch', 'No apps match.')
              : t('policyObjects.apps.empty', 'No apps yet.')
          }
          action={isCustomOnly && !q && !letter ? addButton : null}
        />
      );
    }
    return (
      <Stack gap="lg" aria-busy={appsQuery.isFetching}>
        {groupByLetter(apps, (app) => app.appname).map(([groupLetter, group]) => {
          const headingId = `apps-letter-${groupLetter === '#' ? 'other' : groupLetter}`;
          return (
            <section key={groupLetter} aria-labelledby={headingId}>
              <Title order={2} size="h4" id={headingId} mb="xs">
                {groupLetter}
              </Title>
              <Table.ScrollContainer minWidth={720}>
                <Table withTableBorder verticalSpacing="xs" aria-labelledby={headingId}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col" w="28%">
                        {t('policyObjects.columns.name', 'Name')}
                      </Table.Th>
                      <Table.Th scope="col" w="16%">
                        {t('policyObjects.apps.category', 'Category')}
                      </Table.Th>
                      <Table.Th scope="col">{t('policyObjects.apps.domains', 'Domains')}</Table.Th>
                      <Table.Th scope="col" w="16%">
                        {t('policyObjects.columns.usedBy', 'Used by')}
                      </Table.Th>
                      <Table.Th scope="col" w="14%" ta="right">
                        {t('policyObjects.columns.actions', 'Actions')}
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>{group.map(renderApp)}</Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </section>
          );
        })}
      </Stack>
    );
  };

  const letterButton = (value: Letter | null, label: string, accessibleName: string) => {
    const isPressed = letter === value;
    return (
      <Button
        key={value ?? 'all'}
        size="compact-sm"
        variant={isPressed ? 'filled' : 'default'}
        aria-pressed={isPressed}
        aria-label={accessibleName}
        miw={30}
        px={6}
        onClick={() => setParam('letter', value)}
      >
        {label}
      </Button>
    );
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.apps.title', 'Applications')}
        description={t(
          'policyObjects.apps.description',
          'The application catalog rules match by app, and your own custom apps. Look an app up by letter or name.',
        )}
        actions={addButton}
      />
      <Stack gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput
            type="search"
            label={t('policyObjects.apps.search', 'Search apps')}
            placeholder={t('policyObjects.apps.searchPlaceholder', 'Name, category or domain')}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          <Switch
            label={t('policyObjects.apps.customOnly', 'Custom apps only')}
            checked={isCustomOnly}
            onChange={(event) => setParam('custom', event.currentTarget.checked ? 'true' : null)}
            mb={8}
          />
        </Group>
        <Group gap={4} role="group" aria-label={t('policyObjects.apps.letters', 'Apps by first letter')}>
          {letterButton(
            null,
            t('policyObjects.apps.allLetters', 'All'),
            t('policyObjects.apps.allLettersName', 'All letters'),
          )}
          {LETTERS.map((value) =>
            letterButton(
              value,
              value,
              value === '#'
                ? t('policyObjects.apps.otherLetter', '# (names not starting with a letter)')
                : t('policyObjects.apps.letterName', 'Letter {{letter}}', { letter: value }),
            ),
          )}
        </Group>
        {renderBody()}
      </Stack>
      {editor.state.isOpen ? (
        <AppFormModal
          key={editor.state.key}
          opened
          app={editor.state.object}
          onSubmit={editor.onSubmit}
          onCancel={editor.close}
        />
      ) : null}
      {deletion.dialog}
    </>
  );
}
