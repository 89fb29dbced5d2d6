import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ui/query-state';
import { usePolicyGroupOptions } from '../api/get-policy-groups';

/** Props of {@link MoveDevicesModal}. */
export interface MoveDevicesModalProps {
  opened: boolean;
  tenant: string;
  /** How many devices are selected. */
  count: number;
  isBusy: boolean;
  onClose: () => void;
  /** Moves the selected devices into the chosen policy group. */
  onMove: (policyGroupId: string) => void;
}

/** Chooses the policy group the selected endpoints move to. */
export function MoveDevicesModal({ opened, tenant, count, isBusy, onClose, onMove }: MoveDevicesModalProps) {
  const { t } = useTranslation();
  const groups = usePolicyGroupOptions(tenant, { enabled: opened });
  const [groupId, setGroupId] = useState<string | null>(null);
  const [isMissing, setMissing] = useState(false);
  const close = () => {
    if (isBusy) return;
    setGroupId(null);
    setMissing(false);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('devices.bulk.moveTitle', 'Move to a policy group')}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!groupId) {
            setMissing(true);
            return;
          }
          onMove(groupId);
        }}
        noValidate
      >
        <Stack gap="md">
          <Text size="sm">
            {t('devices.bulk.moveText', {
              count,
              defaultValue_one:
                'The selected device joins the policy group, and the group’s policies apply to it. Site gateways are left out.',
              defaultValue_other:
                'The {{count, number}} selected devices join the policy group, and the group’s policies apply to them. Site gateways are left out.',
            })}
          </Text>
          {groups.isError ? <ErrorState error={groups.error} onRetry={() => void groups.refetch()} /> : null}
          <Select
            label={t('devices.bulk.policyGroup', 'Policy group')}
            placeholder={
              groups.isPending
                ? t('devices.bulk.policyGroupsLoading', 'Loading policy groups…')
                : t('devices.bulk.policyGroupPlaceholder', 'Choose a policy group')
            }
            required
            searchable
            data={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
            nothingFoundMessage={t('devices.bulk.noPolicyGroups', 'No policy groups found')}
            value={groupId}
            onChange={(value) => {
              setGroupId(value);
              setMissing(false);
            }}
            error={isMissing ? t('validation.required', 'This field is required.') : undefined}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={isBusy}>
              {t('common.cancel', 'Cancel')}
            </Button>
            <Button type="submit" loading={isBusy}>
              {t('devices.bulk.moveSubmit', 'Move devices')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
