import { Stack } from '@mantine/core';
import { EmbedLinksCard } from '../../features/embed/components/embed-links-card';
import { Component as Settings } from '../../features/settings/screens/settings';
import { Component as ApiTokens } from '../../features/tokens/screens/api-tokens';
import { useCan } from '../../lib/auth';

/**
 * `/settings`: the settings screen and, below it, the administrator's API tokens and the links of the embedded
 * dashboards (to those who see the dashboards). Composed here because features never import each other and the
 * spec has no path of its own for either.
 */
export function Component() {
  const canViewDashboards = useCan('dashboard:view');
  return (
    <Stack gap="lg">
      <Settings />
      <Stack maw={1100}>
        <ApiTokens />
      </Stack>
      {canViewDashboards ? (
        <Stack maw={1100}>
          <EmbedLinksCard />
        </Stack>
      ) : null}
    </Stack>
  );
}
