import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { fillIn, stubApi } from '../testing/stub-api';
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

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('e-mail verification', () => {
  it('verifies, then reads the transaction status, then offers to sign in', async () => {
    const sent = stubApi({
      'GET /api/user/verify/t-1': () => jsonResponse({ transid: 't-1', userstatus: 'verified' }),
      'GET /api/trans/status/web/t-1': () =>
        jsonResponse({ transid: 't-1', transstatus: 'completed', userstatus: 'verified' }),
    });
    renderVerify('/verify/t-1');
    expect(await screen.findByRole('heading', { name: 'E-mail address verified' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    // The link is first looked up as an administrator invitation (404 here), then verified as a sign-up.
    expect(sent.map((s) => s.path)).toEqual([
      '/api/invite/t-1',
      '/api/user/verify/t-1',
      '/api/trans/status/web/t-1',
    ]);
  });

  it('lets an invited administrator choose a password', async () => {
    const sent = stubApi({
      'GET /api/invite/inv-1': () =>
        jsonResponse({
          email: 'new@acme.example',
          firstname: 'New',
          tenantDisplayName: 'Acme',
          expiresAt: '2030-01-01T00:00:00.000Z',
        }),
      'POST /api/invite/inv-1/accept': () => jsonResponse({ ok: true }),
    });
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
    expect(sent.at(-1)).toMatchObject({
      path: '/api/invite/inv-1/accept',
      body: { password: 'a-long-password' },
    });
  });

  it('shows why the server refused an invited administrator’s password under the field', async () => {
    stubApi({
      'GET /api/invite/inv-2': () =>
        jsonResponse({
          email: 'new@acme.example',
          firstname: 'New',
          tenantDisplayName: 'Acme',
          expiresAt: '2030-01-01T00:00:00.000Z',
        }),
      'POST /api/invite/inv-2/accept': () =>
        jsonResponse(
          {
            errcode: 2,
            code: 'validation_failed',
            message: 'Some fields are not valid.',
            details: [{ path: 'body.password', message: 'validation.passwordContainsEmail' }],
          },
          400,
        ),
    });
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
    stubApi({
      'GET /api/user/verify/t-2': () =>
        jsonResponse({ errcode: 15, code: 'transaction_expired', message: 'This link has expired.' }, 410),
    });
    renderVerify('/verify/t-2');
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send the verification e-mail again' })).toHaveAttribute(
      'href',
      '/email-verification',
    );
  });

  it('says when there is no such link', async () => {
    stubApi({});
    renderVerify('/verify/unknown');
    expect(await screen.findByRole('heading', { name: 'Verification link not found' })).toBeInTheDocument();
  });

  it('takes a typed code to its verification page', async () => {
    stubApi({
      'GET /api/user/verify/abc-123': () => jsonResponse({ transid: 'abc-123', userstatus: 'verified' }),
      'GET /api/trans/status/web/abc-123': () =>
        jsonResponse({ transid: 'abc-123', transstatus: 'completed', userstatus: 'verified' }),
    });
    const { user, router } = renderVerify('/verify/email-verification');
    await fillIn(user, screen.getByLabelText(/^Verification code/), '  abc-123 ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'E-mail address verified' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/abc-123');
  });
});
