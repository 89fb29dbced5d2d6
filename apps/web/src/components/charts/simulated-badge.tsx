import { Badge, Switch, type SwitchProps, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
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

/** The address parameter that leaves simulated decisions out (`?source=gateway`), as the dashboards keep it. */
const SOURCE_PARAM = 'source';

/**
 * Whether a screen leaves out the decisions `--simulate-traffic` made up — `?source=gateway` in the address, as
 * on the dashboards — with its setter; `source` is what the API is asked for (`gateway`, else both: absent).
 */
export function useOnlyRealTraffic() {
  const [searchParams, setSearchParams] = useSearchParams();
  const onlyReal = searchParams.get(SOURCE_PARAM) === 'gateway';
  const setOnlyReal = (value: boolean) =>
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      if (value) params.set(SOURCE_PARAM, 'gateway');
      else params.delete(SOURCE_PARAM);
      return params;
    });
  return { onlyReal, setOnlyReal, source: onlyReal ? ('gateway' as const) : undefined };
}

/** Props of {@link OnlyRealSwitch}: Mantine's switch less its words and value. */
export interface OnlyRealSwitchProps
  extends Omit<SwitchProps, 'label' | 'description' | 'checked' | 'onChange'> {
  checked: boolean;
  onChange: (onlyReal: boolean) => void;
}

/** The "Real traffic only" switch: leaves simulated demo traffic out of the figures shown. */
export function OnlyRealSwitch({ checked, onChange, ...props }: OnlyRealSwitchProps) {
  const { t } = useTranslation();
  return (
    <Switch
      {...props}
      label={t('telemetrySource.onlyReal', 'Real traffic only')}
      description={t('telemetrySource.onlyRealHint', 'Leave out simulated demo traffic')}
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
