import { useParams } from 'react-router';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { Component as SaseDashboard } from '../../../features/dashboard/screens/sase-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** `/embed/tenant/:tenant`: the tenant's SASE dashboard, embedded. */
export function Component() {
  const { tenant = '' } = useParams();
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels.tenant} tenant={tenant}>
      <SaseDashboard />
    </KioskFrame>
  );
}
