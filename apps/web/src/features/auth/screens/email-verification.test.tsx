import { sessionEndpoints, type TransStatus } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { SIGNUP_STATUS_POLL_MS } from '../api/get-signup-status';
import { Component as EmailVerification } from './email-verification';

/** Opens "check your inbox" as the sign-up screen does: the address and the status id in router state. */
async function openAfterSignUp() {
  const result = renderRoutes(
    [
      { path: '/', element: null },
      { path: '/email-verification', element: <EmailVerification /> },
    ],
    { route: '/', session: null },
  );
  await result.router.navigate('/email-verification', {
    state: { email: 'hank@globex.example', transid: 's-1' },
  });
  return result;
}

const status = (transstatus: TransStatus['transstatus']): TransStatus => ({
  transid: 's-1',
  transstatus,
  userstatus: transstatus === 'completed' ? 'verified' : 'pending',
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('check your inbox', () => {
  it('asks again every few seconds and turns to "verified" by itself, then stops asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [status('pending'), status('pending'), status('completed')];
    let calls = 0;
    const api = fakeApi().on(sessionEndpoints.transStatus, ({ params }) =>
      params.transid === 's-1' ? answers[Math.min(calls++, answers.length - 1)] : apiError('not_found'),
    );
    await openAfterSignUp();
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(await screen.findByText(/shows when your address is verified/)).toBeInTheDocument();
    expect(calls).toBe(1);

    await vi.advanceTimersByTimeAsync(SIGNUP_STATUS_POLL_MS);
    expect(calls).toBe(2);
    expect(screen.getByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();

    await vi.advanceTimersByTimeAsync(SIGNUP_STATUS_POLL_MS);
    expect(await screen.findByRole('heading', { name: 'E-mail address verified' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');

    await vi.advanceTimersByTimeAsync(3 * SIGNUP_STATUS_POLL_MS);
    expect(api.calls(sessionEndpoints.transStatus)).toHaveLength(3);
    expect(api.requests).toHaveLength(3);
  });

  it('says when the sign-up expired, and keeps the form to send a new link', async () => {
    const api = fakeApi().on(sessionEndpoints.transStatus, ({ params }) =>
      params.transid === 's-1' ? status('expired') : apiError('not_found'),
    );
    await openAfterSignUp();
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeInTheDocument();
    expect(screen.getByText(/valid for 24 hours/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send the verification e-mail again' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('hank@globex.example');
    expect(api.unhandled).toEqual([]);
  });

  it('works as before for an address typed into the URL, without asking for any status', async () => {
    const api = fakeApi();
    renderRoutes([{ path: '/email-verification', element: <EmailVerification /> }], {
      route: '/email-verification?email=hank%40globex.example',
      session: null,
    });
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('hank@globex.example')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requests).toEqual([]);
  });
});
