import { reportEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fileResponse } from '../../../testing/fake-api';
import { fakeReportsApi } from '../testing/fixtures';
import { catchDownloads, isolateReportTests, renderReport } from '../testing/screen';
import { Component as Analytics } from './analytics';

isolateReportTests();

describe('traffic analytics screen', { timeout: 20_000 }, () => {
  it('shows the key figures, the layers and the top categories, apps, destinations and users', async () => {
    const api = fakeReportsApi();
    renderReport(Analytics, '/reports/analytics');
    expect(await screen.findByRole('heading', { level: 1, name: 'Traffic analytics' })).toBeInTheDocument();
    expect(
      within(await screen.findByRole('region', { name: 'Blocked' })).getByText('345'),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Requests per day/ })).toBeInTheDocument();
    const layers = screen.getByRole('table', { name: 'Requests per layer' });
    expect(within(layers).getByRole('row', { name: /DNS/ })).toHaveTextContent('10,000');
    expect(within(layers).getByRole('row', { name: /Web \(HTTP\)/ })).toHaveTextContent('5');
    expect(screen.getByRole('table', { name: 'Top applications' })).toHaveTextContent('confluence4,321');
    expect(screen.getByRole('table', { name: 'Top users' })).toHaveTextContent('ada@acme.example');
    // The report's own default range: the last 7 days.
    expect(api.calls(reportEndpoints.getAnalyticsReport)[0].query).toEqual({});
  });

  it('asks for the range chosen, and the PDF covers the same range', async () => {
    const api = fakeReportsApi().on(reportEndpoints.getAnalyticsPdf, () =>
      fileResponse('%PDF-1.3', 'analytics-acme-2026-03-02.pdf', 'application/pdf'),
    );
    const { clicked } = catchDownloads();
    const { user } = renderReport(Analytics, '/reports/analytics');
    await screen.findByRole('region', { name: 'Blocked' });
    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(api.calls(reportEndpoints.getAnalyticsReport)).toHaveLength(2));
    const { from, to } = api.calls(reportEndpoints.getAnalyticsReport)[1].query;
    expect(Date.parse(to as string) - Date.parse(from as string)).toBe(30 * 86_400_000);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(reportEndpoints.getAnalyticsPdf);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from, to, lng: 'en' });
  });

  it('leaves simulated traffic out with the switch, for the range chosen and its PDF', async () => {
    const api = fakeReportsApi().on(reportEndpoints.getAnalyticsPdf, () =>
      fileResponse('%PDF-1.3', 'analytics-acme-2026-03-02.pdf', 'application/pdf'),
    );
    const { clicked } = catchDownloads();
    const { user, router } = renderReport(Analytics, '/reports/analytics');
    expect(
      within(await screen.findByRole('region', { name: 'Requests' })).getByText('12,345'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('simulated-badge')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /Real traffic only/ }));
    await waitFor(() => expect(api.calls(reportEndpoints.getAnalyticsReport)).toHaveLength(2));
    expect(api.calls(reportEndpoints.getAnalyticsReport)[1].query).toEqual({ source: 'gateway' });
    expect(router.state.location.search).toBe('?source=gateway');
    expect(
      await within(await screen.findByRole('region', { name: 'Requests' })).findByText('12,300'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('simulated-badge')).not.toBeInTheDocument());

    await user.click(screen.getByRole('radio', { name: 'Last 30 days' }));
    await waitFor(() => expect(api.calls(reportEndpoints.getAnalyticsReport)).toHaveLength(3));
    const { from, to, source } = api.calls(reportEndpoints.getAnalyticsReport)[2].query;
    expect(source).toBe('gateway');
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(reportEndpoints.getAnalyticsPdf);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ from, to, source: 'gateway', lng: 'en' });
  });
});
