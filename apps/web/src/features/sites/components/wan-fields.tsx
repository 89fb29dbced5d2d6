import { Group, NumberInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { MAX_WAN_DNS, SITE_PREFIX_MAX, SITE_PREFIX_MIN } from '@palisade/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteForm } from '../utils/site-form';
import { TextCell } from './field-inputs';
import { RowTable } from './row-table';

/**
 * The WAN port: DHCP, or one static address (`MAX_GATEWAY_WAN_IPS`) with its prefix and default gateway;
 * and the DNS servers the gateway uses (at most {@link MAX_WAN_DNS}), in either mode.
 */
export function WanFields({ form, isReadOnly }: { form: SiteForm; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const dnsHeadingId = useId();
  const { wan } = form.values;
  const dnsRowName = (index: number) => t('sites.wan.dnsRow', 'DNS server {{row}}', { row: index + 1 });

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t(
          'sites.wan.help',
          'The WAN port connects the gateway to the internet: it takes its address by DHCP, or has one static address with its default gateway.',
        )}
      </Text>
      <Radio.Group label={t('sites.wan.mode', 'WAN address')} {...form.getInputProps('wan.mode')}>
        <Group gap="lg" mt={6}>
          <Radio value="dhcp" label={t('sites.wan.dhcp', 'DHCP')} disabled={isReadOnly} />
          <Radio value="static" label={t('sites.wan.static', 'Static address')} disabled={isReadOnly} />
        </Group>
      </Radio.Group>
      {wan.mode === 'static' ? (
        <Stack gap="sm">
          <Group gap="md" align="flex-start" wrap="wrap">
            <TextInput
              label={t('sites.wan.address', 'Address')}
              placeholder="203.0.113.10"
              autoComplete="off"
              spellCheck={false}
              maxLength={15}
              required
              disabled={isReadOnly}
              w={200}
              {...form.getInputProps('wan.ips.0.address')}
            />
            <NumberInput
              label={t('sites.wan.prefix', 'Prefix length')}
              min={SITE_PREFIX_MIN}
              max={SITE_PREFIX_MAX}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              hideControls
              prefix="/"
              required
              disabled={isReadOnly}
              w={130}
              {...form.getInputProps('wan.ips.0.prefix')}
            />
            <TextInput
              label={t('sites.wan.gateway', 'Default gateway')}
              placeholder="203.0.113.1"
              autoComplete="off"
              spellCheck={false}
              maxLength={15}
              required
              disabled={isReadOnly}
              w={200}
              {...form.getInputProps('wan.gateway')}
            />
          </Group>
          {form.errors['wan.ips'] ? (
            <Text size="sm" c="red" role="alert">
              {form.errors['wan.ips']}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      <Stack gap={4} component="section" aria-labelledby={dnsHeadingId}>
        <Title order={3} size="h6" id={dnsHeadingId}>
          {t('sites.wan.dns', 'DNS servers')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('sites.wan.dnsHelp', 'The resolvers the gateway asks, such as 9.9.9.9.')}
        </Text>
        <RowTable
          label={t('sites.wan.dns', 'DNS servers')}
          headers={[t('sites.wan.dnsServer', 'DNS server')]}
          rows={wan.dns.map((value, index) => ({ value, index }))}
          getKey={(row) => String(row.index)}
          rowName={dnsRowName}
          emptyText={t('sites.wan.noDns', 'No DNS servers.')}
          max={MAX_WAN_DNS}
          fullText={t('sites.wan.dnsFull', 'The gateway uses at most {{max, number}} DNS servers.', {
            max: MAX_WAN_DNS,
          })}
          addLabel={t('sites.wan.addDns', 'Add DNS server')}
          onAdd={() => form.insertListItem('wan.dns', '')}
          onRemove={(index) => form.removeListItem('wan.dns', index)}
          isReadOnly={isReadOnly}
          error={form.errors['wan.dns']}
          minWidth={260}
          renderCells={(_row, index) => (
            <TextCell
              form={form}
              path={`wan.dns.${index}`}
              label={dnsRowName(index)}
              isReadOnly={isReadOnly}
              placeholder="9.9.9.9"
              maxLength={15}
              minWidth={200}
            />
          )}
        />
      </Stack>
    </Stack>
  );
}
