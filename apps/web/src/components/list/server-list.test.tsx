import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ListPage } from '../../lib/list-state';
import { makeSession, renderWithProviders } from '../../testing/render';
import { ColumnChooser, columnChoiceKey, type ListColumn, useColumnChoice } from './column-choice';
import { type ListQueryResult, ServerList, useListSelection } from './server-list';

interface Row {
  id: string;
  name: string;
  city: string;
}

const ROWS: Row[] = [
  { id: 'r1', name: 'Ada', city: 'Berlin' },
  { id: 'r2', name: 'Bob', city: 'Bonn' },
];

const TEXTS = {
  loading: 'Loading rows…',
  empty: 'No rows yet.',
  noMatch: 'No rows match.',
  perPage: 'Rows per page',
};

function query(over: Partial<ListQueryResult<Row>> = {}): ListQueryResult<Row> {
  return {
    data: undefined,
    isPending: false,
    isError: false,
    error: null,
    isFetching: false,
    refetch: vi.fn(),
    ...over,
  };
}

const page = (items: Row[], total = items.length): ListPage<Row> => ({
  items,
  total,
  totalIsEstimate: false,
  nextCursor: null,
});

/** A list of {@link ROWS} with a column chooser and a selection that belongs to `queryId`. */
function ChooserList({ queryId = 'q1' }: { queryId?: string }) {
  const columns: ListColumn<Row>[] = [
    { accessor: 'name', title: 'Name', isAlwaysShown: true, isEssential: true },
    { accessor: 'city', title: 'City', isHiddenByDefault: true },
  ];
  const choice = useColumnChoice('rows', columns);
  const { selected, setSelected } = useListSelection<Row>(queryId);
  return (
    <>
      <ColumnChooser choice={choice} />
      <p>{`${selected.length} chosen`}</p>
      <ServerList<Row>
        query={query({ data: page(ROWS) })}
        columns={choice.columns}
        texts={TEXTS}
        page={1}
        pageSize={25}
        onPageChange={() => {}}
        onPageSizeChange={() => {}}
        isFiltered={false}
        selection={{
          selected,
          onChange: setSelected,
          allLabel: 'Select all rows',
          rowLabel: (row) => `Select ${row.name}`,
        }}
      />
    </>
  );
}

/** Switches the selection's query, as a page turn or a search would. */
function PagedList() {
  const [queryId, setQueryId] = useState('page-1');
  return (
    <>
      <button type="button" onClick={() => setQueryId('page-2')}>
        Next query
      </button>
      <ChooserList queryId={queryId} />
    </>
  );
}

function renderList(props: Partial<Parameters<typeof ServerList<Row>>[0]>) {
  return renderWithProviders(
    <ServerList<Row>
      query={query()}
      columns={[{ accessor: 'name', title: 'Name' }]}
      texts={TEXTS}
      page={1}
      pageSize={25}
      onPageChange={() => {}}
      onPageSizeChange={() => {}}
      isFiltered={false}
      {...props}
    />,
    { session: makeSession() },
  );
}

describe('server-paged list scaffold', () => {
  it('shows loading, then an error with a retry, then "nothing yet" or "no match", then the rows', async () => {
    const first = renderList({ query: query({ isPending: true }) });
    expect(screen.getByRole('status')).toHaveTextContent('Loading rows…');
    first.unmount();

    const refetch = vi.fn();
    const failed = renderList({ query: query({ isError: true, error: new Error('x'), refetch }) });
    await failed.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
    failed.unmount();

    const empty = renderList({ query: query({ data: page([]) }), emptyAction: <a href="/add">Add row</a> });
    expect(screen.getByText('No rows yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add row' })).toBeInTheDocument();
    empty.unmount();

    const noMatch = renderList({
      query: query({ data: page([]) }),
      isFiltered: true,
      emptyAction: <a href="/add">Add row</a>,
    });
    expect(screen.getByText('No rows match.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add row' })).not.toBeInTheDocument();
    noMatch.unmount();

    // A failed refresh keeps the rows, with the error above them.
    renderList({ query: query({ data: page(ROWS), isError: true, error: new Error('x') }) });
    expect(screen.getByRole('alert')).toHaveTextContent('Loading failed');
    expect(screen.getByText('Ada')).toBeInTheDocument();
  });

  it('keeps a column choice per tenant and administrator, offering only what may be hidden', async () => {
    const { user, unmount } = renderWithProviders(<ChooserList />, { session: makeSession() });
    expect(screen.queryByRole('columnheader', { name: 'City' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('group', { name: 'Columns shown', hidden: true });
    expect(within(chooser).queryByRole('checkbox', { name: 'Name', hidden: true })).not.toBeInTheDocument();
    await user.click(within(chooser).getByRole('checkbox', { name: 'City', hidden: true }));
    expect(screen.getByRole('columnheader', { name: 'City' })).toBeInTheDocument();
    // Only what differs from the defaults is stored, under the list, the tenant and the administrator.
    expect(JSON.parse(localStorage.getItem(columnChoiceKey('rows', 'acme', 'u-admin')) ?? '{}')).toEqual({
      city: true,
    });

    await user.click(within(chooser).getByRole('button', { name: 'Default columns', hidden: true }));
    expect(screen.queryByRole('columnheader', { name: 'City' })).not.toBeInTheDocument();
    expect(localStorage.getItem(columnChoiceKey('rows', 'acme', 'u-admin'))).toBeNull();
    unmount();
  });

  it('drops the selection when the query changes, so bulk actions never reach rows out of sight', async () => {
    const { user } = renderWithProviders(<PagedList />, { session: makeSession() });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ada' }));
    expect(screen.getByText('1 chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next query' }));
    expect(screen.getByText('0 chosen')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Ada' })).not.toBeChecked();
  });
});
