import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeReportsApi } from '../testing/fixtures';
import { isolateReportTests, renderReport } from '../testing/screen';
import { Component as Compliance } from './security-compliance';

isolateReportTests();

describe('security compliance screen', { timeout: 20_000 }, () => {
  it('shows each check with its state and evidence, and what to do where it did not pass', async () => {
    fakeReportsApi();
    renderReport(Compliance, '/reports/security-compliance');
    expect(await screen.findByRole('heading', { level: 1, name: 'Security compliance' })).toBeInTheDocument();
    const summary = await screen.findByRole('region', { name: 'Failed' });
    expect(within(summary).getByText('1')).toBeInTheDocument();

    const mfa = screen.getByRole('region', { name: 'Administrators use two-factor authentication' });
    expect(within(mfa).getByText('Failed')).toBeInTheDocument();
    expect(within(mfa).getByRole('row', { name: /bob@acme\.example/ })).toHaveTextContent(
      'Two-factor authentication off',
    );
    expect(within(mfa).getByText(/Ask each administrator listed/)).toBeInTheDocument();

    const signIn = screen.getByRole('region', { name: 'Administrators signed in within the last 90 days' });
    expect(within(signIn).getByText('Warning')).toBeInTheDocument();
    expect(within(signIn).getByText('… and 59 more')).toBeInTheDocument();

    const feeds = screen.getByRole('region', { name: 'Threat intelligence is enabled' });
    expect(within(feeds).getByText('Passed')).toBeInTheDocument();
    expect(within(feeds).getByRole('row', { name: /Test indicators/ })).toHaveTextContent(
      /Enabled: Mar 2, 2026/,
    );
    expect(within(feeds).queryByText('What to do')).not.toBeInTheDocument();
  });
});
