import { Card, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/** A titled section of a report (a region named by its heading). */
export function ReportCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
