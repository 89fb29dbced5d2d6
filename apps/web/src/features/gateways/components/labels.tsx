import { Badge } from '@mantine/core';
import { GATEWAY_REGIONS, type Gateway, type GatewayKind } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';

export {
  GatewayStatusBadge,
  useGatewayStatusLabels as useStatusLabels,
} from '../../../components/ui/gateway-status';

import type { PolicyState } from '../utils/gateway-facts';
import type { GatewayKindFilter } from '../utils/list-params';

type Region = (typeof GATEWAY_REGIONS)[number];
type UpgradeState = NonNullable<Gateway['upgrade']>['state'];

/** The translated names of the gateway kinds. */
export function useKindLabels(): Record<GatewayKind, string> {
  const { t } = useTranslation();
  return {
    cybernode: t('gateways.kind.cybernode', 'Cybernode'),
    virtual: t('gateways.kind.virtual', 'Virtual cybernode'),
    cgw: t('gateways.kind.cgw', 'Site gateway (CGW)'),
    cgwr: t('gateways.kind.cgwr', 'Site gateway with router (CGWR)'),
    lgw: t('gateways.kind.lgw', 'Local gateway (LGW)'),
  };
}

/** The translated choices of the kind filter. */
export function useKindFilterLabels(): Record<GatewayKindFilter, string> {
  const { t } = useTranslation();
  return {
    all: t('gateways.filter.kindAll', 'All'),
    cybernode: t('gateways.filter.kindCybernode', 'Cybernodes'),
    site: t('gateways.filter.kindSite', 'Site gateways'),
    virtual: t('gateways.filter.kindVirtual', 'Virtual'),
  };
}

/** The translated names of the cloud regions. */
export function useRegionLabels(): Record<Region, string> {
  const { t } = useTranslation();
  return {
    'eu-central': t('gateways.region.euCentral', 'Europe, central'),
    'eu-west': t('gateways.region.euWest', 'Europe, west'),
    'eu-north': t('gateways.region.euNorth', 'Europe, north'),
    'us-east': t('gateways.region.usEast', 'United States, east'),
    'us-west': t('gateways.region.usWest', 'United States, west'),
    'ap-southeast': t('gateways.region.apSoutheast', 'Asia Pacific, south-east'),
    'ap-northeast': t('gateways.region.apNortheast', 'Asia Pacific, north-east'),
    'sa-east': t('gateways.region.saEast', 'South America, east'),
    'af-south': t('gateways.region.afSouth', 'Africa, south'),
    'me-central': t('gateways.region.meCentral', 'Middle East, central'),
  };
}

/** A region as shown: the translated name of a cloud region with its code, a site's own text as it is. */
export function useRegionText(): (region: string) => string {
  const labels = useRegionLabels();
  return (region) =>
    (GATEWAY_REGIONS as readonly string[]).includes(region)
      ? `${labels[region as Region]} (${region})`
      : region;
}

/** The translated states of an upgrade. */
export function useUpgradeStateLabels(): Record<UpgradeState, string> {
  const { t } = useTranslation();
  return {
    pending: t('gateways.upgrade.state.pending', 'Pending'),
    done: t('gateways.upgrade.state.done', 'Done'),
    timedOut: t('gateways.upgrade.state.timedOut', 'Timed out'),
  };
}

const POLICY_COLORS: Record<Exclude<PolicyState, 'none'>, string> = {
  current: 'green',
  behind: 'yellow',
  drifting: 'red',
};

/** The translated policy states. */
export function usePolicyStateLabels(): Record<PolicyState, string> {
  const { t } = useTranslation();
  return {
    current: t('gateways.policy.current', 'Enforces the current policy'),
    behind: t('gateways.policy.behind', 'Behind'),
    drifting: t('gateways.policy.drifting', 'Drifting'),
    none: t('gateways.policy.none', 'Nothing to compare yet'),
  };
}

/** Whether a gateway keeps up with the policy, as text on a colour badge; nothing for `none`. */
export function PolicyStateBadge({ state, isShort = false }: { state: PolicyState; isShort?: boolean }) {
  const { t } = useTranslation();
  const labels = usePolicyStateLabels();
  if (state === 'none') return null;
  const text = isShort && state === 'current' ? t('gateways.policy.currentShort', 'Current') : labels[state];
  return (
    <Badge color={POLICY_COLORS[state]} variant="light" radius="sm" miw="max-content">
      {text}
    </Badge>
  );
}
