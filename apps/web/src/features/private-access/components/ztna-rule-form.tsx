import { ZTNA_RULE_PROTOCOLS, type ZtnaRule, ZtnaRuleInput } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { zodValidator } from '../../../lib/form-errors';
import { type ZtnaRuleFormValues, ztnaRuleFormToInput, ztnaRuleToFormValues } from '../utils/entry-values';
import { useEntryForm, withGatewayRequired } from './entry-fields';
import { EntryForm } from './entry-form';

/** Props of {@link ZtnaRuleForm}. */
export interface ZtnaRuleFormProps {
  /** The rule to edit; a new one when absent. */
  rule?: ZtnaRule;
  /** Sends the input; a rejection with 400 details puts them on the fields. */
  onSubmit: (input: ZtnaRuleInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * Name, site gateway, destination (host or network), protocol and ports of a ZTNA firewall rule, who may reach
 * it and whether it is on. Ports are optional (empty: every port) and off with "any" protocol. Checked with the
 * contract's `ZtnaRuleInput`; the server's details show on the same fields.
 */
export function ZtnaRuleForm({ rule, onSubmit, onCancel }: ZtnaRuleFormProps) {
  const { t } = useTranslation();
  const { form, handleSubmit } = useEntryForm({
    initialValues: ztnaRuleToFormValues(rule),
    validate: withGatewayRequired(
      t,
      zodValidator<ZtnaRuleFormValues, ZtnaRuleInput>(ZtnaRuleInput, t, ztnaRuleFormToInput),
    ),
    toInput: ztnaRuleFormToInput,
    onSubmit,
  });
  const isAnyProtocol = form.values.protocol === 'any';

  return (
    <EntryForm
      entry={rule}
      form={form}
      onSubmit={handleSubmit}
      onCancel={onCancel}
      namePlaceholder={t('privateAccess.ztna.form.namePlaceholder', 'File servers')}
      target={{
        field: 'destination',
        label: t('privateAccess.ztna.form.destination', 'Destination'),
        description: t(
          'privateAccess.ztna.form.destinationHint',
          'An internal host or network behind the gateway: 192.168.1.20 or 192.168.1.0/24.',
        ),
        placeholder: '192.168.1.0/24',
      }}
      protocols={ZTNA_RULE_PROTOCOLS}
      onProtocolChange={(protocol) => {
        if (protocol === 'any') {
          form.setFieldValue('ports', '');
          form.clearFieldError('ports');
        }
      }}
      ports={{
        description: isAnyProtocol
          ? t('privateAccess.ztna.form.portsAny', 'With any protocol, every port is reached.')
          : t(
              'privateAccess.ztna.form.portsHint',
              'Optional: 443, 8000-8080 or 80,443. Leave empty for every port.',
            ),
        placeholder: isAnyProtocol ? t('privateAccess.ztna.form.allPorts', 'All ports') : '443',
        disabled: isAnyProtocol,
      }}
      audienceHint={t(
        'privateAccess.ztna.form.audienceHint',
        'Only the devices of these users, and of the members of these groups, reach the destination.',
      )}
      enabledHint={t(
        'privateAccess.ztna.form.enabledHint',
        'A disabled rule lets nobody through and guards nothing.',
      )}
      createLabel={t('privateAccess.ztna.form.create', 'Add rule')}
    />
  );
}
