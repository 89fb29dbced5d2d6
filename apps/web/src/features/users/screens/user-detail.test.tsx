import { FEATURE_FLAGS, type User, userEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as UserDetail } from './user-detail';

const ANN: User = {
  id: '11111111-1111-4111-8111-111111111111',
  userid: '11111111-1111-4111-8111-111111111111',
  username: 'ann@acme.example',
  shortname: 'ann',
  firstname: 'Ann',
  lastname: 'Able',
  fullname: 'Ann Able',
  email: 'ann@acme.example',
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

/** The user, and the status call answered as the server would. */
function fakeUserApi() {
  let user = ANN;
  const api = fakeApi()
    .on(userEndpoints.getUser, ({ params }) => (params.id === ANN.id ? user : apiError('not_found')))
    .on(userEndpoints.listGroupOptions, () => [])
    .on(userEndpoints.setUserStatus, ({ params, body }) => {
      if (params.id !== ANN.id) return apiError('not_found');
      user = {
        ...user,
        status: body.status,
        statusReason: body.reason || null,
        statusChangedBy: 'admin@acme.example',
        statusChangedAt: '2026-03-02T09:30:00.000Z',
      };
      return user;
    });
  return { api, sent: () => api.calls(userEndpoints.setUserStatus).map((call) => call.sentBody) };
}

function renderDetail(session = makeSession()) {
  return renderRoutes([{ path: '/users/:id', element: <UserDetail /> }], {
    route: `/users/${ANN.id}`,
    session,
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('user detail: account status', { timeout: 15_000 }, () => {
  it('disables a user only with a reason, then shows who did it, why and when', async () => {
    const { api, sent } = fakeUserApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Ann Able?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();
    expect(sent()).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Reason/), 'Left the company');
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(sent()).toEqual([{ status: 'disabled', reason: 'Left the company' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(screen.getByText(/Disabled by admin@acme\.example on .*: Left the company/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('enables a disabled user after a confirmation, without asking why', async () => {
    const { api, sent } = fakeUserApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Disable' }));
    await user.type(within(await screen.findByRole('dialog')).getByLabelText(/Reason/), 'Lost laptop');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable Ann Able?' });
    expect(within(dialog).queryByLabelText(/Reason/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]).toEqual({ status: 'active' });
    expect(api.unhandled).toEqual([]);
  });

  it('offers no status change without users:update', async () => {
    fakeUserApi();
    renderDetail(makeSession({ role: 'auditor' }));
    expect(await screen.findByRole('heading', { name: 'Ann Able' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable' })).not.toBeInTheDocument();
  });
});

describe('user detail: the XDR row (FEATURE_PARTS users.xdrField)', { timeout: 15_000 }, () => {
  /** The term of a row of the details' description list. */
  const term = (name: string) => screen.queryByText(name, { selector: 'dt' });

  it('shows whether the user has XDR while the working tenant has it', async () => {
    fakeUserApi();
    renderDetail();
    expect(await screen.findByText('Private access', { selector: 'dt' })).toBeInTheDocument();
    expect(term('XDR')).toBeInTheDocument();
  });

  it('leaves the row out while the working tenant has no XDR', async () => {
    fakeUserApi();
    renderDetail(makeSession({ features: FEATURE_FLAGS.filter((flag) => flag !== 'xdr') }));
    expect(await screen.findByText('Private access', { selector: 'dt' })).toBeInTheDocument();
    expect(term('XDR')).not.toBeInTheDocument();
  });
});
