import { sessionEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { fillIn } from '../testing/fill-in';
import { Component as EmailVerification } from './email-verification';
import { Component as SignUp, suggestWorkspaceName } from './sign-up';

function renderSignUp() {
  return renderRoutes(
    [
      { path: '/sign-up', element: <SignUp /> },
      { path: '/email-verification', element: <EmailVerification /> },
    ],
    { route: '/sign-up', session: null },
  );
}

async function fill(user: ReturnType<typeof renderSignUp>['user'], confirm = 'correct-horse-battery') {
  await fillIn(user, screen.getByLabelText(/^Organisation name/), 'Globex Corporation');
  await fillIn(user, screen.getByLabelText(/^First name/), 'Hank');
  await fillIn(user, screen.getByLabelText(/^Last name/), 'Scorpio');
  await fillIn(user, screen.getByLabelText(/^Email/), 'hank@globex.example');
  await fillIn(user, screen.getByLabelText(/^Password/), 'correct-horse-battery');
  await fillIn(user, screen.getByLabelText(/^Confirm password/), confirm);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sign-up', () => {
  it('creates the workspace and shows "check your inbox" with the address', async () => {
    const api = fakeApi()
      .on(sessionEndpoints.signUp, () => ({ transid: 't-1', email: 'hank@globex.example' }))
      .on(sessionEndpoints.transStatus, ({ params }) =>
        params.transid === 't-1'
          ? { transid: 't-1', transstatus: 'pending' as const, userstatus: 'pending' as const }
          : apiError('not_found'),
      )
      .on(sessionEndpoints.resendVerification, () => ({ ok: true as const }));
    const { user } = renderSignUp();
    await fill(user);
    // The workspace name was proposed from the organisation name.
    expect(screen.getByLabelText(/^Workspace name/)).toHaveValue('globex-corporation');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('hank@globex.example')).toBeInTheDocument();
    expect(api.requests[0]).toMatchObject({ method: 'POST', endpoint: sessionEndpoints.signUp });
    expect(api.calls(sessionEndpoints.signUp)).toHaveLength(1);
    const [signUp] = api.calls(sessionEndpoints.signUp);
    expect(signUp.status).toBe(201);
    expect(signUp.sentBody).toEqual({
      organisation: 'Globex Corporation',
      tenant: 'globex-corporation',
      firstname: 'Hank',
      lastname: 'Scorpio',
      email: 'hank@globex.example',
      password: 'correct-horse-battery',
    });

    // The page asks how the sign-up stands by the id the answer gave, and says it will update by itself.
    expect(await screen.findByText(/shows when your address is verified/)).toBeInTheDocument();
    expect(api.calls(sessionEndpoints.transStatus).some((s) => s.params.transid === 't-1')).toBe(true);

    // The resend form is pre-filled with the address.
    await user.click(screen.getByRole('button', { name: 'Send the verification e-mail again' }));
    expect(await screen.findByText(/a new link is on its way/)).toBeInTheDocument();
    expect(api.requests.filter((s) => s.method === 'POST').at(-1)).toMatchObject({
      endpoint: sessionEndpoints.resendVerification,
      status: 202,
    });
    expect(api.calls(sessionEndpoints.resendVerification)[0].sentBody).toEqual({
      email: 'hank@globex.example',
    });
    expect(api.unhandled).toEqual([]);
  });

  it('shows why the server refused the password under the password field', async () => {
    fakeApi().on(sessionEndpoints.signUp, () =>
      apiError('validation_failed', {
        message: 'Some fields are not valid.',
        details: [{ path: 'body.password', message: 'validation.passwordGuessable.similarToCommon' }],
      }),
    );
    const { user, router } = renderSignUp();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
        expect.stringContaining('Too easy to guess: this is similar to a commonly used password.'),
      ),
    );
    expect(screen.getByLabelText(/^Password/)).toHaveFocus();
    expect(router.state.location.pathname).toBe('/sign-up');
  });

  it('refuses passwords that differ, without sending', async () => {
    const api = fakeApi();
    const { user } = renderSignUp();
    await fill(user, 'something-else-entirely');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Confirm password/)).toHaveAccessibleDescription(
        'The passwords do not match.',
      ),
    );
    expect(api.requests).toHaveLength(0);
  });

  it('shows a taken workspace name on its field', async () => {
    fakeApi().on(sessionEndpoints.signUp, () =>
      apiError('tenant_exists', {
        message: 'This workspace name is taken.',
        details: [{ path: 'body.tenant', message: 'validation.tenantTaken' }],
      }),
    );
    const { user } = renderSignUp();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Workspace name/)).toHaveAccessibleDescription(
        expect.stringContaining('This workspace name is taken.'),
      ),
    );
    expect(screen.getByLabelText(/^Workspace name/)).toHaveFocus();
  });
});

describe('suggestWorkspaceName', () => {
  it('makes a valid tenant slug', () => {
    expect(suggestWorkspaceName('Müller & Söhne GmbH')).toBe('muller-sohne-gmbh');
    expect(suggestWorkspaceName('  --ACME--  ')).toBe('acme');
    expect(suggestWorkspaceName(`${'x'.repeat(39)} y`)).toBe('x'.repeat(39));
  });
});
