import { reportEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fileResponse } from '../../../testing/fake-api';
import { DSB, fakeReportsApi } from '../testing/fixtures';
import { catchDownloads, isolateReportTests, renderReport } from '../testing/screen';
import { Component as Dsb } from './dsb';

isolateReportTests();

describe('daily security brief screen', { timeout: 20_000 }, () => {
  it('shows the key figures, the requests over time, the top lists and the new devices', async () => {
    const api = fakeReportsApi();
    renderReport(Dsb, '/reports/dsb');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Daily security brief' }),
    ).toBeInTheDocument();
    expect(
      within(await screen.findByRole('region', { name: 'Requests' })).getByText('12,345'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Data' })).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'New devices' })).getByText('2')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Requests over time, Requests per hour/ })).toBeInTheDocument();
    const blocked = screen.getByRole('table', { name: 'Top blocked destinations' });
    expect(within(blocked).getByRole('row', { name: /casino\.example/ })).toHaveTextContent('40');
    expect(screen.getByRole('table', { name: 'Top threats' })).toHaveTextContent('Test indicators');
    expect(screen.getByRole('table', { name: 'Devices enrolled in this period' })).toHaveTextContent(
      'ada@acme.example',
    );
    expect(screen.getByText('… and 1 more')).toBeInTheDocument();
    expect(api.calls(reportEndpoints.getDsbReport)[0].query).toEqual({ period: '24h' });
    expect(api.unhandled).toEqual([]);
  });

  it('asks for the last 7 days when chosen', async () => {
    const api = fakeReportsApi();
    const { user } = renderReport(Dsb, '/reports/dsb');
    await screen.findByRole('region', { name: 'Requests' });
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(api.calls(reportEndpoints.getDsbReport)).toHaveLength(2));
    expect(api.calls(reportEndpoints.getDsbReport)[1].query).toEqual({ period: '7d' });
  });

  it('downloads the PDF of the period shown, in the console’s language', async () => {
    const api = fakeReportsApi().on(reportEndpoints.getDsbPdf, () =>
      fileResponse('%PDF-1.3 brief', 'dsb-acme-2026-03-02.pdf', 'application/pdf'),
    );
    const { createObjectURL, clicked } = catchDownloads();
    const { user } = renderReport(Dsb, '/reports/dsb');
    await screen.findByRole('region', { name: 'Requests' });
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0].download).toBe('dsb-acme-2026-03-02.pdf');
    expect(await createObjectURL.mock.calls[0][0].text()).toBe('%PDF-1.3 brief');
    const [call] = api.calls(reportEndpoints.getDsbPdf);
    expect(call.url.pathname).toBe('/api/reports/acme/dsb/pdf');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ period: '7d', lng: 'en' });
  });

  it('marks simulated figures and leaves them out with the switch, in the address and the PDF too', async () => {
    const api = fakeReportsApi().on(reportEndpoints.getDsbPdf, () =>
      fileResponse('%PDF-1.3 brief', 'dsb-acme-2026-03-02.pdf', 'application/pdf'),
    );
    const { clicked } = catchDownloads();
    const { user, router } = renderReport(Dsb, '/reports/dsb');
    expect(
      within(await screen.findByRole('region', { name: 'Requests' })).getByText('12,345'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('simulated-badge')).toHaveTextContent('Includes simulated traffic');
    const onlyReal = screen.getByRole('switch', { name: /Real traffic only/ });
    expect(onlyReal).not.toBeChecked();
    expect(api.calls(reportEndpoints.getDsbReport)[0].query.source).toBeUndefined();

    await user.click(onlyReal);
    await waitFor(() => expect(api.calls(reportEndpoints.getDsbReport)).toHaveLength(2));
    expect(api.calls(reportEndpoints.getDsbReport)[1].query).toEqual({ period: '24h', source: 'gateway' });
    expect(router.state.location.search).toBe('?source=gateway');
    expect(
      await within(await screen.findByRole('region', { name: 'Requests' })).findByText('12,300'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('simulated-badge')).not.toBeInTheDocument());
    // Another period keeps to real traffic.
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(api.calls(reportEndpoints.getDsbReport)).toHaveLength(3));
    expect(api.calls(reportEndpoints.getDsbReport)[2].query).toEqual({ period: '7d', source: 'gateway' });

    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls(reportEndpoints.getDsbPdf);
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ period: '7d', source: 'gateway', lng: 'en' });
  });

  it('opens with real traffic only from the address, and shows both again when switched off', async () => {
    const api = fakeReportsApi();
    const { user, router } = renderReport(Dsb, '/reports/dsb?source=gateway');
    expect(
      within(await screen.findByRole('region', { name: 'Requests' })).getByText('12,300'),
    ).toBeInTheDocument();
    expect(api.calls(reportEndpoints.getDsbReport)[0].query).toEqual({ period: '24h', source: 'gateway' });
    const onlyReal = screen.getByRole('switch', { name: /Real traffic only/ });
    expect(onlyReal).toBeChecked();
    await user.click(onlyReal);
    await waitFor(() => expect(api.calls(reportEndpoints.getDsbReport)).toHaveLength(2));
    expect(api.calls(reportEndpoints.getDsbReport)[1].query.source).toBeUndefined();
    expect(router.state.location.search).toBe('');
    expect(await screen.findByTestId('simulated-badge')).toBeInTheDocument();
  });

  it('says so when the PDF cannot be made, and saves nothing', async () => {
    fakeReportsApi().on(reportEndpoints.getDsbPdf, () => apiError('forbidden', { message: 'No.' }));
    const { clicked } = catchDownloads();
    const { user } = renderReport(Dsb, '/reports/dsb');
    await screen.findByRole('region', { name: 'Requests' });
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('The PDF could not be made')).toBeInTheDocument();
    expect(clicked).toHaveLength(0);
  });

  it('shows a failure in place with a retry', async () => {
    const api = fakeReportsApi().on(reportEndpoints.getDsbReport, () => apiError('forbidden'));
    const { user } = renderReport(Dsb, '/reports/dsb');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    api.on(reportEndpoints.getDsbReport, () => DSB);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(
      within(await screen.findByRole('region', { name: 'Requests' })).getByText('12,345'),
    ).toBeInTheDocument();
  });
});
