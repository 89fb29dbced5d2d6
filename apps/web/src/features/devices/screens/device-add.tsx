import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { UserDevices } from '@palisade/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import type { CreatedKey } from '../api/create-deployment-key';
import { CreateKeyModal } from '../components/create-key-modal';
import { DeploymentInstructions } from '../components/deployment-instructions';
import { EndUserSelect } from '../components/end-user-select';
import { FreshKeyPanel, useFreshKey } from '../components/fresh-key-panel';
import { SendLinkModal } from '../components/send-link-modal';

/** One way to add a device: a bordered panel with an h2, what it is for, and its action. */
function Way({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * `/devices/add`: add an endpoint — an enrolment link for one end user (the link and its token shown once), or a
 * reusable deployment key for an RMM/MDM roll-out (the key shown once, with the install commands); each with a
 * short explanation. Site gateways are added on `/devices/new/add`.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('devices:create');
  const canAddSite = useCan('gateways:create');
  const [user, setUser] = useState<UserDevices | null>(null);
  const [linkFor, setLinkFor] = useState<UserDevices | null>(null);
  const [isCreatingKey, setCreatingKey] = useState(false);
  const { fresh, keep, hide } = useFreshKey(tenant);

  const handleKey = (created: CreatedKey) => {
    setCreatingKey(false);
    keep(created);
  };

  return (
    <>
      <PageHeader
        title={t('devices.add.title', 'Add a device')}
        description={t(
          'devices.add.description',
          'Enrol an endpoint for one person with a link, or roll the client out to many devices with a deployment key.',
        )}
        actions={
          <Button component={Link} to="/devices/list" variant="default">
            {t('devices.backToList', 'Back to devices')}
          </Button>
        }
      />
      <Stack gap="lg">
        {canCreate ? null : (
          <Alert color="gray">
            {t('devices.add.notAllowed', 'Your role cannot add devices. Ask an administrator who can.')}
          </Alert>
        )}
        {fresh ? (
          <FreshKeyPanel
            key={fresh.token}
            headingId="device-add-fresh-key"
            token={fresh.token}
            title={t('devices.add.freshTitle', 'Key “{{name}}” created: copy it now', { name: fresh.name })}
            warning={t(
              'devices.add.freshWarning',
              'This is the only time the key is shown. The commands below carry it until you leave this page.',
            )}
            tokenLabel={t('devices.add.freshToken', 'Deployment key')}
            copyLabel={t('devices.add.freshCopy', 'Copy key')}
            hideLabel={t('devices.add.freshHide', 'I have stored it, hide the key')}
            gap="md"
            onHide={hide}
          >
            <DeploymentInstructions
              origin={window.location.origin}
              token={fresh.token}
              keyName={fresh.name}
            />
          </FreshKeyPanel>
        ) : null}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Way title={t('devices.add.linkTitle', 'One person’s device: an enrolment link')}>
            <Text size="sm">
              {t(
                'devices.add.linkText',
                'Pick the end user the device belongs to. They open the link on the device, install the client and enrol it; the device is then theirs. A link works for one device and expires.',
              )}
            </Text>
            {canCreate ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (user) setLinkFor(user);
                }}
              >
                <Stack gap="sm" align="flex-start">
                  <EndUserSelect
                    label={t('devices.add.user', 'End user')}
                    value={user?.id ?? null}
                    onChange={setUser}
                    w="100%"
                  />
                  <Button type="submit" disabled={user === null}>
                    {t('devices.add.createLink', 'Create enrolment link')}
                  </Button>
                </Stack>
              </form>
            ) : null}
          </Way>
          <Way title={t('devices.add.keyTitle', 'Many devices: a deployment key')}>
            <Text size="sm">
              {t(
                'devices.add.keyText',
                'For Intune, Jamf or any RMM tool: the installer carries a reusable key, and each device enrols for the user the client reports. The key is shown once, with the install commands.',
              )}
            </Text>
            <Group gap="sm">
              {canCreate ? (
                <Button onClick={() => setCreatingKey(true)}>
                  {t('devices.add.createKey', 'Create deployment key')}
                </Button>
              ) : null}
              <Anchor component={Link} to="/users/rmm-deployment" size="sm">
                {t('devices.add.manageKeys', 'Manage deployment keys')}
              </Anchor>
            </Group>
          </Way>
        </SimpleGrid>
        {canAddSite ? (
          <Text size="sm">
            {t('devices.add.siteText', 'A gateway at one of your sites rather than an endpoint?')}{' '}
            <Anchor component={Link} to="/devices/new/add" size="sm">
              {t('devices.add.siteLink', 'Add a site gateway')}
            </Anchor>
          </Text>
        ) : null}
      </Stack>
      {canCreate ? (
        <>
          <SendLinkModal user={linkFor} kind="link" tenant={tenant} onClose={() => setLinkFor(null)} />
          <CreateKeyModal
            opened={isCreatingKey}
            tenant={tenant}
            returnFocus={fresh === null}
            onClose={() => setCreatingKey(false)}
            onCreated={handleKey}
          />
        </>
      ) : null}
    </>
  );
}
