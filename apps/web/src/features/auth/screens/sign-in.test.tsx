import { HOME_PATH, sessionEndpoints } from '@palisade/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { fillIn } from '../testing/fill-in';
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

afterEach(async () => {
  vi.unstubAllGlobals();
  if (i18n.isInitialized) await i18n.changeLanguage('en');
});

describe('sign-in', () => {
  it('goes to the OTP step with the transaction when a second factor is required', async () => {
    const api = fakeApi()
      .on(sessionEndpoints.signIn, () => ({ otpRequired: true as const, transid: 'trans-123' }))
      .on(sessionEndpoints.signInOtp, () => SESSION);
    const { user, router } = renderSignIn();
    await fillAndSubmit(user, 'Admin@Acme.example', 'demo-password-1');

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify/otp-verification');
    expect(router.state.location.state).toMatchObject({ transid: 'trans-123' });
    expect(sessionStorage.getItem('transid')).toBe('trans-123');
    expect(api.requests[0]).toMatchObject({ method: 'POST', endpoint: sessionEndpoints.signIn });
    // As typed, but the address in lower case: the web normalises it before sending.
    expect(api.calls(sessionEndpoints.signIn)[0].sentBody).toEqual({
      username: 'admin@acme.example',
      password: 'demo-password-1',
    });

    // The code completes the sign-in with that transaction and lands on the home dashboard.
    await fillIn(user, screen.getByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('home dashboard')).toBeInTheDocument();
    expect(api.requests.at(-1)).toMatchObject({
      endpoint: sessionEndpoints.signInOtp,
      body: { transid: 'trans-123', code: '123456' },
    });
    expect(api.unhandled).toEqual([]);
    expect(localStorage.getItem('sessid')).toBe('new-session-id');
    expect(sessionStorage.getItem('transid')).toBeNull();
  });

  it('stores the session and returns to where the user was going', async () => {
    const api = fakeApi().on(sessionEndpoints.signIn, () => SESSION);
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
    expect(api.unhandled).toEqual([]);
  });

  it('validates before sending and shows the translated contract messages', async () => {
    const api = fakeApi();
    const { user } = renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('says plainly that sign-in is paused, and for how long', async () => {
    fakeApi().on(sessionEndpoints.signIn, () =>
      apiError('account_locked', { message: 'Too many failed sign-ins.', headers: { 'retry-after': '840' } }),
    );
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'admin@acme.example', 'wrong-password');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in paused');
    expect(alert).toHaveTextContent('Too many failed attempts, so sign-in is paused for a while.');
    expect(alert).toHaveTextContent('Try again in 14 minutes.');
  });

  it('translates wrong credentials and clears the password', async () => {
    fakeApi().on(sessionEndpoints.signIn, () =>
      apiError('invalid_credentials', { message: 'Wrong e-mail or password.' }),
    );
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'admin@acme.example', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password.');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('admin@acme.example');
  });

  it('says in words that the workspace refuses Internet Explorer, and keeps the form', async () => {
    fakeApi().on(sessionEndpoints.signIn, () =>
      apiError('browser_unsupported', { message: 'server words, not shown' }),
    );
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'admin@acme.example', 'demo-password-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'This workspace does not allow Internet Explorer. Sign in with a current browser such as Edge, Firefox, Chrome or Safari.',
    );
    expect(alert).not.toHaveTextContent('server words');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('admin@acme.example');
  });

  it('says it in German too', async () => {
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    fakeApi().on(sessionEndpoints.signIn, () => apiError('browser_unsupported'));
    const { user } = renderSignIn();
    await fillIn(user, await screen.findByLabelText(/^E-Mail/), 'admin@acme.example');
    await fillIn(user, screen.getByLabelText(/^Passwort/), 'demo-password-1');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Dieser Arbeitsbereich lässt Internet Explorer nicht zu. Melden Sie sich mit einem aktuellen Browser wie Edge, Firefox, Chrome oder Safari an.',
    );
  });

  it('offers to resend the verification e-mail when the address is not verified', async () => {
    fakeApi().on(sessionEndpoints.signIn, () =>
      apiError('email_not_verified', { message: 'Verify your e-mail address first.' }),
    );
    const { user } = renderSignIn();
    await fillAndSubmit(user, 'new@acme.example', 'demo-password-1');
    const link = await screen.findByRole('link', { name: 'Send the verification e-mail again' });
    expect(link).toHaveAttribute('href', '/email-verification');
  });

  it("shows a partner's name and greeting on its sign-in page", async () => {
    fakeApi().on(sessionEndpoints.partnerBranding, ({ params }) =>
      params.name === 'northwind'
        ? { name: 'northwind', displayName: 'Northwind MSP', primaryColor: '#aa3300', logo: null }
        : apiError('not_found'),
    );
    renderSignIn('/northwind/sign-in');
    expect(await screen.findByText('Northwind MSP')).toBeInTheDocument();
    expect(screen.getByText('Sign in to your Northwind MSP console.')).toBeInTheDocument();
  });

  it('falls back to the plain sign-in page for an unknown partner', async () => {
    const api = fakeApi().on(sessionEndpoints.partnerBranding, () => apiError('not_found'));
    renderSignIn('/nobody/sign-in');
    expect(await screen.findByText('Sign in to your Palisade console.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls(sessionEndpoints.partnerBranding)).toHaveLength(1));
    expect(api.calls(sessionEndpoints.partnerBranding)[0].params).toEqual({ name: 'nobody' });
  });
});

describe('OTP step', () => {
  it('puts an invalid code on the field', async () => {
    sessionStorage.setItem('transid', 'trans-9');
    const api = fakeApi().on(sessionEndpoints.signInOtp, () =>
      apiError('otp_invalid', { message: 'The code is not valid.' }),
    );
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
    expect(api.calls(sessionEndpoints.signInOtp)[0].body).toEqual({ transid: 'trans-9', code: '000000' });
  });

  it('says in words when the workspace refuses Internet Explorer at the code step', async () => {
    sessionStorage.setItem('transid', 'trans-9');
    fakeApi().on(sessionEndpoints.signInOtp, () => apiError('browser_unsupported'));
    const { user } = renderRoutes([{ path: '/verify/otp-verification', element: <VerifyOtp /> }], {
      route: '/verify/otp-verification',
      session: null,
    });
    await fillIn(user, screen.getByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This workspace does not allow Internet Explorer. Sign in with a current browser such as Edge, Firefox, Chrome or Safari.',
    );
  });

  it('asks to sign in first when there is no transaction', () => {
    const api = fakeApi();
    renderRoutes([{ path: '/verify/otp-verification', element: <VerifyOtp /> }], {
      route: '/verify/otp-verification',
      session: null,
    });
    expect(screen.getByRole('heading', { name: 'Sign in first' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/sign-in');
    expect(api.requests).toEqual([]);
  });
});

describe('sign-in by keyboard', () => {
  it('starts in the e-mail field', async () => {
    fakeApi();
    renderSignIn();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveFocus());
  });

  it('reaches the show-password toggle with Tab, names it and shows the password with Space', async () => {
    fakeApi();
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
