import type { DecisionLayer, TelemetryOverview } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { BarList, type Verdict } from '../../../components/charts/bar-list';
import { useLayerLabels } from '../../../components/charts/labels';

/** The decisions of the range per policy layer (DNS, network, HTTP), each layer and segment drilling down. */
export function LayerSplit({
  layers,
  onSelect,
}: {
  layers: TelemetryOverview['layers'];
  onSelect: (layer: DecisionLayer, verdict?: Verdict) => void;
}) {
  const { t } = useTranslation();
  const labels = useLayerLabels();
  return (
    <BarList
      title={t('dashboards.layers.title', 'Decisions per layer')}
      unit={t('dashboards.units.requestsInRange', 'Requests in the time range')}
      items={layers.map((layer) => ({
        key: layer.layer,
        label: labels[layer.layer],
        allowed: layer.allowed,
        blocked: layer.blocked,
      }))}
      onSelect={(item, verdict) => onSelect(item.key as DecisionLayer, verdict)}
      emptyText={t('dashboards.emptyList', 'Nothing in this time range.')}
    />
  );
}
