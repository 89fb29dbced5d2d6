import {
  FEATURE_FLAGS,
  type ImportJob,
  type Session,
  type User,
  type UserBulkJob,
  userBulkEndpoints,
  userEndpoints,
} from '@palisade/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, fileResponse, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UsersList } from './users-list';

const ENGINEERING = '6f1c2a54-7d0e-4f1b-9a57-0c1d2e3f4a5b';
const JOB_ID = '0b7e5f3a-2c1d-4e6f-8a9b-0c1d2e3f4a5b';

function makeUser(id: string, firstname: string, lastname: string): User {
  const username = `${firstname.toLowerCase()}@acme.example`;
  return {
    id,
    userid: id,
    username,
    shortname: firstname.toLowerCase(),
    firstname,
    lastname,
    fullname: `${firstname} ${lastname}`,
    email: username,
    groups: [],
    connstatus: 'never',
    isprvaccess: false,
    issiauser: false,
    isxdrenabled: false,
    suci: null,
    imsi: null,
    usertype: 0,
    tenant: 'acme',
    status: 'active',
    statusReason: null,
    statusChangedBy: null,
    statusChangedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
  };
}

const ALICE = makeUser('11111111-1111-4111-8111-111111111111', 'Alice', 'Able');
const BOB = makeUser('22222222-2222-4222-8222-222222222222', 'Bob', 'Baker');
const CAROL = makeUser('33333333-3333-4333-8333-333333333333', 'Carol', 'Cole');

function makeJob(overrides: Partial<ImportJob> = {}): ImportJob {
  return {
    id: JOB_ID,
    status: 'running',
    mode: 'valid',
    dryRun: false,
    total: 0,
    processed: 0,
    created: 0,
    errorCount: 0,
    errors: [],
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

/** The preview (dry run) of an import: 1 user would be created, 2 rows have errors. */
const PREVIEW = makeJob({
  id: '99999999-9999-4999-8999-999999999999',
  dryRun: true,
  status: 'completed',
  total: 3,
  processed: 3,
  created: 1,
  errorCount: 2,
  errors: [
    { row: 3, field: 'email', message: 'validation.email' },
    { row: 4, field: 'isxdrenabled', message: 'validation.boolean' },
  ],
  finishedAt: '2026-03-01T10:00:01.000Z',
});

/** A bulk job over a list of ids, done within the request as the server answers it. */
function doneBulkJob(overrides: Partial<UserBulkJob>): UserBulkJob {
  return {
    id: JOB_ID,
    status: 'completed',
    action: 'enablePrivateAccess',
    groupId: null,
    match: null,
    matched: 0,
    processed: 0,
    changed: 0,
    error: null,
    brokenTests: [],
    undoable: false,
    undoneBy: null,
    undoOf: null,
    startedAt: '2026-03-01T10:00:00.000Z',
    finishedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Menus and option lists are found with `hidden: true`: happy-dom lays nothing out, so Mantine's popovers take
 * their trigger for scrolled away and keep the dropdown at `display: none` (the provider is not in test mode).
 */
const POPOVER = { hidden: true } as const;

/** A session of a tenant without XDR (contracts `FEATURE_PARTS.xdr`). */
const withoutXdr = () => makeSession({ features: FEATURE_FLAGS.filter((flag) => flag !== 'xdr') });

/** The fake API of the list: three users and one group. Tests add the calls under test. */
function fakeUsersApi() {
  return fakeApi()
    .on(userEndpoints.listUsers, () => keysetPage([ALICE, BOB, CAROL]))
    .on(userEndpoints.listGroupOptions, () => [{ id: ENGINEERING, name: 'Engineering' }]);
}

function renderList(session: Session = makeSession(), route = '/users/list') {
  return renderRoutes(
    [
      { path: '/users/list', element: <UsersList /> },
      { path: '/sign-in', element: <p>sign-in page</p> },
    ],
    { route, session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('users list: bulk actions', { timeout: 20_000 }, () => {
  it('asks before enabling private access for the selected users, then says how many and reloads the list', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The bulk call is answered once the test has seen the progress indicator.
    const api = fakeUsersApi().on(userBulkEndpoints.bulkUsers, () =>
      answered.then(() => doneBulkJob({ matched: 2, processed: 2, changed: 2 })),
    );
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alice Able' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Carol Cole' }));
    const listsBefore = api.calls(userEndpoints.listUsers).length;

    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Enable private access', ...POPOVER }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable private access?' });
    expect(dialog).toHaveTextContent('This changes the 2 selected users.');
    expect(api.calls(userBulkEndpoints.bulkUsers)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Change 2 users' }));

    expect(await screen.findByText('Updating 2 users…')).toBeInTheDocument();
    const [bulk] = api.calls(userBulkEndpoints.bulkUsers);
    expect(bulk.sentBody).toEqual({ ids: [ALICE.id, CAROL.id], action: 'enablePrivateAccess' });
    expect(bulk.headers.get('x-auth-token')).toBe('test-session');

    release();
    expect(await screen.findByText('2 users updated.')).toBeInTheDocument();
    await waitFor(() => expect(api.calls(userEndpoints.listUsers).length).toBeGreaterThan(listsBefore));
  });

  it('disables the selected accounts with a reason, and undoes it from the result toast', async () => {
    const UNDO_ID = '9b7e5f3a-2c1d-4e6f-8a9b-0c1d2e3f4a5b';
    const api = fakeUsersApi()
      .on(userBulkEndpoints.bulkUsers, () =>
        doneBulkJob({ action: 'disable', matched: 2, processed: 2, changed: 2, undoable: true }),
      )
      .on(userBulkEndpoints.undoBulkJob, () =>
        doneBulkJob({ id: UNDO_ID, action: 'enable', matched: 2, processed: 2, changed: 2, undoOf: JOB_ID }),
      );
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alice Able' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Bob Baker' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Disable accounts…', ...POPOVER }));

    const dialog = await screen.findByRole('dialog', { name: 'Disable accounts?' });
    expect(dialog).toHaveTextContent('This changes the 2 selected users.');
    expect(dialog).toHaveTextContent('They are signed out everywhere');
    // No reason, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Change 2 users' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls(userBulkEndpoints.bulkUsers)).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), '  Left the project ');
    await user.click(within(dialog).getByRole('button', { name: 'Change 2 users' }));

    await screen.findByText('2 users updated.');
    expect(api.calls(userBulkEndpoints.bulkUsers)[0].sentBody).toEqual({
      ids: [ALICE.id, BOB.id],
      action: 'disable',
      reason: 'Left the project',
    });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Change undone for 2 users.')).toBeInTheDocument();
    const [undo] = api.calls(userBulkEndpoints.undoBulkJob);
    expect(undo.params).toEqual({ tenant: 'acme', id: JOB_ID });
    expect(api.calls(userBulkEndpoints.undoBulkJob)).toHaveLength(1);
  });

  it('adds the selected users to the group chosen in the modal', async () => {
    const api = fakeUsersApi().on(userBulkEndpoints.bulkUsers, ({ body }) => {
      const count = body.ids?.length ?? 0;
      return doneBulkJob({
        action: 'addToGroup',
        groupId: ENGINEERING,
        matched: count,
        processed: count,
        changed: count,
      });
    });
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Bob Baker' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Add to group…', ...POPOVER }));

    const dialog = await screen.findByRole('dialog', { name: 'Add to group' });
    // Nothing is sent without a group.
    await user.click(within(dialog).getByRole('button', { name: 'Add to group' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls(userBulkEndpoints.bulkUsers)).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'Engineering', ...POPOVER }));
    await user.click(within(dialog).getByRole('button', { name: 'Add to group' }));

    expect(await screen.findByText('1 user updated.')).toBeInTheDocument();
    const [bulk] = api.calls(userBulkEndpoints.bulkUsers);
    expect(bulk.body).toEqual({ ids: [BOB.id], action: 'addToGroup', groupId: ENGINEERING });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers the XDR actions while the working tenant has XDR (users.xdrBulkActions)', async () => {
    fakeUsersApi();
    const { user } = renderList();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alice Able' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    expect(await screen.findByRole('menuitem', { name: 'Enable XDR', ...POPOVER })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Disable XDR', ...POPOVER })).toBeInTheDocument();
  });

  it('leaves the XDR actions out while the working tenant has no XDR (users.xdrBulkActions)', async () => {
    fakeUsersApi();
    const { user } = renderList(withoutXdr());
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alice Able' }));
    await user.click(screen.getByRole('button', { name: 'Bulk actions' }));
    expect(
      await screen.findByRole('menuitem', { name: 'Enable private access', ...POPOVER }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Enable XDR', ...POPOVER })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Disable XDR', ...POPOVER })).not.toBeInTheDocument();
  });

  it('offers selection and bulk actions but no delete to a role that may update only', async () => {
    fakeUsersApi();
    const { user } = renderList(makeSession({ role: 'helpdesk' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Select Alice Able' }));
    expect(screen.getByRole('button', { name: 'Bulk actions' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('offers neither selection nor import to a read-only role, but export', async () => {
    fakeUsersApi();
    renderList(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Alice Able' });
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });
});

describe('users list: export', { timeout: 20_000 }, () => {
  it('downloads the CSV of the current search and order', async () => {
    const api = fakeUsersApi().on(userBulkEndpoints.exportUsers, () =>
      fileResponse('username\r\nbob@acme.example\r\n', 'users-acme.csv'),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:users');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });

    const { user } = renderList(makeSession(), '/users/list?q=bob&sort=fullname&order=desc');
    await screen.findByRole('link', { name: 'Alice Able' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(userBulkEndpoints.exportUsers);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ q: 'bob', sort: 'fullname', order: 'desc' });
    expect(call.headers.get('x-auth-token')).toBe('test-session');
    expect(await createObjectURL.mock.calls[0][0].text()).toBe('username\r\nbob@acme.example\r\n');
    expect(clicked[0].download).toBe('users-acme.csv');
    expect(clicked[0].getAttribute('href')).toBe('blob:users');
  });

  it('shows a toast when the export fails', async () => {
    fakeUsersApi().on(userBulkEndpoints.exportUsers, () => apiError('forbidden'));
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
  });

  it('goes to sign-in when the session is gone', async () => {
    fakeUsersApi().on(userBulkEndpoints.exportUsers, () => apiError('unauthenticated'));
    const { user, router } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(localStorage.getItem('sessid')).toBeNull();
  });
});

describe('users list: import', { timeout: 20_000 }, () => {
  it('checks the file first (dry run), then uploads it as text/csv, shows the progress and the row errors', async () => {
    let isDone = false;
    const api = fakeUsersApi()
      // The first upload is the preview; the second the import.
      .on(userBulkEndpoints.importUsers, ({ query }) => (query.dryRun === 'true' ? PREVIEW : makeJob()))
      .on(userBulkEndpoints.importJob, ({ params }) => {
        if (params.id === PREVIEW.id) return PREVIEW;
        return isDone
          ? makeJob({
              status: 'completed',
              total: 3,
              processed: 3,
              created: 1,
              errorCount: 2,
              errors: [
                { row: 3, field: 'email', message: 'validation.email' },
                { row: 4, field: 'isxdrenabled', message: 'validation.boolean' },
              ],
              finishedAt: '2026-03-01T10:00:02.000Z',
            })
          : makeJob({ total: 3, processed: 1 });
      });
    const { user } = renderList();
    await screen.findByRole('link', { name: 'Alice Able' });
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    expect(within(dialog).getByRole('link', { name: 'Download template' }).getAttribute('href')).toContain(
      encodeURIComponent('username,firstname,lastname,email,groups,isprvaccess,issiauser,isxdrenabled,suci'),
    );

    const csv = 'username,firstname,lastname\r\nann@acme.example,Ann,A\r\nbad,B,B\r\n';
    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File([csv], 'users.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('radio', { name: /Import valid rows, report the rest/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));

    // The preview: what would happen, nothing saved yet.
    expect(await within(dialog).findByText('1 user would be created')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Nothing is saved yet. 2 errors; the rows with errors would be skipped.'),
    ).toBeInTheDocument();
    const [preview] = api.calls(userBulkEndpoints.importUsers);
    expect(preview.url.searchParams.get('dryRun')).toBe('true');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const bar = await within(dialog).findByRole(
      'progressbar',
      { name: 'Import progress' },
      { timeout: 3000 },
    );
    expect(bar).toHaveAttribute('aria-valuenow', '33');
    expect(within(dialog).getByText('1 of 3 rows processed')).toBeInTheDocument();
    const [, upload] = api.calls(userBulkEndpoints.importUsers);
    expect(upload.body).toBe(csv);
    expect(preview.body).toBe(csv);
    expect(upload.headers.get('content-type')).toBe('text/csv');
    expect(upload.headers.get('x-auth-token')).toBe('test-session');
    expect(upload.url.searchParams.get('mode')).toBe('valid');
    expect(upload.url.searchParams.has('dryRun')).toBe(false);

    isDone = true;
    const table = await within(dialog).findByRole('table', { name: 'Row errors' }, { timeout: 3000 });
    expect(within(dialog).getByText('1 user created')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['3', 'email', 'Enter a valid e-mail address.'],
      ['4', 'isxdrenabled', 'Use true or false (yes/no, 1/0).'],
    ]);
    // Polling stopped once the job was done.
    const polls = api.calls(userBulkEndpoints.importJob).filter((call) => call.params.id === JOB_ID).length;
    const listsBefore = api.calls(userEndpoints.listUsers).length;
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(api.calls(userEndpoints.listUsers).length).toBeGreaterThan(listsBefore));
    expect(api.calls(userBulkEndpoints.importJob).filter((call) => call.params.id === JOB_ID)).toHaveLength(
      polls,
    );
  });

  it('leaves the XDR column out of the template and the help while the working tenant has no XDR', async () => {
    fakeUsersApi();
    const { user } = renderList(withoutXdr());
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    const href = within(dialog).getByRole('link', { name: 'Download template' }).getAttribute('href') ?? '';
    expect(decodeURIComponent(href)).toContain(
      'username,firstname,lastname,email,groups,isprvaccess,issiauser,suci',
    );
    expect(href).not.toContain('isxdrenabled');
    expect(within(dialog).queryByText('isxdrenabled')).not.toBeInTheDocument();
    expect(
      within(dialog).getByText(/private access and internet access: true or false\./),
    ).toBeInTheDocument();
  });

  it('names the XDR column in the help while the working tenant has XDR', async () => {
    fakeUsersApi();
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    expect(within(dialog).getByText('isxdrenabled')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/private access, internet access and XDR: true or false\./),
    ).toBeInTheDocument();
  });

  it('says nothing was imported in all-or-nothing mode, and caps the listed errors', async () => {
    const errors = Array.from({ length: 1000 }, (_, i) => ({
      row: i + 2,
      field: 'username',
      message: 'validation.duplicateInFile',
    }));
    const checked = makeJob({
      mode: 'all',
      dryRun: true,
      status: 'completed',
      total: 1500,
      processed: 1500,
      errorCount: 1200,
      errors,
    });
    fakeUsersApi()
      .on(userBulkEndpoints.importUsers, () => checked)
      .on(userBulkEndpoints.importJob, () => checked);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File(['x'], 'users.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));

    expect(await within(dialog).findByText('Nothing would be imported')).toBeInTheDocument();
    expect(
      within(dialog).getByText('The file has 1,200 errors. Fix them and import the file again.'),
    ).toBeInTheDocument();
    // Nothing to import: the import is not offered.
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    const table = within(dialog).getByRole('table', { name: 'Row errors' });
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(within(dialog).getByText('and 200 more')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Errors page 2' }));
    expect(within(table).getByText('52')).toBeInTheDocument();
  });

  it('says why when the server stopped during the import', async () => {
    const interrupted = makeJob({
      status: 'failed',
      total: 10_000,
      processed: 5000,
      created: 4500,
      errorCount: 1,
      errors: [{ row: 0, field: 'job', message: 'jobs.interrupted' }],
      finishedAt: '2026-03-01T10:05:00.000Z',
    });
    fakeUsersApi()
      .on(userBulkEndpoints.importUsers, ({ query }) => (query.dryRun === 'true' ? PREVIEW : makeJob()))
      .on(userBulkEndpoints.importJob, ({ params }) => (params.id === PREVIEW.id ? PREVIEW : interrupted));
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File(['x'], 'users.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Import' }));

    const alert = await within(dialog).findByRole('alert', {}, { timeout: 3000 });
    expect(alert).toHaveTextContent('The import failed');
    expect(alert).toHaveTextContent('The users list shows what was saved.');
    const table = within(dialog).getByRole('table', { name: 'Row errors' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '—',
      'job',
      'The server stopped while this job was running, so it did not finish. What it saved before is kept; run it again to do the rest.',
    ]);
  });

  it('takes a file dropped on the dialog', async () => {
    const api = fakeUsersApi()
      .on(userBulkEndpoints.importUsers, () => PREVIEW)
      .on(userBulkEndpoints.importJob, () => PREVIEW);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    const csv = 'First name,Last name,E-Mail\nAnn,A,ann@acme.example\n';
    fireEvent.drop(within(dialog).getByTestId('csv-drop-zone'), {
      dataTransfer: { files: [new File([csv], 'dropped.csv', { type: 'text/csv' })] },
    });
    expect(within(dialog).getByText('Chosen: dropped.csv')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    await waitFor(() => expect(api.calls(userBulkEndpoints.importUsers)).toHaveLength(1));
    expect(api.calls(userBulkEndpoints.importUsers)[0].body).toBe(csv);
  });

  it('asks for a file, and shows an empty file as the server reports it', async () => {
    const api = fakeUsersApi().on(userBulkEndpoints.importUsers, () =>
      apiError('validation_failed', { details: [{ path: 'body', message: 'validation.csvEmpty' }] }),
    );
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByText('Choose a CSV file.')).toBeInTheDocument();
    expect(api.calls(userBulkEndpoints.importUsers)).toHaveLength(0);

    await user.upload(
      within(dialog).getByLabelText(/CSV file/),
      new File(['  '], 'empty.csv', { type: 'text/csv' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check the file' }));
    expect(await within(dialog).findByText('The file is empty.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/CSV file/)).toHaveAttribute('aria-invalid', 'true');
  });
});
