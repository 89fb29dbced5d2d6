import { type BlockPageInfo, blockPageEndpoints } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderWithProviders } from '../../../testing/render';
import { Component as BlockPage } from './block-page';

const TENANT = '5b0f3a52-8d4e-4e1c-9a0b-1f2e3d4c5b6a';
const RULE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

const INFO: BlockPageInfo = {
  generic: false,
  type: 'domain',
  branding: { displayName: 'ACME', primaryColor: '#1c5d99', accentColor: null, logo: null },
  host: 'blocked.example',
  url: 'http://blocked.example/a',
  ruleId: RULE,
  ruleKind: 'dmn',
  layer: 'dns',
  category: null,
  at: '2026-12-02T10:00:00.000Z',
  reference: 'BP-ABCDEFGH',
  canRequest: true,
};

const GENERIC: BlockPageInfo = {
  ...INFO,
  generic: true,
  type: null,
  branding: null,
  host: null,
  url: null,
  ruleId: null,
  ruleKind: null,
  layer: null,
  canRequest: false,
};

const renderPage = (
  route = `/blockaccess/domain/${RULE}?tenant=${TENANT}&host=blocked.example&client=100.64.0.2`,
) => renderWithProviders(<BlockPage />, { route, path: '/blockaccess/:type/:id' });

describe('the block page', { timeout: 30_000 }, () => {
  it('shows what was blocked in the tenant’s name and sends a request for access with the reason', async () => {
    const api = fakeApi()
      .on(blockPageEndpoints.blockPageRule, () => INFO)
      .on(blockPageEndpoints.requestAccess, () => ({ reference: 'BP-ABCDEFGH', status: 'pending' as const }));
    const { user } = renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This site is blocked' }),
    ).toBeInTheDocument();
    expect(screen.getByText('ACME')).toBeInTheDocument();
    expect(screen.getByText('blocked.example')).toBeInTheDocument();
    expect(screen.getByText('A blocked website')).toBeInTheDocument();
    expect(screen.getByText('BP-ABCDEFGH')).toBeInTheDocument();
    expect(api.calls(blockPageEndpoints.blockPageRule)[0].query).toEqual({
      tenant: TENANT,
      host: 'blocked.example',
      client: '100.64.0.2',
    });

    // An empty reason is not sent.
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Say why you need access.')).toBeInTheDocument();
    expect(api.calls(blockPageEndpoints.requestAccess)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: /Why do you need access/ }), 'Supplier portal');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Request sent')).toBeInTheDocument();
    const [call] = api.calls(blockPageEndpoints.requestAccess);
    expect(call.params).toEqual({ type: 'domain', id: RULE });
    expect(call.body).toMatchObject({
      tenant: TENANT,
      host: 'blocked.example',
      client: '100.64.0.2',
      reference: 'BP-ABCDEFGH',
      reason: 'Supplier portal',
    });
  });

  it('says when the user already asked, and when there were too many requests', async () => {
    const api = fakeApi()
      .on(blockPageEndpoints.blockPageRule, () => INFO)
      .on(blockPageEndpoints.requestAccess, () => apiError('access_request_pending'));
    const { user } = renderPage();
    await user.type(await screen.findByRole('textbox', { name: /Why do you need access/ }), 'Work');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('You already asked')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument();

    api.on(blockPageEndpoints.requestAccess, () =>
      apiError('rate_limited', { headers: { 'retry-after': '600' } }),
    );
    const second = renderPage();
    await second.user.type(
      (await screen.findAllByRole('textbox', { name: /Why do you need access/ })).at(-1) as HTMLElement,
      'Work',
    );
    await second.user.click(screen.getAllByRole('button', { name: 'Send request' }).at(-1) as HTMLElement);
    expect(await screen.findByText('Please try again in 10 minutes.')).toBeInTheDocument();
  });

  it('shows the generic page, without a form, for what the server does not know', async () => {
    fakeApi().on(blockPageEndpoints.blockPageRule, () => GENERIC);
    renderPage(`/blockaccess/nonsense/${RULE}?tenant=x`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This page is blocked' }),
    ).toBeInTheDocument();
    expect(screen.getByText('BP-ABCDEFGH')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument();
  });
});
