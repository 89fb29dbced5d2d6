import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeReportsApi } from '../testing/fixtures';
import { isolateReportTests, renderReport } from '../testing/screen';
import { Component as Weekly } from './weekly-sase-insights';

isolateReportTests();

describe('weekly SASE insights screen', { timeout: 20_000 }, () => {
  it('shows each figure with its change, the blocked requests per day and private access per site', async () => {
    fakeReportsApi();
    renderReport(Weekly, '/reports/weekly-sase-insights');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Weekly SASE insights' }),
    ).toBeInTheDocument();
    const requests = await screen.findByRole('region', { name: 'Requests' });
    expect(within(requests).getByText('12,345')).toBeInTheDocument();
    expect(within(requests).getByText('+23.5 % against the week before')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Blocked' })).getByText('−13.8 % against the week before'),
    ).toBeInTheDocument();
    // Nothing to compare with: no percentage.
    expect(
      within(screen.getByRole('region', { name: 'Threats' })).getByText('– against the week before'),
    ).toBeInTheDocument();
    const trends = screen.getByRole('table', { name: 'Trends against the week before' });
    expect(within(trends).getByRole('row', { name: /Data/ })).toHaveTextContent('2.5 MB2 MB+25 %');
    expect(
      screen.getByRole('img', { name: /Blocked requests per day: 28 this week, 28 the week before/ }),
    ).toBeInTheDocument();
    const sites = screen.getByRole('table', { name: 'Private access per site' });
    const frankfurt = within(sites).getByRole('row', { name: /Frankfurt/ });
    expect(frankfurt).toHaveTextContent('1,234');
    // Spec §9: days, hours, minutes, seconds.
    expect(frankfurt).toHaveTextContent('1d 2h 3m 4s');
    expect(screen.getByRole('table', { name: 'Top blocked destinations' })).toHaveTextContent(
      'casino.example',
    );
    expect(screen.getByRole('region', { name: 'Top blocked categories' })).toHaveTextContent(
      'Nothing in this period.',
    );
  });
});
