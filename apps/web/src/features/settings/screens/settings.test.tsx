import { sessionEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, fakeApi } from '../../../testing/fake-api';
import { initTestI18n, makeSession, renderWithProviders } from '../../../testing/render';
import { passwordChangedMessage } from '../components/password-section';
import { Component as Settings } from './settings';

/** The fake API of the settings screen: `answer` answers the password change. */
function fakeSettingsApi(answer: () => FakeAnswer<typeof sessionEndpoints.changePassword>) {
  return fakeApi().on(sessionEndpoints.changePassword, answer);
}

function passwordSection() {
  return screen.getByRole('region', { name: 'Change password' });
}

async function fillPasswords(user: ReturnType<typeof renderWithProviders>['user'], next: string) {
  const section = passwordSection();
  await user.type(within(section).getByLabelText(/^Current password/), 'the-old-password');
  await user.type(within(section).getByLabelText(/^New password/), next);
  await user.type(within(section).getByLabelText(/^Repeat the new password/), next);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('password change', () => {
  it('sends the wish to revoke the API tokens, and says what the change ended', async () => {
    const api = fakeSettingsApi(() => ({ ok: true as const, endedSessions: 2, revokedTokens: 1 }));
    const { user } = renderWithProviders(<Settings />, { session: makeSession() });
    await fillPasswords(user, 'violet-harbour-tulip-58');
    expect(within(passwordSection()).getByText(/signs you out on every other device/)).toBeInTheDocument();
    await user.click(
      within(passwordSection()).getByRole('checkbox', { name: /Also revoke all my API tokens/ }),
    );
    await user.click(within(passwordSection()).getByRole('button', { name: 'Change password' }));

    expect(
      await screen.findByText(
        'Your password was changed. 2 other sessions were signed out and 1 API token was revoked.',
      ),
    ).toBeInTheDocument();
    expect(api.requests.map((s) => s.url.pathname)).toEqual(['/api/me/password']);
    expect(api.calls(sessionEndpoints.changePassword).map((s) => s.sentBody)).toEqual([
      { current: 'the-old-password', next: 'violet-harbour-tulip-58', revokeTokens: true },
    ]);
  }, 15_000);

  it('offers no token revocation to an end user, who has no tokens', async () => {
    const api = fakeSettingsApi(() => ({ ok: true as const, endedSessions: 0, revokedTokens: 0 }));
    const { user } = renderWithProviders(<Settings />, {
      session: makeSession({ usertype: 0, role: 'user' }),
    });
    await fillPasswords(user, 'violet-harbour-tulip-58');
    expect(within(passwordSection()).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(within(passwordSection()).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password was changed.')).toBeInTheDocument();
    expect(api.requests).toHaveLength(1);
    expect(api.calls(sessionEndpoints.changePassword)[0].sentBody).toMatchObject({ revokeTokens: false });
  }, 15_000);

  it('shows why the server refused the new password under its field', async () => {
    fakeSettingsApi(() =>
      apiError('validation_failed', {
        message: 'Some fields are not valid.',
        details: [{ path: 'body.next', message: 'validation.passwordGuessable.similarToCommon' }],
      }),
    );
    const { user } = renderWithProviders(<Settings />, { session: makeSession() });
    await fillPasswords(user, 'password1234');
    await user.click(within(passwordSection()).getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(within(passwordSection()).getByLabelText(/^New password/)).toHaveAccessibleDescription(
        expect.stringContaining('Too easy to guess: this is similar to a commonly used password.'),
      ),
    );
    // Said once, on the field: no failure toast on top.
    expect(screen.queryByText('Your password was not changed.')).not.toBeInTheDocument();
  }, 15_000);
});

describe('passwordChangedMessage', () => {
  const t = initTestI18n().t;

  it('counts what the change ended, in natural sentences, the zero cases included', () => {
    const result = (endedSessions: number, revokedTokens: number) => ({
      ok: true as const,
      endedSessions,
      revokedTokens,
    });
    expect(passwordChangedMessage(t, result(0, 0), false)).toBe('Your password was changed.');
    expect(passwordChangedMessage(t, result(1, 0), false)).toBe(
      'Your password was changed. 1 other session was signed out.',
    );
    expect(passwordChangedMessage(t, result(0, 3), true)).toBe(
      'Your password was changed. 3 API tokens were revoked.',
    );
    expect(passwordChangedMessage(t, result(1, 2), true)).toBe(
      'Your password was changed. 1 other session was signed out and 2 API tokens were revoked.',
    );
    expect(passwordChangedMessage(t, result(2, 0), true)).toBe(
      'Your password was changed. 2 other sessions were signed out. You had no active API tokens to revoke.',
    );
  });
});
