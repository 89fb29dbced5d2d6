import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Props of {@link EnrolCard}. */
export interface EnrolCardProps {
  /** The page title, the screen's only `<h1>`. */
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}

/** The card of the public enrolment page, inside the shell's auth layout (brand and language menu). */
export function EnrolCard({ title, description, children }: EnrolCardProps) {
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={560}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h3">
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
