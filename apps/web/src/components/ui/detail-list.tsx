import { Box, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One term and its value. */
export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** Terms and values as a description list (`dl`), in columns from the `sm` breakpoint up. */
export function DetailList({ items }: { items: DetailItem[] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
      {items.map((item) => (
        <Box key={item.label}>
          <Text component="dt" size="xs" c="dimmed" fw={500}>
            {item.label}
          </Text>
          <Text component="dd" size="sm" m={0}>
            {item.value}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
