import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { DsbReport } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { ReportFormat } from '../utils/format';
import { ReportCard } from './report-card';

/**
 * The requests of a report over time as stacked bars, allowed below blocked, with its unit (per minute, hour or
 * day). The chart library (@mantine/charts) comes with the report screens, which load lazily.
 */
export function RequestsChart({ series, format }: { series: DsbReport['series']; format: ReportFormat }) {
  const { t } = useTranslation();
  const unit = {
    minute: t('reports.units.perMinute', 'Requests per minute'),
    hour: t('reports.units.perHour', 'Requests per hour'),
    day: t('reports.units.perDay', 'Requests per day'),
  }[series.bucket];
  const fields: Intl.DateTimeFormatOptions =
    series.bucket === 'day' ? { day: '2-digit', month: '2-digit' } : { hour: '2-digit', minute: '2-digit' };
  const data = series.points.map((p) => ({
    at: format.dateFields(p.at, fields),
    allowed: p.allowed,
    blocked: p.blocked,
  }));
  const allowed = series.points.reduce((n, p) => n + p.allowed, 0);
  const blocked = series.points.reduce((n, p) => n + p.blocked, 0);
  const title = t('reports.sections.requestsOverTime', 'Requests over time');
  return (
    <ReportCard title={title}>
      <BarChart
        h={220}
        role="img"
        aria-label={t(
          'reports.chart.label',
          '{{title}}, {{unit}}: {{allowed}} allowed, {{blocked}} blocked',
          {
            title,
            unit,
            allowed: format.count(allowed),
            blocked: format.count(blocked),
          },
        )}
        data={data}
        dataKey="at"
        type="stacked"
        series={[
          { name: 'allowed', label: t('reports.columns.allowed', 'Allowed'), color: 'green.6' },
          { name: 'blocked', label: t('reports.columns.blocked', 'Blocked'), color: 'red.6' },
        ]}
        withLegend
        yAxisLabel={unit}
        valueFormatter={format.count}
        gridAxis="y"
        tooltipAnimationDuration={0}
        barProps={{ isAnimationActive: false }}
      />
    </ReportCard>
  );
}
