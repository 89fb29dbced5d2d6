import { Table, Text } from '@mantine/core';
import type { ReportTopItem } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import type { ReportFormat } from '../utils/format';
import { ReportCard } from './report-card';

/** A report's top list: rank, name, and the decisions allowed and blocked. */
export function TopTable({
  title,
  items,
  format,
}: {
  title: string;
  items: ReportTopItem[];
  format: ReportFormat;
}) {
  const { t } = useTranslation();
  return (
    <ReportCard title={title}>
      {items.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('reports.empty', 'Nothing in this period.')}
        </Text>
      ) : (
        <Table striped aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('reports.columns.rank', '#')}</Table.Th>
              <Table.Th scope="col">{t('reports.columns.name', 'Name')}</Table.Th>
              <Table.Th scope="col" ta="end">
                {t('reports.columns.allowed', 'Allowed')}
              </Table.Th>
              <Table.Th scope="col" ta="end">
                {t('reports.columns.blocked', 'Blocked')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item, i) => (
              <Table.Tr key={item.value}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Th scope="row" fw={400}>
                  {item.label}
                </Table.Th>
                <Table.Td ta="end">{format.count(item.allowed)}</Table.Td>
                <Table.Td ta="end">{format.count(item.blocked)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </ReportCard>
  );
}
