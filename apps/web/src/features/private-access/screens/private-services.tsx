import { Button } from '@mantine/core';
import type { PrivateService, PrivateServiceInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useDeletePrivateService, usePrivateServices, useSavePrivateService } from '../api/private-services';
import { EntryPage } from '../components/entry-page';
import { EntryTable } from '../components/entry-table';
import { ServiceFormModal } from '../components/service-form';
import { useEntryActions } from '../components/use-entry-actions';
import { serviceToInput } from '../utils/entry-values';

/**
 * `/devices/spa/service`: the tenant's private services — one internal host's ports published behind a site
 * gateway to some users and groups. Publish and edit in a modal, switch a service on or off at once, delete
 * after a confirmation.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('gateways:create');
  const canUpdate = useCan('gateways:update');
  const canDelete = useCan('gateways:delete');
  const services = usePrivateServices(tenant);

  const actions = useEntryActions<PrivateService, PrivateServiceInput>({
    useSave: useSavePrivateService,
    useDelete: useDeletePrivateService,
    toInput: serviceToInput,
    nameOfInput: (input) => input.name,
    texts: {
      created: (name) => t('privateAccess.services.created', 'Service {{name}} published.', { name }),
      saved: (name) => t('privateAccess.saved', 'Changes to {{name}} saved.', { name }),
      enabled: (name) => t('privateAccess.services.enabled', 'Service {{name}} enabled.', { name }),
      disabled: (name) => t('privateAccess.services.disabled', 'Service {{name}} disabled.', { name }),
      deleted: (name) => t('privateAccess.services.deleted', 'Service {{name}} deleted.', { name }),
      deleteTitle: (name) => t('privateAccess.services.deleteTitle', 'Delete {{name}}?', { name }),
      deleteMessage: (service) =>
        t(
          'privateAccess.services.deleteMessage',
          'Its users and groups stop reaching {{address}} ({{ports}}) through {{gateway}} at once, unless another service or rule lets them. This cannot be undone.',
          { address: service.address, ports: service.ports, gateway: service.gatewayName },
        ),
      deleteConfirm: t('privateAccess.services.deleteConfirm', 'Delete service'),
    },
  });

  const addButton = canCreate ? (
    <Button onClick={() => actions.editor.open()}>
      {t('privateAccess.services.add', 'Publish a service')}
    </Button>
  ) : null;

  return (
    <>
      <EntryPage
        title={t('privateAccess.services.title', 'Private services')}
        intro={[
          t(
            'privateAccess.services.intro',
            'Publishing a service makes the ports of one internal host reachable for the users and groups you choose, through the gateway of the host’s site.',
          ),
          t(
            'privateAccess.services.introGuard',
            'The host is then guarded at the site gateway: through the tunnel, only these users’ devices reach these ports. Their devices route the host through the gateway, from wherever they are.',
          ),
        ]}
        query={services}
        loadingLabel={t('privateAccess.services.loading', 'Loading services…')}
        emptyMessage={t(
          'privateAccess.services.empty',
          'No services published yet. Publish one to let chosen users reach an internal host through a site gateway.',
        )}
        addButton={addButton}
      >
        {(items) => (
          <EntryTable
            entries={items}
            caption={t('privateAccess.services.caption', {
              count: items.length,
              defaultValue_one: '{{count, number}} published service',
              defaultValue_other: '{{count, number}} published services',
            })}
            targetHeader={t('privateAccess.services.address', 'Internal address')}
            targetOf={(service) => service.address}
            canUpdate={canUpdate}
            canDelete={canDelete}
            enabledOf={actions.enabledOf}
            isToggling={actions.isToggling}
            onToggle={actions.toggle}
            onEdit={actions.editor.open}
            onDelete={actions.askDelete}
          />
        )}
      </EntryPage>
      {actions.editor.state.isOpen ? (
        <ServiceFormModal
          key={actions.editor.state.key}
          opened
          service={actions.editor.state.entry}
          onSubmit={actions.editor.onSubmit}
          onCancel={actions.editor.close}
        />
      ) : null}
      {actions.deleteDialog}
    </>
  );
}
