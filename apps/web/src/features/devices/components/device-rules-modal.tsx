import { Button, Group, Modal, Select, Stack, Switch, Text } from '@mantine/core';
import { DEVICE_KEY_EXPIRY_DAYS, type DeviceSettings } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { useDeviceSettings, useUpdateDeviceSettings } from '../api/device-settings';

/** The key lifetime as the select holds it: a number of days, or `never`. */
type ExpiryChoice = `${(typeof DEVICE_KEY_EXPIRY_DAYS)[number]}` | 'never';

const toChoice = (days: DeviceSettings['keyExpiryDays']): ExpiryChoice =>
  days === null ? 'never' : (String(days) as ExpiryChoice);
const toDays = (choice: ExpiryChoice): DeviceSettings['keyExpiryDays'] =>
  choice === 'never' ? null : (Number(choice) as DeviceSettings['keyExpiryDays']);

/** The form of the rules, started from the saved ones. */
function RulesForm({
  tenant,
  saved,
  onClose,
}: {
  tenant: string;
  saved: DeviceSettings;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [requireApproval, setRequireApproval] = useState(saved.requireApproval);
  const [expiry, setExpiry] = useState<ExpiryChoice>(toChoice(saved.keyExpiryDays));
  const save = useUpdateDeviceSettings(tenant, {
    onSuccess: () => {
      showSuccess(t('devices.rules.done', 'Device rules saved.'));
      onClose();
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('devices.rules.failed', 'The device rules were not saved') }),
  });
  const dayLabels = Object.fromEntries(
    DEVICE_KEY_EXPIRY_DAYS.map((days) => [
      days,
      t('devices.rules.days', {
        count: days,
        defaultValue_one: '{{count, number}} day',
        defaultValue_other: '{{count, number}} days',
      }),
    ]),
  );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ requireApproval, keyExpiryDays: toDays(expiry) });
      }}
    >
      <Stack gap="md">
        <Switch
          label={t('devices.rules.requireApproval', 'Require approval of new devices')}
          description={t(
            'devices.rules.requireApprovalHint',
            'A newly enrolled endpoint waits for an administrator’s approval before it gets a tunnel.',
          )}
          checked={requireApproval}
          onChange={(event) => setRequireApproval(event.currentTarget.checked)}
        />
        <Select
          label={t('devices.rules.keyExpiry', 'Key lifetime')}
          description={t(
            'devices.rules.keyExpiryHint',
            'After this long an endpoint’s WireGuard key expires and it has no tunnel until it rotates its key.',
          )}
          data={[
            ...DEVICE_KEY_EXPIRY_DAYS.map((days) => ({ value: String(days), label: dayLabels[days] })),
            { value: 'never', label: t('devices.rules.never', 'Never') },
          ]}
          allowDeselect={false}
          value={expiry}
          onChange={(value) => value && setExpiry(value as ExpiryChoice)}
        />
        <Text size="xs" c="dimmed">
          {t(
            'devices.rules.note',
            'The rules apply from now on to devices that enrol, are approved, are enabled or rotate their key; existing keys keep their expiry.',
          )}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('common.cancel', 'Cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('devices.rules.save', 'Save rules')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Props of {@link DeviceRulesModal}. */
export interface DeviceRulesModalProps {
  opened: boolean;
  tenant: string;
  onClose: () => void;
}

/** The tenant's device rules: whether new devices need approval, and how long their keys last. */
export function DeviceRulesModal({ opened, tenant, onClose }: DeviceRulesModalProps) {
  const { t } = useTranslation();
  const settings = useDeviceSettings(tenant, { enabled: opened });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('devices.rules.title', 'Device rules')}
      size="lg"
      centered
    >
      {settings.isPending ? (
        <LoadingState label={t('devices.rules.loading', 'Loading device rules…')} />
      ) : settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <RulesForm tenant={tenant} saved={settings.data} onClose={onClose} />
      )}
    </Modal>
  );
}
