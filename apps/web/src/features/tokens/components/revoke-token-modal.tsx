import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { ApiToken } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** Props of {@link RevokeTokenModal}. */
export interface RevokeTokenModalProps {
  /** The token to revoke; the dialog is open while one is given. */
  token: ApiToken | null;
  /** The administrator the token belongs to, when it may be someone else's. */
  owner?: string;
  isRevoking?: boolean;
  onClose: () => void;
  onConfirm: () => void;
}

/** Asks before revoking: whatever uses the token stops working at once. */
export function RevokeTokenModal({
  token,
  owner,
  isRevoking = false,
  onClose,
  onConfirm,
}: RevokeTokenModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={token !== null}
      onClose={isRevoking ? () => {} : onClose}
      title={t('tokens.revoke.title', 'Revoke token?')}
      centered
    >
      {token ? (
        <Stack gap="md">
          <Text size="sm">
            {owner
              ? t(
                  'tokens.revoke.messageOwner',
                  'The token “{{name}}” of {{owner}} will stop working at once. This cannot be undone.',
                  { name: token.name, owner },
                )
              : t(
                  'tokens.revoke.message',
                  'The token “{{name}}” will stop working at once. This cannot be undone.',
                  { name: token.name },
                )}
          </Text>
          <Code>{`${token.prefix}…`}</Code>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={isRevoking}>
              {t('tokens.revoke.cancel', 'Cancel')}
            </Button>
            <Button color="red" onClick={onConfirm} loading={isRevoking}>
              {t('tokens.revoke.confirm', 'Revoke')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
