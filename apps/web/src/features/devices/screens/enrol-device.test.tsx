import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { fakeApi } from '../testing/fake-api';
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

/** A fake public enrolment API: the token is known with `kind`, and enrolling works once. */
function stubEnrol(kind: 'link' | 'agentless' | 'rmm' | null) {
  let isUsed = false;
  return fakeApi(({ method, url }) => {
    if (method === 'GET' && url.pathname === `/api/enrol/${TOKEN}` && kind && !isUsed) {
      return jsonResponse(info(kind));
    }
    if (method === 'POST' && url.pathname === '/api/enrol' && kind && !isUsed) {
      isUsed = true;
      return jsonResponse({ deviceId: 'd-1', tenant: 'acme', userId: 'u-1', deviceToken: 'pdt_secret' }, 201);
    }
    return undefined;
  });
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
    const api = stubEnrol('agentless');
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
    expect(api.calls('POST', '/api/enrol')[0].body).toEqual({
      token: TOKEN,
      device: { name: 'Chrome on Linux', os: 'chrome' },
    });
    // A public call: no session header went out.
    const fetchMock = vi.mocked(fetch);
    for (const [request] of fetchMock.mock.calls)
      expect((request as Request).headers.has('X-Auth-Token')).toBe(false);
  });

  it('offers the clients and the token to paste for a client link, and the browser as well', async () => {
    const api = stubEnrol('link');
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
    expect(api.calls('POST', '/api/enrol')).toHaveLength(1);
  });

  it('says plainly when the link is not valid (404)', async () => {
    const api = stubEnrol(null);
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'This enrolment link is not valid' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Ask your administrator for a new link/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register this browser' })).not.toBeInTheDocument();
    expect(api.calls('GET', `/api/enrol/${TOKEN}`)).toHaveLength(1);
  });

  it('says the link is not valid when it was used up before the browser registered', async () => {
    fakeApi(({ method, url }) => {
      if (method === 'GET' && url.pathname === `/api/enrol/${TOKEN}`) return jsonResponse(info('agentless'));
      return undefined;
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Register this browser' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'This enrolment link is not valid' })).toBeInTheDocument(),
    );
  });
});
