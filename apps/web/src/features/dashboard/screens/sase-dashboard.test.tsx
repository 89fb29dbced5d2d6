import type { DashboardSummary } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderWithProviders } from '../../../testing/render';
import { Component as SaseDashboard } from './sase-dashboard';

const fetchMock = vi.fn<(input: Request) => Promise<Response>>();

function summary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    users: 12_345,
    connectedUsers: 1_200,
    privateAccessUsers: 40,
    internetAccessUsers: 7,
    xdrUsers: 3,
    administrators: 2,
    groups: 1_000_000,
    recentEvents: [
      {
        id: 'e1',
        at: new Date(Date.now() - 5 * 60_000 - 5_000).toISOString(),
        actor: 'admin@acme.example',
        action: 'user.create',
        objectType: 'user',
        objectId: 'u1',
        objectName: 'alice@acme.example',
        ip: '10.0.0.1',
      },
    ],
    ...overrides,
  };
}

function setup(path = '/main-dashboards/global/SASEDashboard') {
  return renderWithProviders(<SaseDashboard />, {
    route: path,
    path: '/main-dashboards/:id/SASEDashboard',
    session: makeSession(),
  });
}

describe('SASE dashboard', () => {
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("shows the working tenant's counts grouped in thousands and the recent events", async () => {
    fetchMock.mockResolvedValue(jsonResponse(summary()));
    setup();
    const users = await screen.findByRole('region', { name: 'Users' });
    expect(within(users).getByText('12,345')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Groups' })).getByText('1,000,000')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Connected' })).getByText('1,200')).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /alice@acme\.example/ });
    expect(within(row).getByText('5 minutes ago')).toBeInTheDocument();
    expect(within(row).getByText('User created')).toBeInTheDocument();
    expect(new URL(fetchMock.mock.calls[0][0].url).pathname).toBe('/api/dashboard/acme/summary');
  });

  it('uses the tenant named in the path instead of the global view', async () => {
    fetchMock.mockResolvedValue(jsonResponse(summary()));
    setup('/main-dashboards/globex/SASEDashboard');
    await screen.findByRole('region', { name: 'Users' });
    expect(new URL(fetchMock.mock.calls[0][0].url).pathname).toBe('/api/dashboard/globex/summary');
  });

  it('shows an empty state when there is nothing yet', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        summary({
          users: 0,
          connectedUsers: 0,
          privateAccessUsers: 0,
          internetAccessUsers: 0,
          xdrUsers: 0,
          administrators: 0,
          groups: 0,
          recentEvents: [],
        }),
      ),
    );
    setup();
    expect(await screen.findByText('Nothing to show yet: add users to see them here.')).toBeInTheDocument();
  });

  it('shows the failure with a retry that loads again', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ errcode: 3, code: 'forbidden', message: 'No.' }, 403));
    fetchMock.mockResolvedValueOnce(jsonResponse(summary()));
    const { user } = setup();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Your role does not allow this.')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Users' })).toBeInTheDocument();
  });
});
