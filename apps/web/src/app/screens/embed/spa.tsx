import { useParams } from 'react-router';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { Component as SpaDashboard } from '../../../features/dashboards/screens/spa-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** `/embed/spa/:tenant`: the secure private access dashboard, embedded. */
export function Component() {
  const { tenant = '' } = useParams();
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels.spa} tenant={tenant}>
      <SpaDashboard />
    </KioskFrame>
  );
}
