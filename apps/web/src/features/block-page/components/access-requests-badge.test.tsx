import { blockPageEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { AccessRequestsBadge } from './access-requests-badge';

describe('the navigation badge of access requests', { timeout: 30_000 }, () => {
  it('counts the requests waiting for a decision, and shows nothing when none waits', async () => {
    const api = fakeApi().on(blockPageEndpoints.countAccessRequests, () => ({ pending: 3 }));
    const first = renderWithProviders(<AccessRequestsBadge />, { session: makeSession() });
    expect(await screen.findByLabelText('3 access requests waiting')).toHaveTextContent('3');
    first.unmount();

    api.on(blockPageEndpoints.countAccessRequests, () => ({ pending: 0 }));
    renderWithProviders(<AccessRequestsBadge />, { session: makeSession() });
    await waitFor(() => expect(api.calls(blockPageEndpoints.countAccessRequests)).toHaveLength(2));
    expect(screen.queryByLabelText(/access requests? waiting/)).not.toBeInTheDocument();
  });

  it('asks nothing for a role that cannot see the requests', async () => {
    const api = fakeApi();
    renderWithProviders(<AccessRequestsBadge />, { session: makeSession({ role: 'billing_admin' }) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.calls(blockPageEndpoints.countAccessRequests)).toHaveLength(0);
  });
});
