import { adminEndpoints, sessionEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { fillIn } from '../testing/fill-in';
import { Component as VerifyEmailCode } from './verify-email-code';
import { Component as VerifyTransaction } from './verify-transaction';

function renderVerify(route: string) {
  return renderRoutes(
    [
      { path: '/verify/email-verification', element: <VerifyEmailCode /> },
      { path: '/verify/:id', element: <VerifyTransaction /> },
    ],
    { route, session: null },
  );
}

const INVITATION = {
  email: 'new@acme.example',
  firstname: 'New',
  tenantDisplayName: 'Acme',
  expiresAt: '2030-01-01T00:00:00.000Z',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('e-mail verification', () => {
  it('verifies, then reads the transaction status, then offers to sign in', async () => {
    const api = fakeApi()
      .on(adminEndpoints.getInvitation, () => apiError('not_found'))
      .on(sessionEndpoints.verifyUser, ({ params }) =>
        params.transid === 't-1'
          ? { transid: 't-1', userstatus: 'verified' as const }
          : apiError('not_found'),
      )
      .on(sessionEndpoints.transStatus, ({ params }) =>
        params.transid === 't-1'
          ? { transid: 't-1', transstatus: 'completed' as const, userstatus: 'verified' as const }
          : apiError('not_found'),
      );
    renderVerify('/verify/t-1');
    expect(await screen.findByRole('heading', { name: 'E-mail address verified' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    // The link is first looked up as an administrator invitation (404 here), then verified as a sign-up.
    expect(api.requests.map((s) => s.url.pathname)).toEqual([
      '/api/invite/t-1',
      '/api/user/verify/t-1',
      '/api/trans/status/web/t-1',
    ]);
    expect(api.calls(adminEndpoints.getInvitation)[0].status).toBe(404);
    expect(api.unhandled).toEqual([]);
  });

  it('lets an invited administrator choose a password', async () => {
    const api = fakeApi()
      .on(adminEndpoints.getInvitation, ({ params }) =>
        params.transid === 'inv-1' ? INVITATION : apiError('not_found'),
      )
      .on(adminEndpoints.acceptInvitation, () => ({ ok: true as const }));
    const user = userEvent.setup();
    renderVerify('/verify/inv-1');
    expect(await screen.findByRole('heading', { name: 'Join Acme' })).toBeInTheDocument();
    await fillIn(user, screen.getByLabelText('New password'), 'short');
    await fillIn(user, screen.getByLabelText('Confirm password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Use at least 10 characters.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Confirm password'));
    await fillIn(user, screen.getByLabelText('New password'), 'a-long-password');
    await fillIn(user, screen.getByLabelText('Confirm password'), 'a-long-password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { name: 'Welcome aboard' })).toBeInTheDocument();
    // The short password never left the page: one request to accept, with the long one.
    expect(api.calls(adminEndpoints.acceptInvitation)).toHaveLength(1);
    expect(api.requests.at(-1)).toMatchObject({
      endpoint: adminEndpoints.acceptInvitation,
      params: { transid: 'inv-1' },
      sentBody: { password: 'a-long-password' },
    });
    expect(api.unhandled).toEqual([]);
  });

  it('shows why the server refused an invited administrator’s password under the field', async () => {
    fakeApi()
      .on(adminEndpoints.getInvitation, ({ params }) =>
        params.transid === 'inv-2' ? INVITATION : apiError('not_found'),
      )
      .on(adminEndpoints.acceptInvitation, () =>
        apiError('validation_failed', {
          message: 'Some fields are not valid.',
          details: [{ path: 'body.password', message: 'validation.passwordContainsEmail' }],
        }),
      );
    const user = userEvent.setup();
    renderVerify('/verify/inv-2');
    expect(await screen.findByRole('heading', { name: 'Join Acme' })).toBeInTheDocument();
    await fillIn(user, screen.getByLabelText('New password'), 'new@acme.example-2026');
    await fillIn(user, screen.getByLabelText('Confirm password'), 'new@acme.example-2026');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        expect.stringContaining('The password must not contain your e-mail address.'),
      ),
    );
    // The reason is said once, under the field, not again in an alert above the form.
    expect(screen.queryByText('Some fields are not valid.')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome aboard' })).not.toBeInTheDocument();
  });

  it('says when the link has expired and offers a new one', async () => {
    const api = fakeApi()
      .on(adminEndpoints.getInvitation, () => apiError('not_found'))
      .on(sessionEndpoints.verifyUser, () =>
        apiError('transaction_expired', { message: 'This link has expired.' }),
      );
    renderVerify('/verify/t-2');
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send the verification e-mail again' })).toHaveAttribute(
      'href',
      '/email-verification',
    );
    expect(api.calls(sessionEndpoints.verifyUser)[0].params).toEqual({ transid: 't-2' });
    expect(api.unhandled).toEqual([]);
  });

  it('says when there is no such link', async () => {
    const api = fakeApi()
      .on(adminEndpoints.getInvitation, () => apiError('not_found'))
      .on(sessionEndpoints.verifyUser, () => apiError('not_found'));
    renderVerify('/verify/unknown');
    expect(await screen.findByRole('heading', { name: 'Verification link not found' })).toBeInTheDocument();
    expect(api.calls(sessionEndpoints.verifyUser)[0].params).toEqual({ transid: 'unknown' });
    expect(api.unhandled).toEqual([]);
  });

  it('takes a typed code to its verification page', async () => {
    const api = fakeApi()
      .on(adminEndpoints.getInvitation, () => apiError('not_found'))
      .on(sessionEndpoints.verifyUser, ({ params }) =>
        params.transid === 'abc-123'
          ? { transid: 'abc-123', userstatus: 'verified' as const }
          : apiError('not_found'),
      )
      .on(sessionEndpoints.transStatus, ({ params }) =>
        params.transid === 'abc-123'
          ? { transid: 'abc-123', transstatus: 'completed' as const, userstatus: 'verified' as const }
          : apiError('not_found'),
      );
    const { user, router } = renderVerify('/verify/email-verification');
    await fillIn(user, screen.getByLabelText(/^Verification code/), '  abc-123 ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'E-mail address verified' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/abc-123');
    expect(api.unhandled).toEqual([]);
  });
});
