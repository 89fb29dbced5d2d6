import { MAX_TRAFFIC_FLOW_LIST } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { newTrafficFlowRow, type SiteForm } from '../utils/site-form';
import { SelectCell, TextCell } from './field-inputs';
import { SiteListTable } from './site-list-table';
import { useLanChoices } from './vlan-table';

/** The traffic flows of a site gateway: where a LAN's traffic to a destination goes, the WAN or the tunnel. */
export function TrafficFlowTable({ form, isReadOnly }: { form: SiteForm; isReadOnly: boolean }) {
  const { t } = useTranslation();
  const lanChoices = useLanChoices(form);
  const vias = [
    { value: 'wan', label: t('sites.trafficFlows.wan', 'WAN (straight out)') },
    { value: 'tunnel', label: t('sites.trafficFlows.tunnel', 'Tunnel to the cybernode') },
  ];

  return (
    <SiteListTable
      form={form}
      isReadOnly={isReadOnly}
      list="trafficFlows"
      help={t(
        'sites.trafficFlows.help',
        'A traffic flow sends a LAN’s traffic to a destination (a network such as 10.20.0.0/16, or any) straight out of the WAN, or through the tunnel to the cybernode, where the tenant’s policy applies.',
      )}
      headers={{
        name: t('sites.trafficFlows.name', 'Name'),
        lanId: t('sites.trafficFlows.lan', 'LAN'),
        via: t('sites.trafficFlows.via', 'Via'),
        destination: t('sites.trafficFlows.destination', 'Destination'),
      }}
      label={t('sites.trafficFlows.table', 'Traffic flows')}
      rowName={(index) => t('sites.trafficFlows.row', 'traffic flow {{row}}', { row: index + 1 })}
      emptyText={t('sites.trafficFlows.empty', 'No traffic flows yet.')}
      max={MAX_TRAFFIC_FLOW_LIST}
      fullText={t('sites.trafficFlows.full', 'A site gateway has at most {{max, number}} traffic flows.', {
        max: MAX_TRAFFIC_FLOW_LIST,
      })}
      addLabel={t('sites.trafficFlows.add', 'Add traffic flow')}
      newRow={() => newTrafficFlowRow(form.values.lans)}
      minWidth={820}
      renderCells={(cell) => (
        <>
          <TextCell
            {...cell('name')}
            placeholder={t('sites.trafficFlows.namePlaceholder', 'To headquarters')}
          />
          <SelectCell
            {...cell('lanId')}
            data={lanChoices}
            placeholder={t('sites.lans.choose', 'Choose a LAN')}
            width={170}
          />
          <SelectCell {...cell('via')} data={vias} width={210} />
          <TextCell {...cell('destination')} placeholder="10.20.0.0/16" maxLength={18} minWidth={150} />
        </>
      )}
    />
  );
}
