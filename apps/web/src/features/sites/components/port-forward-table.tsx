import { MAX_PORT_FORWARDS, PORT_MAX, PORT_MIN } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { newPortForwardRow, type SiteForm } from '../utils/site-form';
import { NumberCell, SelectCell, TextCell } from './field-inputs';
import { SiteListTable } from './site-list-table';

/**
 * The port forwards of a site gateway: connections to the WAN on the external ports (spec §5: `443`,
 * `8000-8080` or a comma list) from the source go to the internal host, on the internal port or the same one.
 */
export function PortForwardTable({ form, isReadOnly }: { form: SiteForm; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const protocols = [
    { value: 'tcp', label: t('sites.portForwards.tcp', 'TCP') },
    { value: 'udp', label: t('sites.portForwards.udp', 'UDP') },
  ];

  return (
    <SiteListTable
      form={form}
      isReadOnly={isReadOnly}
      list="portForwards"
      help={t(
        'sites.portForwards.help',
        'Connections to the WAN on the external ports (such as 443, 8000-8080 or 80,443) from the source go to the internal host, an address of a LAN or VLAN. Leave the internal port empty to keep each external port. The source is a network such as 203.0.113.0/24, or any.',
      )}
      headers={{
        name: t('sites.portForwards.name', 'Name'),
        protocol: t('sites.portForwards.protocol', 'Protocol'),
        ports: t('sites.portForwards.ports', 'External ports'),
        ip: t('sites.portForwards.ip', 'Internal host'),
        toPort: t('sites.portForwards.toPort', 'Internal port'),
        source: t('sites.portForwards.source', 'Source'),
      }}
      label={t('sites.portForwards.table', 'Port forwards')}
      rowName={(index) => t('sites.portForwards.row', 'port forward {{row}}', { row: index + 1 })}
      emptyText={t('sites.portForwards.empty', 'No port forwards yet.')}
      max={MAX_PORT_FORWARDS}
      fullText={t('sites.portForwards.full', 'A site gateway has at most {{max, number}} port forwards.', {
        max: MAX_PORT_FORWARDS,
      })}
      addLabel={t('sites.portForwards.add', 'Add port forward')}
      newRow={newPortForwardRow}
      minWidth={1000}
      renderCells={(cell) => (
        <>
          <TextCell {...cell('name')} placeholder={t('sites.portForwards.namePlaceholder', 'Web server')} />
          <SelectCell {...cell('protocol')} data={protocols} width={90} />
          <TextCell {...cell('ports')} placeholder="443" maxLength={200} minWidth={120} />
          <TextCell {...cell('ip')} placeholder="192.168.1.10" maxLength={15} minWidth={130} />
          <NumberCell
            {...cell('toPort')}
            min={PORT_MIN}
            max={PORT_MAX}
            placeholder={t('sites.portForwards.samePort', 'Same')}
            width={100}
          />
          <TextCell {...cell('source')} placeholder="any" maxLength={18} minWidth={150} />
        </>
      )}
    />
  );
}
