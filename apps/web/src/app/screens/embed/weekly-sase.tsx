import { useParams } from 'react-router';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';
import { Component as WeeklySaseInsights } from '../../../features/reports/screens/weekly-sase-insights';

/** `/embed/weekly-sase/:tenant`: the weekly SASE insights report, embedded. */
export function Component() {
  const { tenant = '' } = useParams();
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels['weekly-sase']} tenant={tenant}>
      <WeeklySaseInsights />
    </KioskFrame>
  );
}
