import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount, useChartLocale } from './format';

/**
 * Marks figures that include decisions `--simulate-traffic` made up (issue 23): shown where any figure of a
 * dashboard, report or the live view counts simulated events, with how many; nothing when none do.
 */
export function SimulatedBadge({ count }: { count: number }) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  if (count <= 0) return null;
  const detail = t(
    'telemetrySource.simulatedDetail',
    '{{value}} of these decisions were simulated by a gateway in demo mode, not seen on real traffic.',
    { value: formatCount(count, locale) },
  );
  return (
    <Tooltip label={detail} multiline w={280} withArrow>
      <Badge color="grape" variant="light" tabIndex={0} aria-label={detail} data-testid="simulated-badge">
        {t('telemetrySource.simulated', 'Includes simulated traffic')}
      </Badge>
    </Tooltip>
  );
}

/** The row badge of one simulated decision (the drill-down's and the event screens' tables). */
export function SimulatedRowBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="grape" variant="light" size="xs" ml={6}>
      {t('telemetrySource.simulatedRow', 'Simulated')}
    </Badge>
  );
}
