import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { HOME_PATH, routeFlag } from '@palisade/contracts';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../components/ui/page-header';
import { isRouteIncluded, useTenantFlags } from '../lib/tenant-flags';

/**
 * Shown instead of a screen whose feature (or configuration flag) the working tenant has off: a page that says
 * so, not a blank one. Its partner or the platform turns features on (the partner console); configuration flags
 * are the tenant's own (`/configurations`).
 */
export function NotIncluded({ kind }: { kind: 'feature' | 'config' }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <PageHeader title={t('features.notIncluded.title', 'Not included in this workspace')} />
      <Alert color="gray" title={t('features.notIncluded.heading', 'This part is turned off here')}>
        <Text size="sm">
          {kind === 'feature'
            ? t(
                'features.notIncluded.feature',
                'This workspace does not include this feature. Its service provider can turn it on.',
              )
            : t(
                'features.notIncluded.config',
                "This workspace's configuration turns this off. Its administrators can change that under Configurations.",
              )}
        </Text>
      </Alert>
      <Anchor component={Link} to={HOME_PATH}>
        {t('features.notIncluded.home', 'Go to the dashboard')}
      </Anchor>
    </Stack>
  );
}

/**
 * A route's screen behind the working tenant's flags (contracts `FEATURE_ROUTES`, `CONFIG_ROUTES`): the screen
 * while its flag is on or not known yet, {@link NotIncluded} while it is off. Routes behind no flag get the
 * screen itself.
 */
export function withFeatureGate(route: string, Screen: ComponentType): ComponentType {
  const gate = routeFlag(route);
  if (!gate) return Screen;
  const { kind } = gate;
  function Gated() {
    const flags = useTenantFlags();
    return isRouteIncluded(flags, route) ? <Screen /> : <NotIncluded kind={kind} />;
  }
  Gated.displayName = `FeatureGate(${route})`;
  return Gated;
}
