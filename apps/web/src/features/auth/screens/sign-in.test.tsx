import { HOME_PATH } from '@palisade/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
import { fillIn, stubApi } from '../testing/stub-api';
import { Component as SignIn } from './sign-in';
import { Component as VerifyOtp } from './verify-otp';

function renderSignIn(route = '/sign-in') {
  return renderRoutes(
    [
      { path: '/sign-in', element: <SignIn /> },
      { path: '/:partner/sign-in', element: <SignIn /> },
      { path: '/verify/otp-verification', element: <VerifyOtp /> },
      { path: HOME_PATH, element: <p>home dashboard</p> },
      { path: '/users/list', element: <p>users list</p> },
      { path: '/email-verification', element: <p>resend page</p> },
    ],
    { route, session: null },
  );
}

async function fillAndSubmit(user: ReturnType<typeof renderSignIn>['user'], email: string, password: string) {
  await fillIn(user, await screen.findByLabelText(/^Email/), email);
  await fillIn(user, screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const SESSION = { ...makeSession(), sessid: 'new-session-id' };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sign-in', () => {
  it('goes to the OTP step with the transaction when a second factor is required', async () => {
    const sent = stubApi({
      'POST /api/session': () => jsonResponse({ otpRequired: true, transid: 'trans-123' }),
      'POST /api/session/otp': () => jsonResponse(SESSION),
    });
    const { user, router } = renderSignIn();
    await fillAndSubmit(user, 'Admin@Acme.example', 'demo-password-1');

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/otp-verification');
    expect(router.state.location.state).toMatchObject({ transid: 'trans-123' });
    expect(sessionStorage.getItem('transid')).toBe('trans-123');
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/api/session',
      body: { username: 'admin@acme.example', password: 'demo-password-1' },
    });

    // The code completes the sign-in with that transaction and lands on the home dashboard.
    await fillIn(user, screen.getByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('home dashboard')).toBeInTheDocument();
    expect(sent.at(-1)).toMatchObject({
      path: '/api/session/otp',
      body: { transid: 'trans-123', code: '123456' },
    });
    expect(localStorage.getItem('sessid')).toBe('new-session-id');
    expect(sessionStorage.getItem('transid')).toBeNull();
  });

  it('stores the session and returns to where the user was going', async () => {
    stubApi({ 'POST /api/session': () => jsonResponse(SESSION) });
    const { user, router } = renderRoutes(
      [
        { path: '/sign-in', element: <SignIn /> },
        { path: '/users/list', element: <p>users list</p> },
      ],
      { session: null, route: '/users/list' },
    );
    // As the session guard sends a signed-out visitor: the location they wanted rides along in state.
    await act(() =>
      router.navigate('/sign-in', { state: { from: { pathname: '/users/list', search: '', hash: '' } } }),
    );
    await fillAndSubmit(user, 'admin@acme.example', 'demo-password-1');
    expect(await screen.findByText('users list')).toBeInTheDocument();
    expect(localStorage.getItem('sessid')).toBe('new-session-id');
  });

  it('validates before sending and shows the translated contract messages', async () => {
    const sent = stubApi({});
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('says plainly that sign-in is paused, and for how long', async () => {
    stubApi({
      'POST /api/session': () => {
        const res = jsonResponse(
          { errcode: 9, code: 'account_locked', message: 'Too many failed sign-ins.' },
          423,
        );
        res.headers.set('retry-after', '840');
        return res;
      },
    });
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'admin@acme.example', 'wrong-password');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in paused');
    expect(alert).toHaveTextContent('Too many failed attempts, so sign-in is paused for a while.');
    expect(alert).toHaveTextContent('Try again in 14 minutes.');
  });

  it('translates wrong credentials and clears the password', async () => {
    stubApi({
      'POST /api/session': () =>
        jsonResponse({ errcode: 8, code: 'invalid_credentials', message: 'Wrong e-mail or password.' }, 401),
    });
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'admin@acme.example', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password.');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('admin@acme.example');
  });

  it('offers to resend the verification e-mail when the address is not verified', async () => {
    stubApi({
      'POST /api/session': () =>
        jsonResponse(
          { errcode: 10, code: 'email_not_verified', message: 'Verify your e-mail address first.' },
          403,
        ),
    });
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'new@acme.example', 'demo-password-1');
    const link = await screen.findByRole('link', { name: 'Send the verification e-mail again' });
    expect(link).toHaveAttribute('href', '/email-verification');
  });

  it("shows a partner's name and greeting on its sign-in page", async () => {
    stubApi({
      'GET /api/partner/northwind': () =>
        jsonResponse({
          name: 'northwind',
          displayName: 'Northwind MSP',
          primaryColor: '#aa3300',
          logo: null,
        }),
    });
    renderSignIn('/northwind/sign-in');
    expect(await screen.findByText('Northwind MSP')).toBeInTheDocument();
    expect(screen.getByText('Sign in to your Northwind MSP console.')).toBeInTheDocument();
  });

  it('falls back to the plain sign-in page for an unknown partner', async () => {
    stubApi({});
    renderSignIn('/nobody/sign-in');
    expect(await screen.findByText('Sign in to your Palisade console.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('OTP step', () => {
  it('puts an invalid code on the field', async () => {
    sessionStorage.setItem('transid', 'trans-9');
    stubApi({
      'POST /api/session/otp': () =>
        jsonResponse({ errcode: 12, code: 'otp_invalid', message: 'The code is not valid.' }, 400),
    });
    const { user } = renderRoutes([{ path: '/verify/otp-verification', element: <VerifyOtp /> }], {
      route: '/verify/otp-verification',
      session: null,
    });
    await fillIn(user, screen.getByLabelText(/^Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Authentication code/)).toHaveAccessibleDescription(
        'The code is not valid.',
      ),
    );
  });

  it('asks to sign in first when there is no transaction', () => {
    stubApi({});
    renderRoutes([{ path: '/verify/otp-verification', element: <VerifyOtp /> }], {
      route: '/verify/otp-verification',
      session: null,
    });
    expect(screen.getByRole('heading', { name: 'Sign in first' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/sign-in');
  });
});

describe('sign-in by keyboard', () => {
  it('starts in the e-mail field', async () => {
    stubApi({});
    renderSignIn();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveFocus());
  });

  it('reaches the show-password toggle with Tab, names it and shows the password with Space', async () => {
    stubApi({});
    const { user } = renderSignIn();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveFocus());
    await user.tab();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveFocus();
    await user.paste('demo-password-1');
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.keyboard(' ');
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveFocus();
  });
});
