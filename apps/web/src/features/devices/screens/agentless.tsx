import { List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UserDevicesPanel } from '../components/user-devices-panel';

/** What agentless access is and how a user gets it. */
function AgentlessExplanation() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-labelledby="agentless-how">
      <Stack gap="xs">
        <Title order={2} size="h4" id="agentless-how">
          {t('devices.agentless.howTitle', 'How agentless access works')}
        </Title>
        <Text size="sm">
          {t(
            'devices.agentless.intro',
            'Agentless access lets users reach private apps from a browser, without installing the Palisade client: useful for contractors, kiosks and personal devices.',
          )}
        </Text>
        <List size="sm" type="ordered" spacing={4}>
          <List.Item>
            {t('devices.agentless.step1', 'Send the user an agentless link (valid for 1 to 30 days).')}
          </List.Item>
          <List.Item>
            {t(
              'devices.agentless.step2',
              'The user opens it in the browser they will work in and registers that browser.',
            )}
          </List.Item>
          <List.Item>
            {t(
              'devices.agentless.step3',
              'The browser is listed below as the user’s device and follows the user’s policies. Remove it to end its access.',
            )}
          </List.Item>
        </List>
      </Stack>
    </Paper>
  );
}

/** `/users/agentless`: browser-based access: the explanation, then users with their agentless state and links. */
export function Component() {
  const { t } = useTranslation();
  return (
    <UserDevicesPanel method="agentless" title={t('devices.agentless.title', 'Agentless access')}>
      <AgentlessExplanation />
    </UserDevicesPanel>
  );
}
