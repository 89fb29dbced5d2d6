import { Stack, Text } from '@mantine/core';
import { MAX_GATEWAY_VLAN_IDS, SITE_PREFIX_MAX, SITE_PREFIX_MIN, VLAN_ID_MAX } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { newVlanRow, type SiteForm } from '../utils/site-form';
import { NumberCell, SelectCell, TextCell } from './field-inputs';
import { RowTable } from './row-table';

/** The LANs of the form as options ("LAN 2 · Guests"), for a VLAN's parent and a flow's LAN. */
export function useLanChoices(form: SiteForm) {
  const { t } = useTranslation();
  return form.values.lans.map((lan) => ({
    value: lan.id,
    label: lan.name.trim()
      ? t('sites.lans.choice', 'LAN {{id}} · {{name}}', { id: lan.id, name: lan.name.trim() })
      : t('sites.lans.port', 'LAN {{id}}', { id: lan.id }),
  }));
}

/** The VLANs of a site gateway: tag, name, the LAN it is tagged on, the gateway's address and prefix. */
export function VlanTable({ form, isReadOnly }: { form: SiteForm; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const lanChoices = useLanChoices(form);
  const headers = {
    vlanId: t('sites.vlans.vlanId', 'VLAN ID'),
    name: t('sites.vlans.name', 'Name'),
    lanId: t('sites.vlans.lan', 'Parent LAN'),
    address: t('sites.vlans.address', 'Gateway address'),
    prefix: t('sites.vlans.prefix', 'Prefix length'),
  };
  const rowName = (index: number) => t('sites.vlans.row', 'VLAN row {{row}}', { row: index + 1 });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t(
          'sites.vlans.help',
          'A VLAN carries its own private network on a LAN port, tagged with its VLAN ID (802.1Q). The gateway has an address in each VLAN network.',
        )}
      </Text>
      <RowTable
        label={t('sites.vlans.table', 'VLANs')}
        headers={Object.values(headers)}
        rows={form.values.vlans}
        getKey={(row) => row.key}
        rowName={rowName}
        emptyText={t('sites.vlans.empty', 'No VLANs yet.')}
        max={MAX_GATEWAY_VLAN_IDS}
        fullText={t('sites.vlans.full', 'A site gateway has at most {{max, number}} VLANs.', {
          max: MAX_GATEWAY_VLAN_IDS,
        })}
        addLabel={t('sites.vlans.add', 'Add VLAN')}
        onAdd={() => form.insertListItem('vlans', newVlanRow(form.values.lans))}
        onRemove={(index) => form.removeListItem('vlans', index)}
        isReadOnly={isReadOnly}
        error={form.errors.vlans}
        minWidth={820}
        renderCells={(_row, index) => {
          const cell = (field: keyof typeof headers) => ({
            form,
            path: `vlans.${index}.${field}`,
            label: t('sites.fieldOfRow', '{{field}} of {{row}}', {
              field: headers[field],
              row: rowName(index),
            }),
            isReadOnly,
          });
          return (
            <>
              <NumberCell {...cell('vlanId')} min={1} max={VLAN_ID_MAX} placeholder="100" />
              <TextCell {...cell('name')} placeholder={t('sites.vlans.namePlaceholder', 'Guests')} />
              <SelectCell
                {...cell('lanId')}
                data={lanChoices}
                placeholder={t('sites.lans.choose', 'Choose a LAN')}
                width={170}
              />
              <TextCell {...cell('address')} placeholder="192.168.10.1" maxLength={15} minWidth={130} />
              <NumberCell {...cell('prefix')} min={SITE_PREFIX_MIN} max={SITE_PREFIX_MAX} prefix="/" />
            </>
          );
        }}
      />
    </Stack>
  );
}
