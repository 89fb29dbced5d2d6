import type { DecisionLayer, TelemetryDimension } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** The translated names of the policy layers a decision is taken on. */
export function useLayerLabels(): Record<DecisionLayer, string> {
  const { t } = useTranslation();
  return {
    dns: t('dashboards.layers.dns', 'DNS'),
    network: t('dashboards.layers.network', 'Network'),
    http: t('dashboards.layers.http', 'HTTP'),
  };
}

/** The translated names of the dimensions a top list ranks. */
export function useDimensionLabels(): Record<TelemetryDimension, string> {
  const { t } = useTranslation();
  return {
    destination: t('dashboards.dimensions.destination', 'Destination'),
    category: t('dashboards.dimensions.category', 'Category'),
    app: t('dashboards.dimensions.app', 'Application'),
    country: t('dashboards.dimensions.country', 'Country'),
    threat: t('dashboards.dimensions.threat', 'Threat'),
    user: t('dashboards.dimensions.user', 'User'),
    device: t('dashboards.dimensions.device', 'Device'),
    rule: t('dashboards.dimensions.rule', 'Rule'),
    gateway: t('dashboards.dimensions.gateway', 'Gateway'),
  };
}

/** The two verdicts as the charts name their segments. */
export interface VerdictLabels {
  allowed: string;
  blocked: string;
}

/** The translated names of the allowed and blocked segments. */
export function useVerdictLabels(): VerdictLabels {
  const { t } = useTranslation();
  return {
    allowed: t('dashboards.verdicts.allowed', 'Allowed'),
    blocked: t('dashboards.verdicts.blocked', 'Blocked'),
  };
}
