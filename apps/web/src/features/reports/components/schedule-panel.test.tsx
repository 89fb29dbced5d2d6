import { reportEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession } from '../../../testing/render';
import { fakeReportsApi, SCHEDULE } from '../testing/fixtures';
import { isolateReportTests, renderReport } from '../testing/screen';
import { SchedulePanel } from './schedule-panel';

isolateReportTests();

const Panel = () => <SchedulePanel kind="weekly-sase-insights" />;
type User = ReturnType<typeof renderReport>['user'];

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: User, dialog: HTMLElement, label: string, option: string) {
  await user.click(within(dialog).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('weekly mailing of a report', { timeout: 30_000 }, () => {
  it("lists this report's mailings with when, to whom and how the last went", async () => {
    fakeReportsApi([
      SCHEDULE,
      {
        ...SCHEDULE,
        id: '66666666-6666-4666-8666-666666666666',
        kind: 'dsb',
        recipients: ['other@acme.example'],
      },
      {
        ...SCHEDULE,
        id: '77777777-7777-4777-8777-777777777777',
        weekday: 5,
        hour: 17,
        timezone: 'America/New_York',
        enabled: false,
        nextRunAt: null,
        lastRunAt: '2026-03-01T22:00:00.000Z',
        lastError: 'SMTP server said no',
      },
      {
        ...SCHEDULE,
        id: '88888888-8888-4888-8888-888888888888',
        weekday: 3,
        recipients: ['wait@outside.example', 'late@outside.example'],
        recipientStates: [
          {
            email: 'wait@outside.example',
            state: 'pending',
            mailedAt: '2026-03-02T09:00:00.000Z',
            expiresAt: null,
          },
          {
            email: 'late@outside.example',
            state: 'expired',
            mailedAt: '2026-02-01T09:00:00.000Z',
            expiresAt: null,
          },
        ],
        lastRunAt: '2026-03-04T07:00:00.000Z',
        lastError: 'No recipient of this mailing may be mailed yet.',
        lastErrorCode: 'report_recipients_unverified',
      },
    ]);
    renderReport(Panel, '/reports/weekly-sase-insights');
    const table = await screen.findByRole('table', { name: 'Weekly mailings of this report' });
    const monday = within(table).getByRole('row', { name: /Monday at 08:00 \(Europe\/Berlin\)/ });
    // Each recipient with whether it is mailed: a confirmed outside address, an administrator.
    const recipients = within(monday).getAllByRole('listitem');
    expect(recipients.map((item) => item.textContent)).toEqual([
      'ciso@acme.exampleConfirmed',
      'soc@acme.exampleAdministrator',
    ]);
    expect(within(monday).queryByRole('button', { name: /Send the link again/ })).not.toBeInTheDocument();
    expect(monday).toHaveTextContent('Never');
    const friday = within(table).getByRole('row', { name: /Friday at 17:00 \(America\/New_York\)/ });
    expect(friday).toHaveTextContent('Paused');
    expect(friday).toHaveTextContent('Failed: SMTP server said no');
    // The brief's mailing belongs to the brief.
    expect(table).not.toHaveTextContent('other@acme.example');
    // Outside addresses that have not confirmed wait, and a skipped run says why in the reader's words.
    const wednesday = within(table).getByRole('row', { name: /Wednesday at 08:00/ });
    expect(wednesday).toHaveTextContent('wait@outside.exampleWaiting for confirmation');
    expect(wednesday).toHaveTextContent('late@outside.exampleLink expired');
    expect(wednesday).toHaveTextContent('Skipped: no recipient has confirmed their address yet.');
    expect(wednesday).not.toHaveTextContent('No recipient of this mailing may be mailed yet.');
    expect(
      within(wednesday).getByRole('button', { name: 'Send the link again to wait@outside.example' }),
    ).toBeInTheDocument();
  });

  it('mails a waiting recipient a new link, and says when the server asks to wait', async () => {
    const waiting = {
      ...SCHEDULE,
      recipients: ['wait@outside.example', 'soc@acme.example'],
      recipientStates: [
        { email: 'wait@outside.example', state: 'pending' as const, mailedAt: null, expiresAt: null },
        SCHEDULE.recipientStates[1],
      ],
    };
    const api = fakeReportsApi([waiting]);
    const { user } = renderReport(Panel, '/reports/weekly-sase-insights');
    const row = await screen.findByRole('row', { name: /Monday at 08:00/ });
    expect(row).toHaveTextContent('wait@outside.exampleLink not sent');
    await user.click(
      within(row).getByRole('button', { name: 'Send the link again to wait@outside.example' }),
    );
    expect(await screen.findByText('A new link was mailed to wait@outside.example.')).toBeInTheDocument();
    expect(api.calls(reportEndpoints.resendReportRecipientLink)[0].body).toEqual({
      email: 'wait@outside.example',
    });
    expect(await within(row).findByText('Waiting for confirmation')).toBeInTheDocument();

    api.on(reportEndpoints.resendReportRecipientLink, () =>
      apiError('report_recipient_recently_mailed', { headers: { 'retry-after': '600' } }),
    );
    await user.click(
      within(row).getByRole('button', { name: 'Send the link again to wait@outside.example' }),
    );
    expect(
      await screen.findByText(
        'A link was mailed to this address a short while ago. Try again in 10 minutes.',
      ),
    ).toBeInTheDocument();
  });

  it('says who got nothing because they have not confirmed, and why a mailing was refused', async () => {
    const mixed = {
      ...SCHEDULE,
      recipients: ['ciso@acme.example', 'wait@outside.example'],
      recipientStates: [
        SCHEDULE.recipientStates[0],
        { email: 'wait@outside.example', state: 'pending' as const, mailedAt: null, expiresAt: null },
      ],
    };
    const api = fakeReportsApi([mixed]);
    const { user } = renderReport(Panel, '/reports/weekly-sase-insights');
    const sendNow = await screen.findByRole('button', { name: /^Send now/ });
    await user.click(sendNow);
    expect(
      await screen.findByText(
        'The report was mailed to 1 recipient. 1 recipient has not confirmed their address yet and got nothing.',
      ),
    ).toBeInTheDocument();

    api.on(reportEndpoints.sendReportSchedule, () =>
      apiError('report_mail_quota', { headers: { 'retry-after': '1500' } }),
    );
    await user.click(sendNow);
    expect(
      await screen.findByText(
        'This workspace has sent as many report mails as its quota allows. Try again in 25 minutes.',
      ),
    ).toBeInTheDocument();

    api.on(reportEndpoints.sendReportSchedule, () => apiError('report_recipients_unverified'));
    await user.click(sendNow);
    expect(
      await screen.findByText(/^No recipient of this mailing has confirmed their address yet/),
    ).toBeInTheDocument();
  });

  it('schedules a mailing: weekday, time, time zone, recipients and language', async () => {
    const api = fakeReportsApi([]);
    const { user } = renderReport(Panel, '/reports/weekly-sase-insights');
    expect(await screen.findByText('This report is not mailed yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Schedule weekly mailing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule weekly mailing' });
    await choose(user, dialog, 'Weekday', 'Friday');
    await choose(user, dialog, 'Time', '17:00');
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'New_York');
    await user.click(await screen.findByRole('option', { name: 'America/New_York', hidden: true }));
    const recipients = within(dialog).getByRole('combobox', { name: 'Recipients' });
    await user.type(recipients, 'ciso@acme.example,soc@acme.example,');
    await choose(user, dialog, 'Language of the report', 'Deutsch');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    await waitFor(() => expect(api.calls(reportEndpoints.createReportSchedule)).toHaveLength(1));
    expect(api.calls(reportEndpoints.createReportSchedule)[0].body).toEqual({
      kind: 'weekly-sase-insights',
      weekday: 5,
      hour: 17,
      timezone: 'America/New_York',
      recipients: ['ciso@acme.example', 'soc@acme.example'],
      language: 'de',
      enabled: true,
    });
    // The outside addresses are mailed a link first, and the screen says so.
    expect(
      await screen.findByText(
        'The weekly mailing was saved. Addresses outside the workspace receive the report once they confirm the link mailed to them.',
      ),
    ).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /Friday at 17:00 \(America\/New_York\)/ });
    expect(within(row).getAllByText('Waiting for confirmation')).toHaveLength(2);
  });

  it('checks the recipients before sending, and shows what the server refuses on the fields', async () => {
    const api = fakeReportsApi([]).on(reportEndpoints.createReportSchedule, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.recipients.0', message: 'validation.duplicate' }],
      }),
    );
    const { user } = renderReport(Panel, '/reports/weekly-sase-insights');
    await user.click(await screen.findByRole('button', { name: 'Schedule weekly mailing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule weekly mailing' });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls(reportEndpoints.createReportSchedule)).toHaveLength(0);

    await user.type(within(dialog).getByRole('combobox', { name: 'Recipients' }), 'not-an-address,');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address.')).toBeInTheDocument();

    // Backspace takes the last address off again.
    await user.type(
      within(dialog).getByRole('combobox', { name: 'Recipients' }),
      '{backspace}soc@acme.example,',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(api.calls(reportEndpoints.createReportSchedule)).toHaveLength(1));
    expect(await within(dialog).findByText('This entry appears twice.')).toBeInTheDocument();
  });

  it('sends a mailing now, edits it and deletes it', async () => {
    const api = fakeReportsApi();
    const { user } = renderReport(Panel, '/reports/weekly-sase-insights');
    const when = 'Monday at 08:00 (Europe/Berlin)';
    await user.click(await screen.findByRole('button', { name: `Send now: ${when}` }));
    expect(await screen.findByText('The report was mailed to 2 recipients.')).toBeInTheDocument();
    expect(api.calls(reportEndpoints.sendReportSchedule)[0].params.id).toBe(SCHEDULE.id);

    await user.click(screen.getByRole('button', { name: `Edit: ${when}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit weekly mailing' });
    expect(within(dialog).getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
    await user.click(within(dialog).getByRole('switch', { name: /^Mailing on/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(reportEndpoints.updateReportSchedule)).toHaveLength(1));
    expect(api.calls(reportEndpoints.updateReportSchedule)[0].body).toMatchObject({
      enabled: false,
      hour: 8,
    });
    expect(await screen.findByText('Paused')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Delete: ${when}` }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete weekly mailing' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls(reportEndpoints.deleteReportSchedule)).toHaveLength(1));
    expect(await screen.findByText('This report is not mailed yet.')).toBeInTheDocument();
  });

  it('shows the mailings without changing them to a role that may only read the dashboard', async () => {
    fakeReportsApi();
    renderReport(Panel, '/reports/weekly-sase-insights', makeSession({ role: 'auditor' }));
    await screen.findByRole('table', { name: 'Weekly mailings of this report' });
    expect(screen.queryByRole('button', { name: 'Schedule weekly mailing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send now/ })).not.toBeInTheDocument();
  });
});
