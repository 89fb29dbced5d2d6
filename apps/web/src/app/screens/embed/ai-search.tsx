import { useParams } from 'react-router';
import { useEmbedKindLabels } from '../../../components/embed/embed-labels';
import { RangePicker, useDashboardRange } from '../../../features/dashboards/components/range-picker';
import { DestinationSearch } from '../../../features/embed/components/destination-search';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/**
 * `/embed/ai-search/:tenant`: the search page of the embedded dashboards (the spec's "AI chat search"), kept to
 * what is real: a destination typed in the box lists the decisions for it in the time range.
 */
export function Component() {
  const { tenant = '' } = useParams();
  const labels = useEmbedKindLabels();
  return (
    <KioskFrame title={labels['ai-search']} tenant={tenant}>
      <Search />
    </KioskFrame>
  );
}

function Search() {
  const range = useDashboardRange();
  return (
    <>
      <RangePicker range={range} />
      <DestinationSearch range={range.apiRange} />
    </>
  );
}
