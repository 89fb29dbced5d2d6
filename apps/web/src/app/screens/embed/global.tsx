import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { Component as LiveDashboard } from '../../../features/dashboards/screens/live-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** `/embed/global`: the live dashboard of the session's working tenant (what `/live` shows), embedded. */
export function Component() {
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels.global}>
      <LiveDashboard />
    </KioskFrame>
  );
}
