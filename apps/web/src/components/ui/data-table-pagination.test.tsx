import { screen, waitFor } from '@testing-library/react';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../public/locales/de/translation.json';
import { i18n } from '../../lib/i18n';
import { renderWithProviders } from '../../testing/render';
import { useDataTablePagination } from './data-table-pagination';

interface Row {
  id: string;
  name: string;
  city: string;
}

const ROWS: Row[] = [
  { id: '1', name: 'Ada', city: 'Berlin' },
  { id: '2', name: 'Bob', city: 'Bonn' },
];

function SortableTable() {
  const [sort, setSort] = useState<{ columnAccessor: keyof Row; direction: 'asc' | 'desc' }>({
    columnAccessor: 'name',
    direction: 'asc',
  });
  const shared = useDataTablePagination();
  return (
    <DataTable<Row>
      withTableBorder
      records={ROWS}
      columns={[
        { accessor: 'name', title: 'Name', sortable: true },
        { accessor: 'city', title: 'Ort', sortable: true },
      ]}
      sortStatus={sort}
      onSortStatusChange={(status) =>
        setSort({ columnAccessor: status.columnAccessor as keyof Row, direction: status.direction })
      }
      page={1}
      onPageChange={() => {}}
      totalRecords={ROWS.length}
      recordsPerPage={25}
      onRecordsPerPageChange={() => {}}
      {...shared}
    />
  );
}

afterEach(async () => {
  if (i18n.isInitialized) await i18n.changeLanguage('en');
});

describe('sortable table headers', () => {
  it("name their sort state in the reader's language, also after the sort changes", async () => {
    const { user } = renderWithProviders(<SortableTable />);
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');

    expect(await screen.findByRole('button', { name: 'Name Aufsteigend sortiert' })).toBeInTheDocument();
    const city = screen.getByRole('button', { name: 'Ort Nicht sortiert' });

    await user.click(screen.getByRole('button', { name: 'Name Aufsteigend sortiert' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Name Absteigend sortiert' })).toBeInTheDocument(),
    );
    // A newly chosen column keeps the direction (mantine-datatable's rule).
    await user.click(city);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Ort Absteigend sortiert' })).toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Name Nicht sortiert' })).toBeInTheDocument();
  });
});
