import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Component as SiaDashboard } from '../../../features/dashboards/screens/sia-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/**
 * `/embed/5g/:tenant`: the private-5G dashboard, embedded. Private 5G has no dashboard of its own yet, so this
 * shows the nearest real one, secure internet access (the title says so); the private-5G dashboard
 * (`/private-5G/dashboard`) replaces it once that area exists.
 */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '' } = useParams();
  return (
    <KioskFrame title={t('embed.titles.5g', 'Private 5G: internet access')} tenant={tenant}>
      <SiaDashboard />
    </KioskFrame>
  );
}
