import { type PartnerSettings, partnerEndpoints, sessionEndpoints } from '@palisade/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as PartnerSettingsScreen } from './partner-settings';

const PARTNER = makeSession({
  role: 'partner_admin',
  tenant: 'northwind',
  tenantDisplayName: 'Northwind',
  tenantKind: 'partner',
});

const STORED: PartnerSettings = {
  name: 'northwind',
  displayName: 'Northwind',
  primaryColor: '#1c5d99',
  accentColor: null,
  logo: null,
  support: { email: null, phone: null, url: null, hours: null },
};

function fakeSettingsApi() {
  let stored = STORED;
  return fakeApi()
    .on(sessionEndpoints.getSession, () => PARTNER)
    .on(partnerEndpoints.getPartnerSettings, () => stored)
    .on(partnerEndpoints.updatePartnerSettings, ({ body }) => {
      if (body.support.email?.endsWith('.invalid')) {
        return apiError('validation_failed', {
          details: [{ path: 'body.support.email', message: 'validation.email' }],
        });
      }
      stored = { ...stored, ...body };
      return stored;
    })
    .on(partnerEndpoints.uploadPartnerLogo, () => {
      stored = { ...stored, logo: '/api/partner/northwind/logo?v=0123456789abcdef' };
      return stored;
    })
    .on(partnerEndpoints.deletePartnerLogo, () => {
      stored = { ...stored, logo: null };
      return stored;
    });
}

const changes = (api: FakeApi) => api.requests.filter((request) => request.method !== 'GET');
const renderSettings = () =>
  renderWithProviders(<PartnerSettingsScreen />, { session: PARTNER, route: '/admin-console/settings' });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('partner settings', () => {
  it('previews the sign-in card live and saves the settings', async () => {
    const api = fakeSettingsApi();
    const { user } = renderSettings();
    const name = await screen.findByLabelText(/Display name/);
    expect(name).toHaveValue('Northwind');
    const preview = screen.getByLabelText('Preview');
    await user.clear(name);
    await user.type(name, 'Northwind Networks');
    expect(within(preview).getByText('Northwind Networks')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Support e-mail'), 'help@northwind.test');
    await user.type(screen.getByLabelText('Support hours'), 'Mon–Fri 8–18');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({
      endpoint: partnerEndpoints.updatePartnerSettings,
      params: { tenant: 'northwind' },
      sentBody: {
        displayName: 'Northwind Networks',
        primaryColor: '#1c5d99',
        accentColor: null,
        support: { email: 'help@northwind.test', phone: null, url: null, hours: 'Mon–Fri 8–18' },
      },
    });
    expect(await screen.findByText('The partner settings were saved.')).toBeInTheDocument();
  });

  it('shows the browser check and the server check on the fields, sending nothing invalid', async () => {
    const api = fakeSettingsApi();
    const { user } = renderSettings();
    await screen.findByLabelText(/Display name/);
    await user.type(screen.getByLabelText('Support website'), 'ftp://example.test');
    await user.type(screen.getByLabelText('Support phone'), 'call me');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter an http:// or https:// address.')).toBeInTheDocument();
    expect(screen.getByText(/Enter a phone number/)).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);

    await user.clear(screen.getByLabelText('Support website'));
    await user.clear(screen.getByLabelText('Support phone'));
    // The server refuses what the browser let through: its word shows on the field.
    await user.type(screen.getByLabelText('Support e-mail'), 'help@northwind.invalid');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(screen.getByLabelText('Support e-mail')).toHaveAccessibleDescription(/e-mail/i);
  });

  it('refuses an SVG or a too large logo in the browser, uploads a PNG and removes it', async () => {
    const api = fakeSettingsApi();
    const { user } = renderSettings();
    await screen.findByLabelText(/Display name/);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const choose = (file: File) => fireEvent.change(input, { target: { files: [file] } });
    choose(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a PNG, JPEG or WebP image.');
    const big = new File([new Uint8Array(300 * 1024)], 'big.png', { type: 'image/png' });
    choose(big);
    expect(await screen.findByRole('alert')).toHaveTextContent('larger than 256 kB');
    expect(changes(api)).toHaveLength(0);

    choose(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({ endpoint: partnerEndpoints.uploadPartnerLogo });
    expect((changes(api)[0] as { headers?: Headers }).headers?.get('content-type')).toBe('image/png');
    expect(await screen.findByAltText('Current logo')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove logo' }));
    await waitFor(() => expect(changes(api)).toHaveLength(2));
    expect(await screen.findByText('No logo yet.')).toBeInTheDocument();
  });
});
