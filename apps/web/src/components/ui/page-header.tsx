import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useIsKiosk } from './kiosk';

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  /** The page title, rendered as the page's only `<h1>`. */
  title: ReactNode;
  /** A short line under the title. */
  description?: ReactNode;
  /** Buttons or links shown at the end of the header row. */
  actions?: ReactNode;
  /** A state shown next to the title (e.g. "Disabled"), outside the heading itself. */
  badge?: ReactNode;
}

/**
 * The heading row of a screen: an h1 title, an optional description and optional actions on the right. In an
 * embedded dashboard the view's own title is the h1: the title is an h2 there, and the actions are left out.
 */
export function PageHeader({ title, description, actions, badge }: PageHeaderProps) {
  const isKiosk = useIsKiosk();
  const shownActions = isKiosk ? null : actions;
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="md" mb="lg">
      <Stack gap={4}>
        <Group gap="sm" align="center">
          <Title order={isKiosk ? 2 : 1} size={isKiosk ? 'h3' : 'h2'}>
            {title}
          </Title>
          {badge}
        </Group>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {shownActions ? <Group gap="sm">{shownActions}</Group> : null}
    </Group>
  );
}
