import { enrolmentEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { Component as EnrolDevice } from './enrol-device';

const TOKEN = `pel_${'M4'.repeat(20)}`;
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

function info(kind: 'link' | 'agentless' | 'rmm') {
  return {
    tenant: 'acme',
    tenantDisplayName: 'Acme Corp',
    kind,
    username: kind === 'rmm' ? null : 'ann@acme.example',
    expiresAt: new Date(Date.now() + 3 * 86_400_000 + 60_000).toISOString(),
  };
}

/** How the server refuses a token it does not know, or one used, revoked or expired. */
const invalidLink = () =>
  apiError('not_found', { message: 'This enrolment link is invalid or has expired.' });

/**
 * The fake public enrolment API: the token is known with `kind` (unknown when null), and enrolling with it works
 * once. `isUsedUpMeanwhile` has someone else use it up between the page's look-up and the registration.
 */
function fakeEnrolApi(kind: 'link' | 'agentless' | 'rmm' | null, { isUsedUpMeanwhile = false } = {}) {
  let isUsed = false;
  const api = fakeApi()
    .on(enrolmentEndpoints.enrolmentInfo, ({ params }) =>
      kind && params.token === TOKEN && !isUsed ? info(kind) : invalidLink(),
    )
    .on(enrolmentEndpoints.enrol, ({ body }) => {
      if (!kind || body.token !== TOKEN || isUsed || isUsedUpMeanwhile) return invalidLink();
      isUsed = true;
      return { deviceId: 'd-1', tenant: 'acme', userId: 'u-1', deviceToken: 'pdt_secret', wireguard: null };
    });
  return {
    api,
    lookUps: () => api.calls(enrolmentEndpoints.enrolmentInfo),
    enrolments: () => api.calls(enrolmentEndpoints.enrol),
  };
}

function renderPage(token = TOKEN) {
  // The public page runs without a session.
  return renderRoutes([{ path: '/verify/wg/:id', element: <EnrolDevice /> }], {
    route: `/verify/wg/${token}`,
    session: null,
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME_LINUX);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('enrolment page', () => {
  it('registers this browser for an agentless link, named after the browser', async () => {
    const api = fakeEnrolApi('agentless');
    const { user } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Register this browser' })).toBeInTheDocument();
    expect(screen.getByText('Acme Corp')).toBeInTheDocument();
    expect(screen.getByText('ann@acme.example')).toBeInTheDocument();
    expect(screen.getByText(/in 3 days/)).toBeInTheDocument();
    expect(screen.getByText('This browser will be registered as “Chrome on Linux”.')).toBeInTheDocument();
    // An agentless link offers no client download.
    expect(screen.queryByText('1. Install the Palisade client')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Register this browser' }));
    expect(await screen.findByRole('heading', { name: 'This browser is registered' })).toBeInTheDocument();
    expect(screen.getByText(/registered as “Chrome on Linux” for Acme Corp/)).toBeInTheDocument();
    expect(api.enrolments()[0].sentBody).toEqual({
      token: TOKEN,
      device: { name: 'Chrome on Linux', os: 'chrome' },
    });
    // Public calls: no session header went out.
    expect(api.api.unhandled).toEqual([]);
    const calls = [...api.lookUps(), ...api.enrolments()];
    expect(calls).toHaveLength(api.api.requests.length);
    for (const call of calls) expect(call.headers.has('X-Auth-Token')).toBe(false);
  });

  it('offers the clients and the token to paste for a client link, and the browser as well', async () => {
    const api = fakeEnrolApi('link');
    const { user } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Enrol your device' })).toBeInTheDocument();
    const install = screen.getByRole('region', { name: '1. Install the Palisade client' });
    for (const os of ['Windows', 'macOS', 'Android', 'iOS', 'Linux']) {
      expect(within(install).getByText(os)).toBeInTheDocument();
    }
    const tokenSection = screen.getByRole('region', { name: '2. Paste this token into the client' });
    expect(within(tokenSection).getByText(TOKEN)).toBeInTheDocument();
    await user.click(within(tokenSection).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);

    await user.click(screen.getByRole('button', { name: 'Register this browser' }));
    expect(await screen.findByRole('heading', { name: 'This browser is registered' })).toBeInTheDocument();
    expect(api.enrolments()).toHaveLength(1);
    expect(api.enrolments()[0].status).toBe(201);
    expect(api.api.unhandled).toEqual([]);
  });

  it('says plainly when the link is not valid (404)', async () => {
    const api = fakeEnrolApi(null);
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'This enrolment link is not valid' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Ask your administrator for a new link/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register this browser' })).not.toBeInTheDocument();
    expect(api.lookUps()).toHaveLength(1);
    expect(api.lookUps()[0].params.token).toBe(TOKEN);
    expect(api.api.requests).toHaveLength(1);
  });

  it('says the link is not valid when it was used up before the browser registered', async () => {
    const api = fakeEnrolApi('agentless', { isUsedUpMeanwhile: true });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Register this browser' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'This enrolment link is not valid' })).toBeInTheDocument(),
    );
    expect(api.enrolments().map((call) => call.status)).toEqual([404]);
    expect(api.api.unhandled).toEqual([]);
  });
});
