import { Stack } from '@mantine/core';
import { Component as Settings } from '../../features/settings/screens/settings';
import { Component as ApiTokens } from '../../features/tokens/screens/api-tokens';

/**
 * `/settings`: the settings screen and, below it, the administrator's API tokens. Composed here because features
 * never import each other and the spec has no path of its own for tokens.
 */
export function Component() {
  return (
    <Stack gap="lg">
      <Settings />
      <Stack maw={1100}>
        <ApiTokens />
      </Stack>
    </Stack>
  );
}
