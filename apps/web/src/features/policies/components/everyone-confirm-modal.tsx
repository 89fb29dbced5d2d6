import { Button, Modal, Group as Row, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Props of {@link EveryoneConfirmModal}. */
export interface EveryoneConfirmModalProps {
  opened: boolean;
  /** The policy's name as typed in the editor. */
  name: string;
  isSaving: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/**
 * "Apply to everyone?": asked before an enabled policy in no policy group is saved, since it then decides for
 * every user and device of the tenant. Cancel is focused first.
 */
export function EveryoneConfirmModal({
  opened,
  name,
  isSaving,
  onClose,
  onConfirm,
}: EveryoneConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('policies.everyone.title', 'Apply to everyone?')}>
      <Stack gap="md">
        <Text size="sm">
          {t(
            'policies.everyone.message',
            '{{name}} is in no policy group, so it applies to everyone in the tenant: every user and every device. To narrow it, add it to a policy group.',
            { name: name.trim() || t('policies.everyone.unnamed', 'This policy') },
          )}
        </Text>
        <Row gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('policies.form.cancel', 'Cancel')}
          </Button>
          <Button loading={isSaving} onClick={onConfirm}>
            {t('policies.everyone.confirm', 'Save for everyone')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
