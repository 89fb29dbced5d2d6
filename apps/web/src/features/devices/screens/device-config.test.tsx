import { x25519 } from '@noble/curves/ed25519.js';
import { type DeviceDetail, deviceEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ago, LAPTOP, makeDeviceDetail } from '../testing/device-fixtures';
import { DeviceDetailScreen } from './device-detail';

// jsdom draws no canvas: the QR code is a stand-in image of the text it was given.
vi.mock('qrcode', () => {
  const toDataURL = vi.fn(async (text: string) => `data:image/png;base64,${btoa(text.length.toString())}`);
  return { toDataURL, default: { toDataURL } };
});

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const SECRET = x25519.utils.randomSecretKey();
const PRIVATE_KEY = toBase64(SECRET);
const PUBLIC_KEY = toBase64(x25519.getPublicKey(SECRET));
const OTHER_KEY = toBase64(x25519.utils.randomSecretKey());
const PLACEHOLDER = '@PALISADE_GATEWAY_PRIVATE_KEY@';
const CONFIG = [
  '[Interface]',
  'Address = 100.64.0.7/32',
  'DNS = 100.100.0.1',
  `PrivateKey = ${PLACEHOLDER}`,
  '',
  '# Frankfurt 1',
  '[Peer]',
  'PublicKey = HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=',
  'AllowedIPs = 0.0.0.0/0, ::/0',
  'Endpoint = 198.51.100.7:51820',
  '',
].join('\n');

const OUTDATED = makeDeviceDetail(
  { ...LAPTOP, configOutdated: true },
  {
    wireguard: {
      publicKey: PUBLIC_KEY,
      address: '100.64.0.7/32',
      peers: [
        {
          gatewayId: '11111111-2222-4333-8444-555555555555',
          name: 'Frankfurt 1',
          publicKey: 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=',
          endpoint: '198.51.100.7:51820',
          allowedIps: ['0.0.0.0/0', '::/0'],
          lastHandshakeAt: null,
        },
      ],
    },
    configDownloadedAt: ago(3 * 86_400_000),
    fullTunnel: true,
  },
);

function fakeConfigApi(start: DeviceDetail) {
  let device = start;
  const api = fakeApi()
    .on(deviceEndpoints.getDeviceDetail, () => device)
    .on(deviceEndpoints.downloadDeviceConfig, () => {
      const downloadedAt = new Date().toISOString();
      device = { ...device, configOutdated: false, configDownloadedAt: downloadedAt };
      return {
        config: CONFIG,
        fingerprint: 'f'.repeat(64),
        address: '100.64.0.7/32',
        publicKey: PUBLIC_KEY,
        fullTunnel: true,
        downloadedAt,
      };
    });
  return api;
}

function renderDevice(role: 'owner' | 'auditor' = 'owner') {
  return renderRoutes([{ path: '/devices/:id', element: <DeviceDetailScreen siteConfig={null} /> }], {
    route: `/devices/${LAPTOP.id}`,
    session: makeSession({ role }),
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a device configuration downloaded again', () => {
  it('says an outdated configuration is outdated, and hands out the current one with the pasted key as a file and a QR code', async () => {
    const api = fakeConfigApi(OUTDATED);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:wireguard');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { user } = renderDevice();
    const section = await screen.findByRole('region', { name: 'WireGuard' });
    expect(within(section).getByText('Configuration outdated — download again')).toBeInTheDocument();
    expect(within(section).getByText('Full tunnel')).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Download the configuration again' }));
    expect(
      await within(section).findByRole('heading', { name: 'The current configuration' }),
    ).toBeInTheDocument();
    expect(api.calls(deviceEndpoints.downloadDeviceConfig)).toHaveLength(1);
    await waitFor(() =>
      expect(within(section).queryByText('Configuration outdated — download again')).not.toBeInTheDocument(),
    );

    // Another device's key is refused, and no QR code is drawn with it.
    const keyField = within(section).getByLabelText('Private key of this device');
    await user.type(keyField, OTHER_KEY);
    expect(
      await within(section).findByText('This is not the private key of this device.'),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('img')).not.toBeInTheDocument();

    await user.clear(keyField);
    await user.type(keyField, PRIVATE_KEY);
    expect(
      await within(section).findByRole('img', {
        name: 'QR code of the WireGuard configuration of Ann’s laptop',
      }),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Download palisade-ann-s-laptop.conf' }));
    expect(clicked.map((link) => link.download)).toEqual(['palisade-ann-s-laptop.conf']);
    const file = await createObjectURL.mock.calls[0][0].text();
    expect(file).toContain(`PrivateKey = ${PRIVATE_KEY}`);
    expect(file).not.toContain(PLACEHOLDER);
    expect(file).toContain('AllowedIPs = 0.0.0.0/0, ::/0');
    const qrcode = await import('qrcode');
    expect(qrcode.toDataURL).toHaveBeenCalledWith(file, expect.anything());
    // The private key went nowhere: no call carried it.
    expect(JSON.stringify(api.calls(deviceEndpoints.downloadDeviceConfig))).not.toContain(PRIVATE_KEY);
    expect(api.unhandled).toEqual([]);
  });

  it('offers no download to a role that may not change devices, but still says it is outdated', async () => {
    fakeConfigApi(OUTDATED);
    renderDevice('auditor');
    const section = await screen.findByRole('region', { name: 'WireGuard' });
    expect(within(section).getByText('Configuration outdated — download again')).toBeInTheDocument();
    expect(
      within(section).queryByRole('button', { name: 'Download the configuration again' }),
    ).not.toBeInTheDocument();
  });
});
