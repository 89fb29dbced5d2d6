import { Alert, Anchor, Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { SITE_GATEWAY_KINDS } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { devicePath } from '../../features/devices/components/device-columns';
import { AddGatewayModal } from '../../features/gateways/components/add-gateway-modal';
import { useKindLabels } from '../../features/gateways/components/labels';
import { useCan, useWorkingTenant } from '../../lib/auth';

/**
 * `/devices/new/add`: add a site gateway (CGW, CGWR or LGW) — the gateways area's add form offering the site kinds
 * only, then its one-time enrolment token and install command, with a link to its page in the device inventory.
 * Composed here because features never import each other.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('gateways:create');
  const kindLabels = useKindLabels();
  const [isOpen, setOpen] = useState(false);
  const kindTexts = {
    cgw: t('devices.siteAdd.cgw', 'connects a site to the tenant’s network and enforces its policy there.'),
    cgwr: t('devices.siteAdd.cgwr', 'the same, and routes the site’s own networks as well.'),
    lgw: t(
      'devices.siteAdd.lgw',
      'a smaller gateway for one local network, such as a shop or a home office.',
    ),
  };

  return (
    <>
      <PageHeader
        title={t('devices.siteAdd.title', 'Add a site gateway')}
        description={t(
          'devices.siteAdd.description',
          'A site gateway is a device at one of your sites (an office, a shop, a warehouse) that joins it to the tenant’s network.',
        )}
        actions={
          <Button component={Link} to="/devices/list" variant="default">
            {t('devices.backToList', 'Back to devices')}
          </Button>
        }
      />
      <Stack gap="lg" maw={760}>
        <Paper component="section" withBorder p="md" radius="sm" aria-labelledby="site-add-kinds">
          <Stack gap="sm">
            <Title order={2} size="h4" id="site-add-kinds">
              {t('devices.siteAdd.kindsTitle', 'Kinds of site gateway')}
            </Title>
            <List spacing={4} size="sm">
              {SITE_GATEWAY_KINDS.map((kind) => (
                <List.Item key={kind}>
                  <Text span size="sm" fw={500}>
                    {kindLabels[kind]}
                  </Text>
                  {': '}
                  {kindTexts[kind]}
                </List.Item>
              ))}
            </List>
          </Stack>
        </Paper>
        <Paper component="section" withBorder p="md" radius="sm" aria-labelledby="site-add-steps">
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h4" id="site-add-steps">
              {t('devices.siteAdd.stepsTitle', 'How it works')}
            </Title>
            <List type="ordered" spacing={4} size="sm">
              <List.Item>
                {t('devices.siteAdd.step1', 'Name the gateway, choose its kind and name its site.')}
              </List.Item>
              <List.Item>
                {t(
                  'devices.siteAdd.step2',
                  'Copy the one-time enrolment token and run the install command on the gateway machine.',
                )}
              </List.Item>
              <List.Item>
                {t(
                  'devices.siteAdd.step3',
                  'It enrols, fetches the policy and shows as online in the device list.',
                )}
              </List.Item>
            </List>
            {canCreate ? (
              <Button onClick={() => setOpen(true)}>{t('devices.siteAdd.open', 'Add site gateway')}</Button>
            ) : (
              <Alert color="gray">
                {t(
                  'devices.siteAdd.notAllowed',
                  'Your role cannot add gateways. Ask an administrator who can.',
                )}
              </Alert>
            )}
          </Stack>
        </Paper>
      </Stack>
      {canCreate ? (
        <AddGatewayModal
          opened={isOpen}
          onClose={() => setOpen(false)}
          tenant={tenant}
          defaultKind="cgw"
          kinds={SITE_GATEWAY_KINDS}
          createdExtra={(created) => (
            <Alert color="green" title={t('devices.siteAdd.addedTitle', 'Site gateway added')}>
              <Stack gap={4} align="flex-start">
                <Text size="sm">
                  {t(
                    'devices.siteAdd.addedText',
                    '“{{name}}” is in the device list, waiting for its enrolment.',
                    { name: created.cybernode.name },
                  )}
                </Text>
                <Anchor component={Link} to={devicePath(created.cybernode.id)} size="sm">
                  {t('devices.siteAdd.deviceLink', 'Open its device page')}
                </Anchor>
              </Stack>
            </Alert>
          )}
        />
      ) : null}
    </>
  );
}
