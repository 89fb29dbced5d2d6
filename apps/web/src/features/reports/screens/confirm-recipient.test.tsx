import { reportEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { renderWithProviders } from '../../../testing/render';
import { isolateReportTests } from '../testing/screen';
import { Component as ConfirmRecipient } from './confirm-recipient';

isolateReportTests();

const TOKEN = 'Zr0Qm3pV5cX8yT1wK4nB7dF2hJ6gL9sA0eU3iO5uY8q';

const renderPage = () =>
  renderWithProviders(<ConfirmRecipient />, {
    route: `/verify/report-recipient/${TOKEN}`,
    path: '/verify/report-recipient/:id',
  });

describe('the page of a report recipient’s confirmation link', { timeout: 30_000 }, () => {
  it('confirms only when the button is pressed, then says which workspace mails the address', async () => {
    const api = fakeApi().on(reportEndpoints.confirmReportRecipient, () => ({
      email: 'ciso@outside.example',
      tenantDisplayName: 'ACME',
    }));
    const { user } = renderPage();
    const button = await screen.findByRole('button', { name: 'Confirm and receive the reports' });
    // Opening the link confirms nothing: mail scanners open links too.
    expect(api.calls(reportEndpoints.confirmReportRecipient)).toHaveLength(0);
    await user.click(button);
    expect(await screen.findByText('Address confirmed')).toBeInTheDocument();
    expect(
      screen.getByText(
        'ciso@outside.example now receives the reports that administrators of ACME schedule for it.',
      ),
    ).toBeInTheDocument();
    expect(api.calls(reportEndpoints.confirmReportRecipient).map((c) => c.body)).toEqual([{ token: TOKEN }]);
    expect(screen.queryByRole('button', { name: 'Confirm and receive the reports' })).not.toBeInTheDocument();
  });

  it('tells an expired link from a used or unknown one, and offers no button for either', async () => {
    const api = fakeApi().on(reportEndpoints.confirmReportRecipient, () => apiError('transaction_expired'));
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Confirm and receive the reports' }));
    expect(await screen.findByText('This link has expired')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();

    api.on(reportEndpoints.confirmReportRecipient, () => apiError('not_found'));
    const second = renderPage();
    await second.user.click(await screen.findByRole('button', { name: 'Confirm and receive the reports' }));
    await waitFor(() => expect(screen.getByText('This link is not valid')).toBeInTheDocument());
  });
});
