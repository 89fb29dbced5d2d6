import { LAN_PORT, MAX_LAN_IDS, SITE_PREFIX_MAX, SITE_PREFIX_MIN } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { newLanRow, type SiteForm } from '../utils/site-form';
import { EmptyCell, NumberCell, SelectCell, SwitchCell, TextCell } from './field-inputs';
import { SiteListTable } from './site-list-table';

/** The LAN ports a row may take: LAN 1 … LAN 10. */
export function useLanPortOptions() {
  const { t } = useTranslation();
  return Array.from({ length: MAX_LAN_IDS }, (_, i) => ({
    value: String(i + 1),
    label: t('sites.lans.port', 'LAN {{id}}', { id: i + 1 }),
  }));
}

/**
 * The LANs of a site gateway: its LAN port, name, own address and prefix, and DHCP with its range (shown while
 * DHCP is on). At most {@link MAX_LAN_IDS}; the help text names the management port {@link LAN_PORT}.
 */
export function LanTable({ form, isReadOnly }: { form: SiteForm; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const portOptions = useLanPortOptions();

  return (
    <SiteListTable
      form={form}
      isReadOnly={isReadOnly}
      list="lans"
      help={t(
        'sites.lans.help',
        'Each LAN is a LAN port of the gateway with the gateway’s own address in a private network. With DHCP on, the gateway hands out the addresses of the range to the devices of the LAN. The gateway’s management port {{port}} answers from the LAN and VLAN networks only, never from the WAN.',
        { port: String(LAN_PORT) },
      )}
      headers={{
        port: t('sites.lans.portHeader', 'LAN port'),
        name: t('sites.lans.name', 'Name'),
        address: t('sites.lans.address', 'Gateway address'),
        prefix: t('sites.lans.prefix', 'Prefix length'),
        dhcp: t('sites.lans.dhcp', 'DHCP'),
        dhcpStart: t('sites.lans.dhcpStart', 'DHCP start'),
        dhcpEnd: t('sites.lans.dhcpEnd', 'DHCP end'),
      }}
      fieldOf={(column) => (column === 'dhcp' ? 'lanDhcp' : column === 'port' ? 'id' : column)}
      label={t('sites.lans.table', 'LANs')}
      rowName={(index) => t('sites.lans.row', 'LAN row {{row}}', { row: index + 1 })}
      emptyText={t('sites.lans.empty', 'No LANs yet.')}
      max={MAX_LAN_IDS}
      fullText={t('sites.lans.full', 'A site gateway has at most {{max, number}} LANs.', {
        max: MAX_LAN_IDS,
      })}
      addLabel={t('sites.lans.add', 'Add LAN')}
      newRow={() => newLanRow(form.values.lans)}
      minWidth={980}
      renderCells={(cell, row) => (
        <>
          <SelectCell {...cell('port')} data={portOptions} width={110} />
          <TextCell {...cell('name')} placeholder={t('sites.lans.namePlaceholder', 'Office')} />
          <TextCell {...cell('address')} placeholder="192.168.1.1" maxLength={15} minWidth={130} />
          <NumberCell {...cell('prefix')} min={SITE_PREFIX_MIN} max={SITE_PREFIX_MAX} prefix="/" />
          <SwitchCell {...cell('dhcp')} />
          {row.lanDhcp ? (
            <>
              <TextCell {...cell('dhcpStart')} placeholder="192.168.1.100" maxLength={15} minWidth={130} />
              <TextCell {...cell('dhcpEnd')} placeholder="192.168.1.200" maxLength={15} minWidth={130} />
            </>
          ) : (
            <>
              <EmptyCell srText={t('sites.lans.noDhcp', 'No DHCP')} />
              <EmptyCell srText={t('sites.lans.noDhcp', 'No DHCP')} />
            </>
          )}
        </>
      )}
    />
  );
}
