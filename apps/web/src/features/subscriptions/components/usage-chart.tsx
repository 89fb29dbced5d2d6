import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Box, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { UsageSeries } from '@palisade/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../components/charts/format';
import { formatCalendarDay } from '../utils/format';
import { useLocale } from './labels';

/** Props of {@link UsageChart}. */
export interface UsageChartProps {
  series: UsageSeries;
  /** The sentence that sums the range up (also the chart's accessible name). */
  summary: string;
}

/**
 * End users and devices per day against the seats purchased (a dashed line). The chart library
 * (@mantine/charts) is its own chunk, loaded with this component. The chart is a picture with the summary as
 * its name; its figures are in a table under it, opened by a button, for keyboard and screen-reader use.
 */
export default function UsageChart({ series, summary }: UsageChartProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const headingId = useId();
  const tableId = useId();
  const [isTableOpen, setTableOpen] = useState(false);
  const count = (value: number) => formatCount(value, locale);
  const day = (at: string | number) => formatCalendarDay(at, locale);
  const data = series.points.map((point) => ({ ...point, at: Date.parse(`${point.day}T00:00:00Z`) }));
  const names = {
    users: t('subscriptions.usage.users', 'End users'),
    devices: t('subscriptions.usage.devices', 'Devices'),
    seats: t('subscriptions.usage.seats', 'Seats purchased'),
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs">
        <Stack gap={2}>
          <Title order={2} size="h4" id={headingId}>
            {t('subscriptions.usage.chartTitle', 'Use over time')}
          </Title>
          <Text size="sm">{summary}</Text>
        </Stack>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => setTableOpen((open) => !open)}
          aria-expanded={isTableOpen}
          aria-controls={tableId}
        >
          {isTableOpen
            ? t('subscriptions.usage.hideTable', 'Hide the figures')
            : t('subscriptions.usage.showTable', 'Show the figures as a table')}
        </Button>
      </Group>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('subscriptions.usage.noPoints', 'No use recorded in this range yet.')}
        </Text>
      ) : (
        <LineChart
          h={260}
          role="img"
          aria-label={t('subscriptions.usage.chartName', 'Chart: {{title}}. {{summary}}', {
            title: t('subscriptions.usage.chartTitle', 'Use over time'),
            summary,
          })}
          data={data}
          dataKey="at"
          series={[
            { name: 'users', label: names.users, color: 'blue.7' },
            { name: 'devices', label: names.devices, color: 'teal.7' },
            { name: 'seats', label: names.seats, color: 'red.7', strokeDasharray: '6 4' },
          ]}
          withLegend
          withDots={data.length <= 31}
          curveType="linear"
          valueFormatter={count}
          gridAxis="y"
          xAxisProps={{ tickFormatter: (at: number) => day(at), minTickGap: 32 }}
          yAxisProps={{ width: 56, allowDecimals: false }}
          tooltipProps={{ labelFormatter: (at: unknown) => (typeof at === 'number' ? day(at) : '') }}
          tooltipAnimationDuration={0}
          lineProps={{ isAnimationActive: false }}
          lineChartProps={{ accessibilityLayer: false }}
        />
      )}
      <Box id={tableId}>
        {isTableOpen ? (
          <Table.ScrollContainer minWidth={360} mah={360} mt="sm">
            <Table striped stickyHeader aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('subscriptions.usage.day', 'Day')}</Table.Th>
                  <Table.Th scope="col" ta="end">
                    {names.users}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {names.devices}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {names.seats}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {series.points.map((point) => (
                  <Table.Tr key={point.day}>
                    <Table.Th scope="row" fw={400}>
                      {day(point.day)}
                    </Table.Th>
                    <Table.Td ta="end">{count(point.users)}</Table.Td>
                    <Table.Td ta="end">{count(point.devices)}</Table.Td>
                    <Table.Td ta="end">
                      {count(point.seats)}
                      {point.users > point.seats ? (
                        <Text span size="sm" fw={700}>
                          {' '}
                          {t('subscriptions.usage.overShort', '(over)')}
                        </Text>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Box>
    </Card>
  );
}
