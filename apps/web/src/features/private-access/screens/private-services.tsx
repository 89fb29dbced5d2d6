import type { PrivateService, PrivateServiceInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useDeletePrivateService, usePrivateServices, useSavePrivateService } from '../api/private-services';
import { EntryScreen } from '../components/entry-screen';
import { ServiceForm } from '../components/service-form';
import { serviceToInput } from '../utils/entry-values';

/**
 * `/devices/spa/service`: the tenant's private services — one internal host's ports published behind a site
 * gateway to some users and groups. Publish and edit in a modal, switch a service on or off at once, delete
 * after a confirmation.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <EntryScreen<PrivateService, PrivateServiceInput>
      useEntries={usePrivateServices}
      useSave={useSavePrivateService}
      useDelete={useDeletePrivateService}
      toInput={serviceToInput}
      nameOfInput={(input) => input.name}
      texts={{
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
      }}
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
      loadingLabel={t('privateAccess.services.loading', 'Loading services…')}
      emptyMessage={t(
        'privateAccess.services.empty',
        'No services published yet. Publish one to let chosen users reach an internal host through a site gateway.',
      )}
      addLabel={t('privateAccess.services.add', 'Publish a service')}
      caption={(count) =>
        t('privateAccess.services.caption', {
          count,
          defaultValue_one: '{{count, number}} published service',
          defaultValue_other: '{{count, number}} published services',
        })
      }
      targetHeader={t('privateAccess.services.address', 'Internal address')}
      targetOf={(service) => service.address}
      addTitle={t('privateAccess.services.form.addTitle', 'Publish a service')}
      renderForm={({ entry, onSubmit, onCancel }) => (
        <ServiceForm service={entry} onSubmit={onSubmit} onCancel={onCancel} />
      )}
    />
  );
}
