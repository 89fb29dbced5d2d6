import { x25519 } from '@noble/curves/ed25519.js';
import { enrolmentEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderRoutes } from '../../../testing/render';
import { Component as EnrolDevice } from './enrol-device';

// jsdom draws no canvas: the QR code is a stand-in image of the text it was given.
vi.mock('qrcode', () => {
  const toDataURL = vi.fn(async (text: string) => `data:image/png;base64,${btoa(text.length.toString())}`);
  return { toDataURL, default: { toDataURL } };
});

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

/** What the server leaves for the device to fill in (packages/gateway-config's PRIVATE_KEY_PLACEHOLDER). */
const PLACEHOLDER = '@PALISADE_GATEWAY_PRIVATE_KEY@';
const GATEWAY_KEY = `${'G'.repeat(42)}A=`;

/** The tunnel the server answers for a device that sent a WireGuard key. */
const tunnel = {
  address: '100.64.0.7/32',
  dns: ['100.64.0.1'],
  peers: [
    {
      gatewayId: 'g-1',
      name: 'Frankfurt',
      publicKey: GATEWAY_KEY,
      endpoint: 'fra.example:51820',
      allowedIps: ['10.0.0.0/8'],
    },
    { gatewayId: 'g-2', name: 'Paris', publicKey: GATEWAY_KEY, endpoint: null, allowedIps: ['10.1.0.0/16'] },
  ],
  config: [
    '[Interface]',
    `PrivateKey = ${PLACEHOLDER}`,
    'Address = 100.64.0.7/32',
    'DNS = 100.64.0.1',
    '',
    '[Peer]',
    `PublicKey = ${GATEWAY_KEY}`,
    'Endpoint = fra.example:51820',
    'AllowedIPs = 10.0.0.0/8',
    '',
  ].join('\n'),
};

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

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
      const wireguard = body.publicKey ? tunnel : null;
      return { deviceId: 'd-1', tenant: 'acme', userId: 'u-1', deviceToken: 'pdt_secret', wireguard };
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

  it('enrols with a WireGuard key made in the browser and hands over the filled configuration', async () => {
    const api = fakeEnrolApi('link');
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:wireguard');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    // The download's click would navigate the test document to the blob URL.
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderPage();
    const section = await screen.findByRole('region', { name: 'Download a WireGuard configuration' });
    const name = within(section).getByRole('textbox', { name: /^Device name/ });
    expect(name).toHaveValue('WireGuard device');
    // The system is guessed from the browser (Linux here) and can be changed.
    expect(within(section).getByRole('combobox', { name: 'Operating system' })).toHaveValue('Linux');
    await user.clear(name);
    await user.type(name, 'Ann’s Phone');
    await user.click(within(section).getByRole('combobox', { name: 'Operating system' }));
    await user.click(await screen.findByRole('option', { name: 'Android', hidden: true }));
    await user.click(within(section).getByRole('button', { name: 'Create the configuration' }));

    expect(
      await screen.findByRole('heading', { name: 'Your WireGuard configuration is ready' }),
    ).toBeInTheDocument();
    expect(api.enrolments()).toHaveLength(1);
    const sent = api.enrolments()[0].sentBody as { publicKey: string };
    expect(sent).toEqual({
      token: TOKEN,
      device: { name: 'Ann’s Phone', os: 'android' },
      publicKey: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
    });
    expect(fromBase64(sent.publicKey)).toHaveLength(32);
    expect(screen.getByText(/shown only now/)).toBeInTheDocument();
    expect(screen.getByText('100.64.0.7/32')).toBeInTheDocument();
    expect(screen.getByText('Frankfurt')).toBeInTheDocument();
    expect(screen.getByText('Paris')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of the WireGuard configuration' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download palisade-ann-s-phone.conf' }));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(clicked.map((link) => link.download)).toEqual(['palisade-ann-s-phone.conf']);
    const config = await createObjectURL.mock.calls[0][0].text();
    expect(config).not.toContain(PLACEHOLDER);
    const privateKey = config.match(/^PrivateKey = (\S+)$/m)?.[1] ?? '';
    expect(privateKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // The key sent is the public half of the key in the file.
    expect(btoa(String.fromCharCode(...x25519.getPublicKey(fromBase64(privateKey))))).toBe(sent.publicKey);
    expect(config).toContain(`PublicKey = ${GATEWAY_KEY}`);
    const qrcode = await import('qrcode');
    expect(qrcode.toDataURL).toHaveBeenCalledWith(config, expect.anything());
    expect(api.api.unhandled).toEqual([]);
  });

  it('says the link is not valid when it was used up before the WireGuard configuration was made', async () => {
    const api = fakeEnrolApi('link', { isUsedUpMeanwhile: true });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Create the configuration' }));
    expect(
      await screen.findByRole('heading', { name: 'This enrolment link is not valid' }),
    ).toBeInTheDocument();
    expect(api.enrolments().map((call) => call.status)).toEqual([404]);
  });

  it('shows what is wrong with the device rather than calling the link invalid (400 with details)', async () => {
    const api = fakeEnrolApi('link');
    api.api.on(enrolmentEndpoints.enrol, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.device.name', message: 'validation.tooLong' }],
      }),
    );
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Create the configuration' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This is too long.');
    expect(screen.getByRole('heading', { name: 'Enrol your device' })).toBeInTheDocument();
  });

  it('offers no WireGuard configuration for an agentless link', async () => {
    fakeEnrolApi('agentless');
    renderPage();
    await screen.findByRole('heading', { name: 'Register this browser' });
    expect(screen.queryByText('Download a WireGuard configuration')).not.toBeInTheDocument();
  });
});
