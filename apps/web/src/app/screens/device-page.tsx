import { HOME_PATH, Uuid } from '@palisade/contracts';
import { Navigate, useParams } from 'react-router';
import { DeviceDetailScreen } from '../../features/devices/screens/device-detail';
import { SiteConfigTabs } from '../../features/sites/components/site-config-tabs';
import { useWorkingTenant } from '../../lib/auth';

/**
 * `/devices/:id`: the devices area's page of one device. A site gateway's page gets its configuration below its
 * details through `siteConfig`, composed here because features never import each other.
 *
 * The site-gateway configuration tabs (features/sites) go into `siteConfig`; the device screen renders it for site
 * gateways only.
 */
export function Component() {
  const { id = '' } = useParams();
  const tenant = useWorkingTenant();
  // `/devices/<a screen not built yet>` matches this route too: it goes where unknown screens go.
  if (!Uuid.safeParse(id).success) return <Navigate to={HOME_PATH} replace />;
  return <DeviceDetailScreen siteConfig={<SiteConfigTabs tenant={tenant} gatewayId={id} />} />;
}
