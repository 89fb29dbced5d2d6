import type { EmbedKind } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

/** The translated name of each kind of embedded dashboard (the view's title, the link's label). */
export function useEmbedKindLabels(): Record<EmbedKind, string> {
  const { t } = useTranslation();
  return {
    tenant: t('embed.kinds.tenant', 'Tenant dashboard'),
    '5g': t('embed.kinds.5g', 'Private 5G'),
    xdr: t('embed.kinds.xdr', 'XDR'),
    spa: t('embed.kinds.spa', 'Secure private access'),
    'weekly-sase': t('embed.kinds.weeklySase', 'Weekly SASE report'),
    'weekly-site-performance': t('embed.kinds.weeklySitePerformance', 'Weekly site performance'),
    diagnostics: t('embed.kinds.diagnostics', 'Diagnostics'),
    'intrusion-detection': t('embed.kinds.intrusionDetection', 'Intrusion detection'),
    agentless: t('embed.kinds.agentless', 'Agentless access'),
    'user-tag': t('embed.kinds.userTag', 'User dashboard'),
    global: t('embed.kinds.global', 'Global live dashboard'),
    'incident-response': t('embed.kinds.incidentResponse', 'Incident response'),
    'vulnerability-management': t('embed.kinds.vulnerabilityManagement', 'Vulnerability management'),
    'ai-search': t('embed.kinds.aiSearch', 'Event search'),
  };
}
