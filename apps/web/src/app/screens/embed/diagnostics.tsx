import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Component as AnalyticsDashboard } from '../../../features/dashboards/screens/analytics-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** `/embed/diagnostics/:tenant`: the diagnostics dashboard, embedded — the traffic analytics dashboard. */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '' } = useParams();
  return (
    <KioskFrame title={t('embed.titles.diagnostics', 'Diagnostics: traffic analytics')} tenant={tenant}>
      <AnalyticsDashboard />
    </KioskFrame>
  );
}
