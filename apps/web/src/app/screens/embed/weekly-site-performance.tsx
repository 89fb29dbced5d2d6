import { useParams } from 'react-router';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';
import { Component as SitePerformance } from '../../../features/site-performance/screens/site-performance';

/** `/embed/weekly-site-performance/:tenant`: the site performance of the tenant's site gateways, embedded. */
export function Component() {
  const { tenant = '' } = useParams();
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels['weekly-site-performance']} tenant={tenant}>
      <SitePerformance />
    </KioskFrame>
  );
}
