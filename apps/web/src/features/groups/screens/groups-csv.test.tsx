import { type Group, groupEndpoints, type ImportJob, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fileResponse, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as GroupsList } from './groups-list';

const JOB_ID = '0b7e5f3a-2c1d-4e6f-8a9b-0c1d2e3f4a5b';

const SALES: Group = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Sales',
  description: '',
  memberCount: 3,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

function makeJob(overrides: Partial<ImportJob> = {}): ImportJob {
  return {
    id: JOB_ID,
    status: 'running',
    mode: 'valid',
    dryRun: false,
    total: 0,
    processed: 0,
    created: 0,
    updated: 0,
    errorCount: 0,
    errors: [],
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

/** The preview (dry run) of an import: 2 groups would be created, 1 changed, 2 rows have errors. */
const PREVIEW = makeJob({
  id: '99999999-9999-4999-8999-999999999999',
  dryRun: true,
  status: 'completed',
  total: 5,
  processed: 5,
  created: 2,
  updated: 1,
  errorCount: 2,
  errors: [],
  finishedAt: '2026-03-01T10:00:01.000Z',
});

/** The fake API of the list: one group. Tests add export and import. */
function fakeGroupsApi() {
  return fakeApi().on(groupEndpoints.listGroups, () => keysetPage([SALES]));
}

function renderList(session: Session = makeSession(), route = '/users/groups') {
  return renderRoutes([{ path: '/users/groups', element: <GroupsList /> }], { route, session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('groups list: CSV export', { timeout: 20_000 }, () => {
  it('downloads the CSV of the current search and order', async () => {
    const api = fakeGroupsApi().on(groupEndpoints.exportGroups, () =>
      fileResponse('name,description,members\nSales,,ann@acme.example\n', 'groups-acme.csv'),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:groups');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });

    const { user } = renderList(makeSession(), '/users/groups?q=sal&sort=memberCount&order=desc');
    await screen.findByRole('link', { name: 'Sales' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(groupEndpoints.exportGroups);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      q: 'sal',
      sort: 'memberCount',
      order: 'desc',
    });
    expect(call.headers.get('x-auth-token')).toBe('test-session');
    expect(await createObjectURL.mock.calls[0][0].text()).toBe(
      'name,description,members\nSales,,ann@acme.example\n',
    );
    expect(clicked[0].download).toBe('groups-acme.csv');
    expect(api.unhandled).toEqual([]);
  });

  it('offers export but no import to roles that may only view groups', async () => {
    fakeGroupsApi();
    renderList(makeSession({ role: 'helpdesk' }));
    await screen.findByRole('link', { name: 'Sales' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
  });
});

describe('groups list: CSV import', { timeout: 20_000 }, () => {
  it('checks the file first (dry run), then uploads it as text/csv, shows the progress and the row errors', async () => {
    let isDone = false;
    const api = fakeGroupsApi()
      // The first upload is the preview; the second the import.
      .on(groupEndpoints.importGroups, ({ query }) => (query.dryRun === 'true' ? PREVIEW : makeJob()))
      .on(groupEndpoints.groupImportJob, ({ params }) => {
        if (params.id === PREVIEW.id) return PREVIEW;
        return isDone
          ? makeJob({
              status: 'completed',
              total: 5,
              processed: 5,
              created: 2,
              updated: 1,
              errorCount: 2,
              errors: [
                { row: 3, field: 'members', message: 'validation.unknownMember' },
                { row: 5, field: 'name', message: 'validation.groupDuplicateInFile' },
              ],
              finishedAt: '2026-03-01T10:00:02.000Z',
            })
          : makeJob({ total: 5, processed: 2 });
      });
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Sales' });
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import groups from CSV' });
    expect(within(dialog).getByRole('link', { name: 'Download template' }).getAttribute('href')).toContain(
      encodeURIComponent('name,description,members\r\nEngineering,Builds the product,"jane.doe@example.com;'),
    );

    const csv = 'name,description,members\nRed,,ann@acme.example\nBlue,,nobody@acme.example\n';
    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File([csv], 'groups.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('radio', { name: /Import valid rows, report the rest/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(
      await within(dialog).findByText('The import would create 2 groups and change 1'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const bar = await within(dialog).findByRole(
      'progressbar',
      { name: 'Import progress' },
      { timeout: 3000 },
    );
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(within(dialog).getByText('2 of 5 rows processed')).toBeInTheDocument();
    const [preview, upload] = api.calls(groupEndpoints.importGroups);
    expect(preview.url.searchParams.get('dryRun')).toBe('true');
    expect(upload.url.searchParams.has('dryRun')).toBe(false);
    expect(upload.body).toBe(csv);
    expect(upload.headers.get('content-type')).toBe('text/csv');
    expect(upload.url.searchParams.get('mode')).toBe('valid');

    isDone = true;
    const table = await within(dialog).findByRole('table', { name: 'Row errors' }, { timeout: 3000 });
    expect(within(dialog).getByText('Groups imported: 2 created, 1 changed')).toBeInTheDocument();
    expect(within(dialog).getByText('Updated:')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['3', 'members', 'A listed username is not an end user of this tenant.'],
      ['5', 'name', 'This group name appears twice in the file.'],
    ]);

    const listsBefore = api.calls(groupEndpoints.listGroups).length;
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.calls(groupEndpoints.listGroups).length).toBeGreaterThan(listsBefore));
    expect(api.unhandled).toEqual([]);
  });

  it('says nothing would be imported when all-or-nothing finds a bad row, and offers no import', async () => {
    const blocked = makeJob({
      mode: 'all',
      dryRun: true,
      status: 'completed',
      total: 2,
      processed: 2,
      errorCount: 1,
      errors: [{ row: 2, field: 'header', message: 'validation.csvHeaderGroups' }],
    });
    fakeGroupsApi()
      .on(groupEndpoints.importGroups, () => blocked)
      .on(groupEndpoints.groupImportJob, () => blocked);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import groups from CSV' });
    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File(['title\nx'], 'groups.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));

    expect(await within(dialog).findByText('Nothing would be imported')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(within(dialog).getByText('The first line must name the column name.')).toBeInTheDocument();
  });
});
