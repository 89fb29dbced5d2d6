import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { HOME_PATH } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The session-storage flag the API client sets before sending the user here (spec §4). */
export const NETWORK_ERROR_FLAG = 'networkError';

/** `/network-error`: the API could not be reached after the retries; "Try again" returns where the user was. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  function handleRetry() {
    sessionStorage.removeItem(NETWORK_ERROR_FLAG);
    // The history entry before this page is the screen whose call failed; without one, go home.
    const hasPrevious = (window.history.state as { idx?: number } | null)?.idx;
    if (hasPrevious) navigate(-1);
    else navigate(HOME_PATH, { replace: true });
  }

  return (
    <Card withBorder shadow="sm" radius="md" p="xl" maw={520} w="100%">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('networkError.title', 'Cannot reach Palisade')}
        </Title>
        <Text>
          {t(
            'networkError.description',
            'The console could not connect to the server, even after trying several times. Your changes were not lost if the last save succeeded.',
          )}
        </Text>
        <div>
          <Text fw={500} mb={4}>
            {t('networkError.checkTitle', 'Please check:')}
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              {t('networkError.checkConnection', 'that this device is connected to the internet;')}
            </List.Item>
            <List.Item>
              {t('networkError.checkVpn', 'that a VPN or proxy is not blocking the connection;')}
            </List.Item>
            <List.Item>
              {t('networkError.checkLater', 'or wait a moment: the service may be restarting.')}
            </List.Item>
          </List>
        </div>
        <Button onClick={handleRetry} style={{ alignSelf: 'flex-start' }}>
          {t('networkError.retry', 'Try again')}
        </Button>
      </Stack>
    </Card>
  );
}
