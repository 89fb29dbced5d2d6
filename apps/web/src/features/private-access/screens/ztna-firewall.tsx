import type { ZtnaRule, ZtnaRuleInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useDeleteZtnaRule, useSaveZtnaRule, useZtnaRules } from '../api/ztna-rules';
import { EntryScreen } from '../components/entry-screen';
import { ZtnaRuleForm } from '../components/ztna-rule-form';
import { ztnaRuleToInput } from '../utils/entry-values';

/**
 * `/devices/ztna-firewall`: the tenant's ZTNA firewall rules — some users and groups may reach an internal host
 * or network behind a site gateway, on some ports or on all. Add and edit in a modal, switch a rule on or off at
 * once, delete after a confirmation.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <EntryScreen<ZtnaRule, ZtnaRuleInput>
      useEntries={useZtnaRules}
      useSave={useSaveZtnaRule}
      useDelete={useDeleteZtnaRule}
      toInput={ztnaRuleToInput}
      nameOfInput={(input) => input.name}
      texts={{
        created: (name) => t('privateAccess.ztna.created', 'Rule {{name}} added.', { name }),
        saved: (name) => t('privateAccess.saved', 'Changes to {{name}} saved.', { name }),
        enabled: (name) => t('privateAccess.ztna.enabled', 'Rule {{name}} enabled.', { name }),
        disabled: (name) => t('privateAccess.ztna.disabled', 'Rule {{name}} disabled.', { name }),
        deleted: (name) => t('privateAccess.ztna.deleted', 'Rule {{name}} deleted.', { name }),
        deleteTitle: (name) => t('privateAccess.ztna.deleteTitle', 'Delete {{name}}?', { name }),
        deleteMessage: (rule) =>
          t(
            'privateAccess.ztna.deleteMessage',
            'Its users and groups stop reaching {{destination}} through {{gateway}} at once, unless another rule or service lets them. This cannot be undone.',
            { destination: rule.destination, gateway: rule.gatewayName },
          ),
        deleteConfirm: t('privateAccess.ztna.deleteConfirm', 'Delete rule'),
      }}
      title={t('privateAccess.ztna.title', 'ZTNA firewall')}
      intro={[
        t(
          'privateAccess.ztna.intro',
          'A ZTNA firewall rule lets the users and groups you choose reach an internal host or network behind a site gateway, on some ports or on all of them.',
        ),
        t(
          'privateAccess.ztna.introGuard',
          'What a rule names is guarded at the site gateway: through the tunnel, only the devices of users a rule or a published service allows reach it, and those devices route it through the gateway. A disabled rule allows nothing and guards nothing.',
        ),
      ]}
      loadingLabel={t('privateAccess.ztna.loading', 'Loading rules…')}
      emptyMessage={t(
        'privateAccess.ztna.empty',
        'No ZTNA rules yet. Add one to let chosen users reach an internal host or network through a site gateway.',
      )}
      addLabel={t('privateAccess.ztna.add', 'Add rule')}
      caption={(count) =>
        t('privateAccess.ztna.caption', {
          count,
          defaultValue_one: '{{count, number}} rule',
          defaultValue_other: '{{count, number}} rules',
        })
      }
      targetHeader={t('privateAccess.ztna.destination', 'Destination')}
      targetOf={(rule) => rule.destination}
      addTitle={t('privateAccess.ztna.form.addTitle', 'Add a ZTNA rule')}
      renderForm={({ entry, onSubmit, onCancel }) => (
        <ZtnaRuleForm rule={entry} onSubmit={onSubmit} onCancel={onCancel} />
      )}
    />
  );
}
