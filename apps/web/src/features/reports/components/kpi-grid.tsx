import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useId } from 'react';

/** One key figure: its name, its value as shown, and a note under it (a change against last week). */
export interface Kpi {
  key: string;
  label: string;
  value: string;
  note?: string;
  noteColor?: string;
}

/** The key figures of a report as cards, each a region named by its figure (so a screen reader can jump). */
export function KpiGrid({ items, label }: { items: Kpi[]; label: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <Text id={id} fw={600} mb="xs">
        {label}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {items.map((item) => (
          <Paper key={item.key} withBorder radius="md" p="md" component="section" aria-label={item.label}>
            <Text size="xl" fw={700}>
              {item.value}
            </Text>
            <Text size="sm" c="dimmed">
              {item.label}
            </Text>
            {item.note ? (
              <Text size="xs" c={item.noteColor ?? 'dimmed'}>
                {item.note}
              </Text>
            ) : null}
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
