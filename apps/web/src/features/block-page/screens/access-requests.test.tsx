import { type AccessRequest, blockPageEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as AccessRequests } from './access-requests';

const REQUEST: AccessRequest = {
  id: '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a',
  reference: 'BP-ABCDEFGH',
  status: 'pending',
  type: 'domain',
  ruleKind: 'dmn',
  host: 'blocked.example',
  url: null,
  client: '100.64.0.2',
  user: { id: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b', name: 'Eve User' },
  deviceId: null,
  reason: 'Supplier portal',
  createdAt: '2026-12-02T10:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  expiresAt: null,
  note: null,
};

describe('the access requests screen', { timeout: 30_000 }, () => {
  it('lists pending requests and approves one for the chosen time', async () => {
    const api = fakeApi()
      .on(blockPageEndpoints.listAccessRequests, ({ query }) =>
        query.status === 'pending' ? { items: [REQUEST], total: 1 } : { items: [], total: 0 },
      )
      .on(blockPageEndpoints.approveAccessRequest, ({ body }) => ({
        ...REQUEST,
        status: 'approved' as const,
        expiresAt: new Date(Date.now() + body.minutes * 60_000).toISOString(),
      }));
    const { user } = renderWithProviders(<AccessRequests />, {
      route: '/policy/access-requests',
      session: makeSession(),
    });
    const row = (await screen.findByText('blocked.example')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Eve User')).toBeInTheDocument();
    expect(within(row).getByText('Supplier portal')).toBeInTheDocument();
    await user.click(
      within(row).getByRole('button', { name: 'Approve access to blocked.example for Eve User' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve access to blocked.example' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Allow for' }));
    await user.click(await screen.findByRole('option', { name: '4 hours', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Access approved')).toBeInTheDocument();
    expect(api.calls(blockPageEndpoints.approveAccessRequest).map((c) => [c.params.id, c.body])).toEqual([
      [REQUEST.id, { minutes: 240 }],
    ]);
  });

  it('declines with a note, and offers no decision to a role that may only view', async () => {
    const api = fakeApi()
      .on(blockPageEndpoints.listAccessRequests, () => ({ items: [REQUEST], total: 1 }))
      .on(blockPageEndpoints.declineAccessRequest, ({ body }) => ({
        ...REQUEST,
        status: 'declined' as const,
        note: body.note ?? null,
      }));
    const { user } = renderWithProviders(<AccessRequests />, {
      route: '/policy/access-requests',
      session: makeSession(),
    });
    await user.click(
      await screen.findByRole('button', { name: 'Decline access to blocked.example for Eve User' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Decline access to blocked.example' });
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Note to the user (optional)' }),
      'Use the copy',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Request declined')).toBeInTheDocument();
    expect(api.calls(blockPageEndpoints.declineAccessRequest)[0].body).toEqual({ note: 'Use the copy' });
  });

  it('shows no approve or decline buttons to an auditor', async () => {
    fakeApi().on(blockPageEndpoints.listAccessRequests, () => ({ items: [REQUEST], total: 1 }));
    renderWithProviders(<AccessRequests />, {
      route: '/policy/access-requests',
      session: makeSession({ role: 'auditor' }),
    });
    expect(await screen.findByText('blocked.example')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve access/ })).not.toBeInTheDocument();
  });
});
