import { Card, SimpleGrid, Text } from '@mantine/core';

/** One figure of a dashboard: its name, the value as written, and what it counts. */
export interface Kpi {
  key: string;
  label: string;
  /** The value, formatted (thousands grouped, bytes in units). */
  value: string;
  /** The unit or what the value counts ("requests", "1,234,567 bytes"). */
  unit: string;
}

/** The figures of a dashboard as a row of cards, each a region named by its label. */
export function KpiCards({ items }: { items: Kpi[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: Math.min(items.length, 6) }} spacing="md">
      {items.map((item) => (
        <Card key={item.key} withBorder radius="md" padding="md" component="section" aria-label={item.label}>
          <Text size="sm" c="dimmed" fw={500}>
            {item.label}
          </Text>
          <Text
            fz={26}
            fw={700}
            lh={1.2}
            mt={4}
            data-testid="kpi-value"
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            {item.value}
          </Text>
          <Text size="xs" c="dimmed" mt={2}>
            {item.unit}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
