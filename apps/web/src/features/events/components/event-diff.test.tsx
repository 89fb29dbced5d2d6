import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, renderWithProviders } from '../../../testing/render';
import type { AuditNames } from '../utils/audit-values';
import { EventDiff } from './event-diff';

const CUSTOM_CATEGORY = '7d4a9c52-1f0e-4a55-9a43-2c0e6f1b8a10';
const POLICY_ID = '0e4cd423-7ff3-442f-9872-06da6c336e83';

const rule = (fields: Record<string, unknown>) => ({
  url: '',
  target: '',
  ports: '',
  categories: [],
  feeds: [],
  locations: [],
  schedule: null,
  enabled: true,
  issysgen: false,
  ...fields,
});

/** A policy as the server logs it (its presenter's shape), before and after an edit. */
const POLICY_BEFORE = {
  id: POLICY_ID,
  name: 'Office',
  type: 'other',
  enabled: true,
  updatedAt: '2026-03-01T09:30:00.000Z',
  rules: [rule({ id: 'r1', name: 'Block casinos', type: 'dmn', url: 'casino.example', action: 'block' })],
};
const POLICY_AFTER = {
  ...POLICY_BEFORE,
  enabled: false,
  updatedAt: '2026-03-02T10:00:00.000Z',
  rules: [
    rule({
      id: 'r1',
      name: 'Block casinos',
      type: 'dmn',
      url: 'casino.example',
      action: 'block',
      categories: ['gambling', CUSTOM_CATEGORY],
    }),
    rule({
      id: 'r2',
      name: 'Video calls',
      type: 'app',
      url: 'zoom;custom-meet',
      action: 'qos',
      enabled: false,
    }),
  ],
};
/** What the look-ups know: one app and the custom category (the shipped one is named by the catalogue). */
const NAMES: AuditNames = {
  app: (id) => (id === 'zoom' ? 'Zoom' : undefined),
  category: (id) => (id === CUSTOM_CATEGORY ? 'Partner sites' : undefined),
};

/** A bulk change of a page's selection as the server logs it: users and the group by name. */
const BULK_AFTER = {
  action: 'addToGroup',
  group: { id: '77f104bd-5f83-4a02-9022-3c6fadcf6009', name: 'Sales' },
  match: null,
  matched: 60,
  processed: 60,
  changed: 60,
  status: 'completed',
  users: Array.from({ length: 60 }, (_, i) => `user${i}@acme.example`),
};

async function inGerman() {
  initTestI18n();
  i18n.addResourceBundle('de', 'translation', de, true, true);
  await i18n.changeLanguage('de');
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const rowOf = (field: string) => screen.getByRole('rowheader', { name: field }).closest('tr')!;

describe('EventDiff', () => {
  it('lists added, removed and changed fields with their values, highlighted by kind', async () => {
    const { user } = renderWithProviders(
      <EventDiff
        before={{ firstname: 'Log', suci: 'suci-0-1', groups: ['a'], username: 'x@acme.test' }}
        after={{ firstname: 'Logan', isprvaccess: true, groups: ['a', 'b'], username: 'x@acme.test' }}
      />,
    );
    const changed = screen.getByRole('table', { name: 'Changed fields' });
    const fields = within(changed)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    // Named as the users screen names them, in the order of those names.
    expect(fields).toEqual(['First name', 'Groups', 'Private access', 'SUCI']);

    const firstname = rowOf('First name');
    expect(firstname).toHaveAttribute('data-change', 'changed');
    expect(within(firstname).getByText('Log')).toBeInTheDocument();
    expect(within(firstname).getByText('Logan')).toBeInTheDocument();
    expect(within(firstname).getByText('Changed')).toBeInTheDocument();

    const added = rowOf('Private access');
    expect(added).toHaveAttribute('data-change', 'added');
    expect(within(added).getByText('Added')).toBeInTheDocument();
    expect(within(added).getByLabelText('not set')).toBeInTheDocument();
    expect(within(added).getByText('Yes')).toBeInTheDocument();
    expect(within(rowOf('Groups')).getByText('a, b')).toBeInTheDocument();

    const removed = rowOf('SUCI');
    expect(removed).toHaveAttribute('data-change', 'removed');
    expect(within(removed).getByText('Removed')).toBeInTheDocument();
    expect(within(removed).getByText('suci-0-1')).toBeInTheDocument();

    // Unchanged fields are folded away until asked for.
    expect(screen.queryByRole('rowheader', { name: 'Username' })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Show 1 unchanged field' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide 1 unchanged field' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    const unchanged = screen.getByRole('table', { name: 'Unchanged fields' });
    expect(within(unchanged).getByRole('rowheader', { name: 'Username' })).toBeInTheDocument();
    expect(rowOf('Username')).toHaveAttribute('data-change', 'unchanged');
  });

  it('shows a created object as all added, and says when nothing changed or nothing was recorded', () => {
    const { unmount } = renderWithProviders(<EventDiff before={null} after={{ name: 'Sales' }} />);
    expect(rowOf('Name')).toHaveAttribute('data-change', 'added');
    expect(screen.queryByRole('button', { name: /unchanged/ })).not.toBeInTheDocument();
    unmount();

    const second = renderWithProviders(
      <EventDiff before={{ a: { x: 1, y: 2 } }} after={{ a: { y: 2, x: 1 } }} />,
    );
    expect(screen.getByText('No field changed.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show 1 unchanged field' })).toBeInTheDocument();
    second.unmount();

    renderWithProviders(<EventDiff before={null} after={null} />);
    expect(screen.getByText('No values were recorded for this event.')).toBeInTheDocument();
  });

  it('shows a policy change as the rule editor summarises rules, with names for ids and no ids', async () => {
    const { user } = renderWithProviders(
      <EventDiff
        before={POLICY_BEFORE}
        after={POLICY_AFTER}
        action="policy.update"
        objectType="policy"
        names={NAMES}
      />,
    );
    expect(screen.queryByRole('rowheader', { name: 'ID' })).not.toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'id' })).not.toBeInTheDocument();
    const rules = rowOf('Rules');
    const [beforeCell, afterCell] = within(rules).getAllByRole('cell');
    expect(
      within(beforeCell)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Block casinos (Domains (DNS), Block): casino.example']);
    expect(
      within(afterCell)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Block casinos (Domains (DNS), Block): casino.example, Gambling, Partner sites',
      'Video calls (Applications, Set QoS class, disabled): Zoom, custom-meet',
    ]);
    expect(rules.textContent).not.toMatch(/[{}]|"url"|7d4a9c52/);
    const enabled = rowOf('Enabled');
    expect(within(enabled).getByText('Yes')).toBeInTheDocument();
    expect(within(enabled).getByText('No')).toBeInTheDocument();
    expect(within(rowOf('Last changed')).getByText(/Mar 2, 2026/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show 2 unchanged fields' }));
    expect(within(rowOf('Type')).getAllByText('User policy')).toHaveLength(2);
  });

  it('names the users and the group of a bulk change, and counts what it leaves out', () => {
    renderWithProviders(
      <EventDiff before={null} after={BULK_AFTER} action="user.bulk.addToGroup" objectType="user" />,
    );
    const users = within(rowOf('Users')).getAllByRole('cell')[1];
    expect(users.textContent).toMatch(/^user0@acme\.example, user1@acme\.example, /);
    expect(users.textContent).toMatch(/user49@acme\.example, and 10 more$/);
    expect(users.textContent).not.toContain('user50@');
    expect(within(rowOf('Group')).getByText('Sales')).toBeInTheDocument();
    expect(within(rowOf('Action')).getByText('Users added to a group')).toBeInTheDocument();
    expect(within(rowOf('Status')).getByText('Completed')).toBeInTheDocument();
    expect(within(rowOf('Users searched for')).getByText('none')).toBeInTheDocument();
  });

  it('speaks German: field names, values, rule summaries and counts', async () => {
    await inGerman();
    renderWithProviders(
      <>
        <EventDiff
          before={POLICY_BEFORE}
          after={POLICY_AFTER}
          action="policy.update"
          objectType="policy"
          names={NAMES}
        />
        <EventDiff before={null} after={BULK_AFTER} action="user.bulk.addToGroup" objectType="user" />
        <EventDiff
          before={null}
          after={{ usertype: 0, connstatus: 'never' }}
          action="user.create"
          objectType="user"
        />
      </>,
    );
    expect(within(rowOf('Kontoart')).getByText('Endbenutzer')).toBeInTheDocument();
    expect(within(rowOf('Verbindungsstatus')).getByText('Nie verbunden')).toBeInTheDocument();
    const [afterRules] = within(rowOf('Regeln')).getAllByRole('cell').slice(1);
    expect(
      within(afterRules)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Block casinos (Domains (DNS), Sperren): casino.example, Glücksspiel, Partner sites',
      'Video calls (Anwendungen, QoS-Klasse setzen, deaktiviert): Zoom, custom-meet',
    ]);
    const enabled = rowOf('Aktiv');
    expect(within(enabled).getByText('Ja')).toBeInTheDocument();
    expect(within(enabled).getByText('Nein')).toBeInTheDocument();
    expect(within(rowOf('Zuletzt geändert')).getByText(/02\.03\.2026/)).toBeInTheDocument();
    expect(within(rowOf('Benutzer')).getAllByRole('cell')[1].textContent).toMatch(/und 10 weitere$/);
    expect(within(rowOf('Aktion')).getByText('Benutzer zu einer Gruppe hinzugefügt')).toBeInTheDocument();
    expect(within(rowOf('Status')).getByText('Abgeschlossen')).toBeInTheDocument();
  });
});
