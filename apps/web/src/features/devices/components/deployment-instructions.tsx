import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  DEPLOYMENT_TARGETS,
  type DeploymentTarget,
  deploymentCommands,
  KEY_PLACEHOLDER,
} from '../utils/deployment-commands';
import { CopyField } from './copy-field';

/** Props of {@link DeploymentInstructions}. */
export interface DeploymentInstructionsProps {
  /** The console's origin the clients talk to, e.g. `https://console.example.com`. */
  origin: string;
  /** A fresh key's token to fill in, or null for the placeholder. */
  token: string | null;
  /** The fresh key's name, said next to the commands. */
  keyName?: string;
}

/**
 * How to roll the client out with a deployment key: Intune/Windows, Jamf/macOS, Linux and the raw API call,
 * each a command with a copy button. Without a fresh token the commands carry a placeholder, and say so.
 */
export function DeploymentInstructions({ origin, token, keyName }: DeploymentInstructionsProps) {
  const { t } = useTranslation();
  const commands = deploymentCommands(origin, token);
  const tabLabels: Record<DeploymentTarget, string> = {
    windows: t('devices.deploy.tab.windows', 'Intune / Windows'),
    mac: t('devices.deploy.tab.mac', 'Jamf / macOS'),
    linux: t('devices.deploy.tab.linux', 'Linux'),
    api: t('devices.deploy.tab.api', 'API call'),
  };
  const hints: Record<DeploymentTarget, string> = {
    windows: t(
      'devices.deploy.hint.windows',
      'In Intune, add PalisadeClient.msi as a Windows app (Win32 or line-of-business) and use this as its install command. Other RMM tools (NinjaOne, Datto, N-able…) run the same line as a script.',
    ),
    mac: t(
      'devices.deploy.hint.mac',
      'In Jamf Pro, add PalisadeClient.pkg to a policy together with this script, run before the package. The client reads the key from its managed preferences when it first starts.',
    ),
    linux: t(
      'devices.deploy.hint.linux',
      'Run this as a user with sudo rights, or from your configuration management (Ansible, Puppet, Salt…). The script installs the client for the distribution and enrols it.',
    ),
    api: t(
      'devices.deploy.hint.api',
      'This is the call the client makes to enrol. Set PALISADE_USER to the username of the user the device belongs to; without a username the device enrols without a user.',
    ),
  };
  const blockLabels: Record<DeploymentTarget, string> = {
    windows: t('devices.deploy.block.windows', 'Install command'),
    mac: t('devices.deploy.block.mac', 'Policy script'),
    linux: t('devices.deploy.block.linux', 'Install command'),
    api: t('devices.deploy.block.api', 'Enrolment call'),
  };
  const copyLabels: Record<DeploymentTarget, string> = {
    windows: t('devices.deploy.copy.windows', 'Copy Windows command'),
    mac: t('devices.deploy.copy.mac', 'Copy macOS script'),
    linux: t('devices.deploy.copy.linux', 'Copy Linux command'),
    api: t('devices.deploy.copy.api', 'Copy API call'),
  };

  return (
    <Stack gap="md" component="section" aria-labelledby="deployment-instructions-title">
      <Title order={2} size="h3" id="deployment-instructions-title">
        {t('devices.deploy.title', 'Deployment instructions')}
      </Title>
      {token ? (
        <Text size="sm">
          {t(
            'devices.deploy.withKey',
            'The commands below carry the key “{{name}}”. They are shown with it only until you leave this page.',
            { name: keyName ?? '' },
          )}
        </Text>
      ) : (
        <Alert color="blue" variant="light">
          {t(
            'devices.deploy.placeholder',
            'The commands show {{placeholder}} where the key goes: a key’s token is shown only when it is created. Create a key to have it filled in, or replace the placeholder with a token you kept.',
            { placeholder: KEY_PLACEHOLDER },
          )}
        </Alert>
      )}
      <Tabs defaultValue="windows" keepMounted>
        <Tabs.List>
          {DEPLOYMENT_TARGETS.map((target) => (
            <Tabs.Tab key={target} value={target}>
              {tabLabels[target]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {DEPLOYMENT_TARGETS.map((target) => (
          <Tabs.Panel key={target} value={target} pt="md">
            <Stack gap="sm">
              <Text size="sm">{hints[target]}</Text>
              <CopyField
                label={blockLabels[target]}
                value={commands[target]}
                copyLabel={copyLabels[target]}
              />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
