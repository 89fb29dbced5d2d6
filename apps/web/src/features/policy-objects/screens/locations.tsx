import { Button, Stack, Table, Text } from '@mantine/core';
import type { Location, LocationInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useDeleteLocations, useLocations, useSaveLocation } from '../api/locations';
import { CollapsibleList } from '../components/collapsible-list';
import { LocationFormModal } from '../components/location-form';
import { useObjectEditor, useSafeDelete } from '../components/object-crud';
import { ObjectsPageHeader } from '../components/objects-page-header';
import { RowActions } from '../components/row-actions';
import { UsedByButton } from '../components/where-used-dialog';

/**
 * `/policy/locations`: named places requests come from (public IPs and CIDR blocks), which rules can require.
 * Add and edit in a modal; delete shows which rules lose the location first.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('policies:create');
  const canUpdate = useCan('policies:update');
  const canDelete = useCan('policies:delete');
  const locationsQuery = useLocations(tenant);

  const editor = useObjectEditor({
    useSave: useSaveLocation,
    toVars: (location: Location | undefined, body: LocationInput) => ({ id: location?.id, body }),
    nameOfInput: (input) => input.name,
    createdMessage: (name) => t('policyObjects.locations.created', 'Location {{name}} added.', { name }),
  });
  const deletion = useSafeDelete({
    kind: 'location',
    idOf: (location: Location) => location.id,
    nameOf: (location) => location.name,
    useDelete: useDeleteLocations,
    deletedMessage: (name) => t('policyObjects.locations.deleted', 'Location {{name}} deleted.', { name }),
  });

  const addButton = canCreate ? (
    <Button onClick={() => editor.open()}>{t('policyObjects.locations.add', 'Add location')}</Button>
  ) : null;

  const renderBody = () => {
    if (locationsQuery.isPending)
      return <LoadingState label={t('policyObjects.locations.loading', 'Loading locations…')} />;
    if (locationsQuery.isError)
      return <ErrorState error={locationsQuery.error} onRetry={() => void locationsQuery.refetch()} />;
    const locations = locationsQuery.data;
    if (locations.length === 0)
      return (
        <EmptyState
          message={t(
            'policyObjects.locations.empty',
            'No locations yet. A location names the networks requests come from, so a rule can apply only there.',
          )}
          action={addButton}
        />
      );
    return (
      <Table.ScrollContainer minWidth={640}>
        <Table withTableBorder highlightOnHover verticalSpacing="sm">
          <Table.Caption>
            {t('policyObjects.locations.caption', {
              count: locations.length,
              defaultValue_one: '{{count}} location',
              defaultValue_other: '{{count}} locations',
            })}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('policyObjects.columns.name', 'Name')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.locations.networks', 'Networks')}</Table.Th>
              <Table.Th scope="col">{t('policyObjects.columns.usedBy', 'Used by')}</Table.Th>
              {canUpdate || canDelete ? (
                <Table.Th scope="col" ta="right">
                  {t('policyObjects.columns.actions', 'Actions')}
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {locations.map((location) => (
              <Table.Tr key={location.id}>
                <Table.Th scope="row" fw={500}>
                  <Text fw={500} size="sm">
                    {location.name}
                  </Text>
                  {location.description ? (
                    <Text size="xs" c="dimmed" fw={400} lineClamp={2}>
                      {location.description}
                    </Text>
                  ) : null}
                </Table.Th>
                <Table.Td>
                  <CollapsibleList
                    items={location.networks}
                    visible={4}
                    label={t('policyObjects.locations.networksOf', 'networks of {{name}}', {
                      name: location.name,
                    })}
                  />
                </Table.Td>
                <Table.Td>
                  <UsedByButton
                    kind="location"
                    id={location.id}
                    name={location.name}
                    count={location.usedBy}
                  />
                </Table.Td>
                {canUpdate || canDelete ? (
                  <Table.Td>
                    <RowActions
                      name={location.name}
                      onEdit={canUpdate ? () => editor.open(location) : undefined}
                      onDelete={canDelete ? () => deletion.ask(location) : undefined}
                    />
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  };

  return (
    <>
      <ObjectsPageHeader
        title={t('policyObjects.locations.title', 'Locations')}
        description={t(
          'policyObjects.locations.description',
          'Named networks (public IPs and CIDR blocks, up to 16 each) that rules can require requests to come from.',
        )}
        actions={locationsQuery.data && locationsQuery.data.length > 0 ? addButton : null}
      />
      <Stack gap="md">{renderBody()}</Stack>
      {editor.state.isOpen ? (
        <LocationFormModal
          key={editor.state.key}
          opened
          location={editor.state.object}
          onSubmit={editor.onSubmit}
          onCancel={editor.close}
        />
      ) : null}
      {deletion.dialog}
    </>
  );
}
