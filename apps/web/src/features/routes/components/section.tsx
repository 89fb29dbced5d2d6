import { Paper, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/** A section of a route screen: a bordered panel with an h2 that names it. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" radius="sm" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
