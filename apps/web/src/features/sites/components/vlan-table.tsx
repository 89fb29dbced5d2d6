import { MAX_GATEWAY_VLAN_IDS, SITE_PREFIX_MAX, SITE_PREFIX_MIN, VLAN_ID_MAX } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { newVlanRow, type SiteForm } from '../utils/site-form';
import { NumberCell, SelectCell, TextCell } from './field-inputs';
import { SiteListTable } from './site-list-table';

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

  return (
    <SiteListTable
      form={form}
      isReadOnly={isReadOnly}
      list="vlans"
      help={t(
        'sites.vlans.help',
        'A VLAN carries its own private network on a LAN port, tagged with its VLAN ID (802.1Q). The gateway has an address in each VLAN network.',
      )}
      headers={{
        vlanId: t('sites.vlans.vlanId', 'VLAN ID'),
        name: t('sites.vlans.name', 'Name'),
        lanId: t('sites.vlans.lan', 'Parent LAN'),
        address: t('sites.vlans.address', 'Gateway address'),
        prefix: t('sites.vlans.prefix', 'Prefix length'),
      }}
      label={t('sites.vlans.table', 'VLANs')}
      rowName={(index) => t('sites.vlans.row', 'VLAN row {{row}}', { row: index + 1 })}
      emptyText={t('sites.vlans.empty', 'No VLANs yet.')}
      max={MAX_GATEWAY_VLAN_IDS}
      fullText={t('sites.vlans.full', 'A site gateway has at most {{max, number}} VLANs.', {
        max: MAX_GATEWAY_VLAN_IDS,
      })}
      addLabel={t('sites.vlans.add', 'Add VLAN')}
      newRow={() => newVlanRow(form.values.lans)}
      minWidth={820}
      renderCells={(cell) => (
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
      )}
    />
  );
}
