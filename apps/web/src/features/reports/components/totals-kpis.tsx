import type { ReportTotals } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import type { ReportFormat } from '../utils/format';
import type { Kpi } from './kpi-grid';

/** The key figures every traffic report starts with. */
export function totalsKpis(totals: ReportTotals, t: TFunction, format: ReportFormat): Kpi[] {
  return [
    {
      key: 'decisions',
      label: t('reports.kpis.decisions', 'Requests'),
      value: format.count(totals.decisions),
    },
    { key: 'allowed', label: t('reports.kpis.allowed', 'Allowed'), value: format.count(totals.allowed) },
    { key: 'blocked', label: t('reports.kpis.blocked', 'Blocked'), value: format.count(totals.blocked) },
    { key: 'threats', label: t('reports.kpis.threats', 'Threats'), value: format.count(totals.threats) },
    {
      key: 'connections',
      label: t('reports.kpis.connections', 'Connections'),
      value: format.count(totals.connections),
    },
    { key: 'users', label: t('reports.kpis.users', 'Users'), value: format.count(totals.users) },
    { key: 'devices', label: t('reports.kpis.devices', 'Devices'), value: format.count(totals.devices) },
    { key: 'bytes', label: t('reports.kpis.bytes', 'Data'), value: format.bytes(totals.bytes) },
  ];
}
