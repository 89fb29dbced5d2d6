import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Component as ThreatsDashboard } from '../../../features/dashboards/screens/threats-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** `/embed/intrusion-detection/:tenant`: the intrusion-detection dashboard, embedded — the threats dashboard. */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '' } = useParams();
  return (
    <KioskFrame title={t('embed.titles.intrusionDetection', 'Intrusion detection: threats')} tenant={tenant}>
      <ThreatsDashboard />
    </KioskFrame>
  );
}
