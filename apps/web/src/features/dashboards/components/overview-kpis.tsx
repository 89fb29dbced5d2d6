import type { TelemetryOverview } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatCount, useChartLocale } from '../../../components/charts/format';
import type { Kpi } from './kpi-cards';

type TotalKey = keyof TelemetryOverview['totals'];

/** The figures of an overview's totals as KPI cards, each with its unit. */
export function useOverviewKpis(): (totals: TelemetryOverview['totals'], keys: readonly TotalKey[]) => Kpi[] {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const count = (n: number) => formatCount(n, locale);
  const requests = t('dashboards.units.requests', 'requests');
  const describe: Record<TotalKey, (n: number) => Omit<Kpi, 'key'>> = {
    decisions: (n) => ({
      label: t('dashboards.kpi.decisions', 'Decisions'),
      value: count(n),
      unit: requests,
    }),
    allowed: (n) => ({ label: t('dashboards.kpi.allowed', 'Allowed'), value: count(n), unit: requests }),
    blocked: (n) => ({ label: t('dashboards.kpi.blocked', 'Blocked'), value: count(n), unit: requests }),
    threats: (n) => ({
      label: t('dashboards.kpi.threats', 'Threat hits'),
      value: count(n),
      unit: t('dashboards.units.threatRequests', 'requests to known threats'),
    }),
    connections: (n) => ({
      label: t('dashboards.kpi.connections', 'Connections'),
      value: count(n),
      unit: t('dashboards.units.connections', 'connection events'),
    }),
    deviceEvents: (n) => ({
      label: t('dashboards.kpi.deviceEvents', 'Device events'),
      value: count(n),
      unit: t('dashboards.units.events', 'events'),
    }),
    bytes: (n) => ({
      label: t('dashboards.kpi.bytes', 'Data'),
      value: formatBytes(n, locale),
      unit: t('dashboards.units.bytesExact', '{{value}} bytes', { value: count(n) }),
    }),
    users: (n) => ({
      label: t('dashboards.kpi.users', 'Users'),
      value: count(n),
      unit: t('dashboards.units.distinctUsers', 'distinct users'),
    }),
    devices: (n) => ({
      label: t('dashboards.kpi.devices', 'Devices'),
      value: count(n),
      unit: t('dashboards.units.distinctDevices', 'distinct devices'),
    }),
    simulated: (n) => ({
      label: t('telemetrySource.simulatedRow', 'Simulated'),
      value: count(n),
      unit: t('dashboards.units.requests', 'requests'),
    }),
  };
  return (totals, keys) => keys.map((key) => ({ key, ...describe[key](totals[key]) }));
}
