import type { Group, ImportJob, Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
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

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  text: string;
}

type Handler = (call: string) => Response | undefined;

/** A fake API: the groups list answers always; `extra` answers "METHOD /path" calls under test first. */
function stubApi(extra: Handler = () => undefined) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      sent.push({ method: input.method, url, headers: input.headers, text: await input.clone().text() });
      const answer = extra(`${input.method} ${url.pathname}`);
      if (answer) return answer;
      if (input.method === 'GET' && url.pathname === '/api/groups/acme') {
        return jsonResponse({ items: [SALES], total: 1 });
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return {
    find: (method: string, path: string) =>
      sent.filter((s) => s.method === method && s.url.pathname === path),
  };
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
    const api = stubApi((call) =>
      call === 'GET /api/groups/acme/export'
        ? new Response('name,description,members\nSales,,ann@acme.example\n', {
            headers: {
              'content-type': 'text/csv',
              'content-disposition': 'attachment; filename="groups-acme.csv"',
            },
          })
        : undefined,
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
    const [call] = api.find('GET', '/api/groups/acme/export');
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
  });

  it('offers export but no import to roles that may only view groups', async () => {
    stubApi();
    renderList(makeSession({ role: 'helpdesk' }));
    await screen.findByRole('link', { name: 'Sales' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
  });
});

describe('groups list: CSV import', { timeout: 20_000 }, () => {
  it('checks the file first (dry run), then uploads it as text/csv, shows the progress and the row errors', async () => {
    let isDone = false;
    const api = stubApi((call) => {
      if (call === 'POST /api/groups/acme/import') {
        // The first upload is the preview; the second the import.
        return api.find('POST', '/api/groups/acme/import').length === 1
          ? jsonResponse(PREVIEW, 202)
          : jsonResponse(makeJob(), 202);
      }
      if (call === `GET /api/groups/acme/import/${PREVIEW.id}`) return jsonResponse(PREVIEW);
      if (call === `GET /api/groups/acme/import/${JOB_ID}`) {
        return jsonResponse(
          isDone
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
            : makeJob({ total: 5, processed: 2 }),
        );
      }
      return undefined;
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
    const [preview, upload] = api.find('POST', '/api/groups/acme/import');
    expect(preview.url.searchParams.get('dryRun')).toBe('true');
    expect(upload.url.searchParams.has('dryRun')).toBe(false);
    expect(upload.text).toBe(csv);
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

    const listsBefore = api.find('GET', '/api/groups/acme').length;
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.find('GET', '/api/groups/acme').length).toBeGreaterThan(listsBefore));
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
    stubApi((call) => {
      if (call === 'POST /api/groups/acme/import') return jsonResponse(blocked, 202);
      if (call === `GET /api/groups/acme/import/${JOB_ID}`) return jsonResponse(blocked);
      return undefined;
    });
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
