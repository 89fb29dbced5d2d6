import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Component as ThreatsDashboard } from '../../../features/dashboards/screens/threats-dashboard';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';
import { Component as SecurityCompliance } from '../../../features/reports/screens/security-compliance';

/**
 * `/embed/xdr/:tenant/:tenantType`: the XDR dashboard, embedded. XDR has no dashboard of its own yet: this shows
 * the threats dashboard and the security-compliance report (the title says so); the tenant type (a partner's or
 * a customer's view) is named under the title. The XDR dashboard replaces them once that area exists.
 */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '', tenantType = '' } = useParams();
  const types: Record<string, string> = {
    platform: t('embed.tenantTypes.platform', 'Platform view'),
    partner: t('embed.tenantTypes.partner', 'Partner view'),
    customer: t('embed.tenantTypes.customer', 'Customer view'),
  };
  return (
    <KioskFrame
      title={t('embed.titles.xdr', 'XDR: threats and compliance')}
      description={types[tenantType] ?? tenantType}
      tenant={tenant}
    >
      <Stack gap="xl">
        <div>
          <ThreatsDashboard />
        </div>
        <SecurityCompliance />
      </Stack>
    </KioskFrame>
  );
}
