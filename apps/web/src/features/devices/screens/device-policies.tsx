import { Alert, Anchor, Badge, Group, Loader, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';
import { useDevice } from '../api/get-device';
import { useDevicePolicies } from '../api/get-device-policies';
import { useDevices } from '../api/get-devices';
import { ViaText } from '../components/inventory-labels';

/** How many endpoints the device picker offers for one search. */
const PICKER_LIMIT = 20;

/**
 * `/devices/policies/list`: the device (route-type) policies in the order they are decided, as the policy list
 * shows them; with a device chosen, only those that apply to it, and through what (everyone, the device, its
 * owner or the owner's groups, via which policy group).
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const [search, setSearch] = useState('');
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const policies = useDevicePolicies(tenant);
  const options = useDevices(tenant, { kind: 'endpoint', q: search || undefined, limit: PICKER_LIMIT });
  const device = useDevice(tenant, deviceId ?? '', deviceId !== null);
  const applying = deviceId && device.data ? new Map(device.data.policies.map((p) => [p.id, p])) : null;
  const shown = (policies.data ?? []).filter((policy) => !applying || applying.has(policy.id));

  const data = (options.data?.items ?? []).map((d) => ({
    value: d.id,
    label: d.username ? `${d.name} · ${d.username}` : d.name,
  }));
  if (deviceId && device.data && !data.some((o) => o.value === deviceId)) {
    data.push({ value: deviceId, label: device.data.name });
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('devices.policies.title', 'Device policies')}
        description={t(
          'devices.policies.description',
          'Route policies, in the order they are decided. Choose a device to see the ones that apply to it.',
        )}
      />
      <Select
        label={t('devices.policies.device', 'Device')}
        placeholder={t('devices.policies.anyDevice', 'Every device')}
        data={data}
        value={deviceId}
        onChange={setDeviceId}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={t('devices.policies.noDevice', 'No matching device')}
        maw={420}
      />
      {policies.isPending || (deviceId && device.isPending) ? (
        <Loader size="sm" aria-label={t('devices.policies.loading', 'Loading the policies…')} />
      ) : policies.isError ? (
        <Alert color="red" role="alert">
          {t('devices.policies.failed', 'The policies could not be loaded.')}
        </Alert>
      ) : shown.length === 0 ? (
        <Text c="dimmed">
          {applying
            ? t('devices.policies.noneForDevice', 'No device policy applies to this device.')
            : t('devices.policies.none', 'There are no device policies yet.')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Caption>
              {applying && device.data
                ? t('devices.policies.captionDevice', 'Device policies that apply to {{name}}', {
                    name: device.data.name,
                  })
                : t('devices.policies.caption', 'Device policies')}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('devices.policies.order', 'Order')}</Table.Th>
                <Table.Th scope="col">{t('devices.policies.name', 'Policy')}</Table.Th>
                <Table.Th scope="col">{t('devices.policies.rules', 'Rules')}</Table.Th>
                <Table.Th scope="col">{t('devices.policies.state', 'State')}</Table.Th>
                <Table.Th scope="col">
                  {applying
                    ? t('devices.policies.via', 'Applies through')
                    : t('devices.policies.appliesTo', 'Applies to')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((policy, index) => (
                <Table.Tr key={policy.id}>
                  <Table.Td>{index + 1}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/policy/list?policy=${policy.id}`}>
                      {policy.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{policy.ruleCount}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={policy.enabled ? 'green' : 'gray'}>
                      {policy.enabled
                        ? t('devices.policies.enabled', 'Enabled')
                        : t('devices.policies.disabled', 'Disabled')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {applying ? (
                      <Stack gap={2}>
                        {applying.get(policy.id)?.via.map((via) => (
                          <Text key={`${via.kind}-${via.policyGroup}-${via.group}`} size="sm">
                            <ViaText via={via} />
                          </Text>
                        ))}
                      </Stack>
                    ) : policy.policyGroups.length === 0 ? (
                      t('devices.policies.everyone', 'Everyone')
                    ) : (
                      <Group gap={4}>
                        {policy.policyGroups.map((group) => (
                          <Anchor
                            key={group.id}
                            component={Link}
                            to={`/policy/policyGroups/${group.id}`}
                            size="sm"
                          >
                            {group.name}
                          </Anchor>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
