import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Component as SiaDashboard } from '../../../features/dashboards/screens/sia-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/**
 * `/embed/agentless/:tenant`: the agentless dashboard, embedded — agentless users reach the internet through
 * the gateways' proxy, so their traffic is the secure internet access dashboard's.
 */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '' } = useParams();
  return (
    <KioskFrame title={t('embed.titles.agentless', 'Agentless access: internet access')} tenant={tenant}>
      <SiaDashboard />
    </KioskFrame>
  );
}
