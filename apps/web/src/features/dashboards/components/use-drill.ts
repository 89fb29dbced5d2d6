import type { DecisionLayer, TelemetryDimension } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BarListItem, Verdict } from '../../../components/charts/bar-list';
import { type DecisionDrill, dimensionFilter, VERDICT_DECISION } from '../../../components/charts/drill-down';
import { bucketTimeFormatter, useChartLocale } from '../../../components/charts/format';
import { useDimensionLabels, useLayerLabels, useVerdictLabels } from '../../../components/charts/labels';
import type { SeriesSelection } from '../../../components/charts/series-chart';
import type { ApiRange } from '../api/dashboards-keys';

/**
 * The drill-down of a dashboard: which segment is open in the drawer, and how each kind of segment (a bar of a
 * top list, a layer, a bucket of the series) becomes a title and the filters of its decisions.
 */
export function useDrill(range: ApiRange | null) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const [drill, setDrill] = useState<DecisionDrill | null>(null);
  const dimensions = useDimensionLabels();
  const layers = useLayerLabels();
  const verdicts = useVerdictLabels();
  const titleOf = (kind: string, value: string, verdict?: Verdict) =>
    verdict
      ? t('dashboards.drill.titleVerdict', '{{kind}} {{value}}: {{verdict}}', {
          kind,
          value,
          verdict: verdicts[verdict],
        })
      : t('dashboards.drill.title', '{{kind}} {{value}}', { kind, value });
  const verdictFilter = (verdict?: Verdict) => (verdict ? { decision: VERDICT_DECISION[verdict] } : {});

  return {
    drill,
    close: () => setDrill(null),
    /** A bar of a top list; `decision` narrows a list of one verdict (its bars are all of it). */
    openItem: (
      dimension: TelemetryDimension,
      item: BarListItem,
      verdict?: Verdict,
      onlyVerdict?: Verdict,
    ) => {
      if (!range) return;
      const chosen = verdict ?? onlyVerdict;
      setDrill({
        title: titleOf(dimensions[dimension], item.label, chosen),
        filters: { ...range, ...dimensionFilter(dimension, item.key), ...verdictFilter(chosen) },
      });
    },
    openLayer: (layer: DecisionLayer, verdict?: Verdict) => {
      if (!range) return;
      setDrill({
        title: titleOf(t('dashboards.layers.label', 'Layer'), layers[layer], verdict),
        filters: { ...range, layer, ...verdictFilter(verdict) },
      });
    },
    openBucket: (selection: SeriesSelection) => {
      if (!range) return;
      const spansDays = Date.parse(range.to) - Date.parse(range.from) > 86_400_000;
      setDrill({
        title: t('dashboards.drill.titleBucket', '{{verdict}} from {{time}}', {
          verdict: verdicts[selection.verdict],
          time: bucketTimeFormatter(locale, spansDays)(selection.from),
        }),
        filters: {
          from: selection.from,
          to: selection.to,
          ...verdictFilter(selection.verdict),
        },
      });
    },
  };
}
