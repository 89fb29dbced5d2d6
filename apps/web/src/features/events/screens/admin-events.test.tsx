import { type AdminEvent, eventEndpoints, policyObjectEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../../../public/locales/de/translation.json';
import { i18n } from '../../../lib/i18n';
import { pickDateTime } from '../../../testing/date-time';
import { apiError, fakeApi, fileResponse, keysetPage } from '../../../testing/fake-api';
import { initTestI18n, makeSession, renderRoutes } from '../../../testing/render';
import { Component as AdminEvents } from './admin-events';

const EVENT: AdminEvent = {
  id: '11111111-1111-4111-8111-111111111111',
  at: new Date(Date.now() - 5 * 60_000).toISOString(),
  actor: 'admin@acme.example',
  action: 'user.update',
  objectType: 'user',
  objectId: '22222222-2222-4222-8222-222222222222',
  objectName: 'alice@acme.example',
  ip: '10.1.2.3',
};
/** A partner's administrator acting in the tenant. */
const OTHER: AdminEvent = {
  ...EVENT,
  id: '33333333-3333-4333-8333-333333333333',
  action: 'custom.thing',
  actor: 'partner@northwind.example',
  actingFrom: 'northwind',
};
/** A bulk change of two users, as the server records it. */
const BULK: AdminEvent = {
  ...EVENT,
  id: '44444444-4444-4444-8444-444444444444',
  action: 'user.bulk.disableInternetAccess',
  objectId: '55555555-5555-4555-8555-555555555555',
  objectName: '2 users',
};
const CUSTOM_CATEGORY = '7d4a9c52-1f0e-4a55-9a43-2c0e6f1b8a10';
/** A policy created with a rule that refers to a custom category and an application by id. */
const POLICY: AdminEvent = {
  ...EVENT,
  id: '66666666-6666-4666-8666-666666666666',
  action: 'policy.create',
  objectType: 'policy',
  objectId: '77777777-7777-4777-8777-777777777777',
  objectName: 'Office',
};
const POLICY_RULE = {
  id: 'r1',
  name: 'No partner sites',
  type: 'dmn',
  url: 'partner.example',
  action: 'block',
  target: '',
  ports: '',
  categories: [CUSTOM_CATEGORY, 'gambling'],
  feeds: [],
  locations: [],
  schedule: null,
  enabled: true,
  issysgen: false,
};

/** The fake API of the event log: its pages, facets, retention, export, two events' details and the categories. */
function fakeEventsApi(maxDays = 3650) {
  const api = fakeApi()
    .on(eventEndpoints.listAdminEvents, () => keysetPage([EVENT, OTHER, BULK, POLICY]))
    .on(eventEndpoints.adminEventFacets, () => ({
      actions: ['group.create', 'user.create', 'user.update'],
      objectTypes: ['group', 'user'],
    }))
    .on(eventEndpoints.getEventRetention, () => ({ days: Math.min(365, maxDays), maxDays }))
    .on(eventEndpoints.updateEventRetention, ({ body }) => ({ ...body, maxDays }))
    .on(eventEndpoints.exportAdminEvents, () =>
      fileResponse('Time,Actor\r\n', 'admin-events-acme-2026-01-01.csv'),
    )
    .on(eventEndpoints.getAdminEvent, ({ params }) => {
      if (params.id === EVENT.id) {
        return {
          ...EVENT,
          before: { firstname: 'Alice', isprvaccess: false },
          after: { firstname: 'Alicia', isprvaccess: false },
        };
      }
      if (params.id === POLICY.id) {
        return {
          ...POLICY,
          before: null,
          after: { id: POLICY.objectId, name: 'Office', type: 'other', enabled: true, rules: [POLICY_RULE] },
        };
      }
      return apiError('not_found');
    })
    .on(policyObjectEndpoints.listCategories, () => [
      {
        id: CUSTOM_CATEGORY,
        name: 'Partner sites',
        class: 'custom' as const,
        description: '',
        domainCount: 1,
        domains: [],
        action: 'none' as const,
        usedBy: 1,
      },
    ]);
  const lists = () => api.calls(eventEndpoints.listAdminEvents);
  return { api, lists, lastList: () => lists().at(-1)!.url.searchParams };
}

/**
 * An option of an open Mantine select. happy-dom never finishes the dropdown's enter transition, so the
 * dropdown stays `display: none` and the options count as hidden; they are real and clickable all the same.
 */
const findOption = (name: string) => screen.findByRole('option', { name, hidden: true });

function renderScreen(session: Session = makeSession(), route = '/events/admin') {
  return renderRoutes([{ path: '/events/admin', element: <AdminEvents /> }], { route, session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('admin events screen', () => {
  it('shows the events with translated actions (raw when unknown), relative times, objects and IPs', async () => {
    const api = fakeEventsApi();
    renderScreen();
    const known = (await screen.findByRole('button', { name: /^Details of User updated/ })).closest('tr')!;
    expect(within(known).getByText('5 minutes ago')).toHaveAttribute('datetime', EVENT.at);
    expect(within(known).getByText('admin@acme.example')).toBeInTheDocument();
    expect(within(known).getByText('alice@acme.example')).toBeInTheDocument();
    expect(within(known).getByText('User')).toBeInTheDocument();
    expect(within(known).getByText('10.1.2.3')).toBeInTheDocument();
    const partner = screen.getByRole('button', { name: /^Details of custom\.thing/ }).closest('tr')!;
    expect(within(partner).getByText('partner@northwind.example')).toBeInTheDocument();
    expect(within(partner).getByText('Partner northwind, acting in this tenant')).toBeInTheDocument();
    expect(within(known).queryByText(/acting in this tenant/)).toBeNull();
    const bulk = screen
      .getByRole('button', { name: /^Details of Internet access turned off for users/ })
      .closest('tr')!;
    expect(within(bulk).getByText('2 users')).toBeInTheDocument();
    expect(screen.getByText('4 events')).toBeInTheDocument();
    const query = api.lastList();
    expect(Object.fromEntries(query)).toEqual({ limit: '25', offset: '0', order: 'desc' });
  });

  it('sends the filters: actor (debounced), action, action prefix, object type and the time range', async () => {
    const api = fakeEventsApi();
    const { user, router } = renderScreen();
    await screen.findByText('4 events');

    await user.type(screen.getByRole('searchbox', { name: 'Actor' }), 'Ada');
    await waitFor(() => expect(api.lastList().get('actor')).toBe('Ada'));
    // One request for the whole word, not one per key.
    expect(api.lists().filter((s) => s.url.searchParams.has('actor'))).toHaveLength(1);

    await user.click(screen.getByLabelText('Action', { selector: 'input' }));
    await user.click(await findOption('User created'));
    await waitFor(() => expect(api.lastList().get('action')).toBe('user.create'));

    await user.click(screen.getByLabelText('Action', { selector: 'input' }));
    // "Every action of" an area is offered by the area's name.
    await user.click(await findOption('Users'));
    await waitFor(() => expect(api.lastList().get('action')).toBe('user.'));

    await user.click(screen.getByLabelText('Object type', { selector: 'input' }));
    await user.click(await findOption('Group'));
    await waitFor(() => expect(api.lastList().get('objectType')).toBe('group'));

    // The end first: a start alone would be fetched and cached, and the inverted range below asks for the same.
    await pickDateTime(user, screen.getByLabelText('To'), '2026-03-02T18:00');
    await pickDateTime(user, screen.getByLabelText('From'), '2026-03-01T09:30');
    await waitFor(() => expect(api.lastList().get('to')).toBe(new Date('2026-03-02T18:00').toISOString()));
    const query = Object.fromEntries(api.lastList());
    expect(query).toEqual({
      limit: '25',
      offset: '0',
      order: 'desc',
      actor: 'Ada',
      action: 'user.',
      objectType: 'group',
      from: new Date('2026-03-01T09:30').toISOString(),
      to: new Date('2026-03-02T18:00').toISOString(),
    });

    // An end before the start is flagged and not sent.
    await pickDateTime(user, screen.getByLabelText('To'), '2026-02-01T00:00');
    expect(await screen.findByText('The end is before the start.')).toBeInTheDocument();
    await waitFor(() => expect(api.lastList().has('to')).toBe(false));

    // Clearing goes back to the unfiltered list (answered from the cache of the first load).
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('searchbox', { name: 'Actor' })).toHaveValue('');
    expect(screen.getByLabelText('From')).toHaveTextContent(/^$/);
  }, 30_000);

  it('reads filters and paging from the address and sorts oldest first on request', async () => {
    const api = fakeEventsApi();
    const { user } = renderScreen(makeSession(), '/events/admin?action=user.&page=3&size=50');
    // The answer is the last page (no next cursor): its four rows after the first 100 make 104.
    await screen.findByText('104 events');
    expect(Object.fromEntries(api.lastList())).toEqual({
      limit: '50',
      offset: '100',
      order: 'desc',
      action: 'user.',
    });
    await user.click(screen.getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(api.lastList().get('order')).toBe('asc'));
    expect(api.lastList().get('offset')).toBe('0');
  });

  it('opens an event in a drawer with its before/after comparison', async () => {
    fakeEventsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: /^Details of User updated/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Event details' });
    const changed = await within(drawer).findByRole('table', { name: 'Changed fields' });
    const row = within(changed).getByRole('rowheader', { name: 'First name' }).closest('tr')!;
    expect(within(row).getByText('Alice')).toBeInTheDocument();
    expect(within(row).getByText('Alicia')).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Show 1 unchanged field' })).toBeInTheDocument();
  });

  it('downloads the filtered export with the session header', async () => {
    const api = fakeEventsApi();
    const createObjectURL = vi.fn(() => 'blob:events');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderScreen(makeSession(), '/events/admin?objectType=user&order=asc');
    await screen.findByText('4 events');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const [exported] = api.api.calls(eventEndpoints.exportAdminEvents);
    expect(exported.headers.get('X-Auth-Token')).toBe('test-session');
    expect(Object.fromEntries(exported.url.searchParams)).toEqual({ order: 'asc', objectType: 'user' });
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('admin-events-acme-2026-01-01.csv');
    expect(link.href).toBe('blob:events');
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:events'));
    click.mockRestore();
  });

  it('shows the retention panel only to roles that may change the tenant, and saves it', async () => {
    const api = fakeEventsApi();
    const { user, unmount } = renderScreen(makeSession({ role: 'auditor' }));
    await screen.findByText('4 events');
    expect(screen.queryByRole('region', { name: 'Retention' })).not.toBeInTheDocument();
    unmount();

    renderScreen();
    const panel = await screen.findByRole('region', { name: 'Retention' });
    const input = await within(panel).findByRole('textbox', { name: 'Keep events for (days)' });
    await waitFor(() => expect(input).toHaveValue('365'));
    await user.clear(input);
    await user.type(input, '30');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.api.calls(eventEndpoints.updateEventRetention)).toHaveLength(1));
    expect(await screen.findByText('Events are now kept for 30 days.')).toBeInTheDocument();
    // Without a subscription only the range applies.
    expect(within(panel).getByText('Between 7 and 3,650 days.')).toBeInTheDocument();
    expect(within(panel).queryByText(/Your plan keeps/)).not.toBeInTheDocument();
  });

  it('says the most the plan keeps and why, and refuses more before asking the server', async () => {
    const api = fakeEventsApi(90);
    const { user } = renderScreen();
    const panel = await screen.findByRole('region', { name: 'Retention' });
    const input = await within(panel).findByRole('textbox', { name: 'Keep events for (days)' });
    await waitFor(() => expect(input).toHaveValue('90'));
    expect(
      within(panel).getByText(
        'Your plan keeps events for up to 90 days; the Extended log retention (365 days) add-on keeps them for up to 365 days.',
      ),
    ).toBeInTheDocument();
    expect(within(panel).getByText('Between 7 and 90 days.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '120');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(
      await within(panel).findByText('Your subscription keeps events for at most 90 days.'),
    ).toBeInTheDocument();
    expect(api.api.calls(eventEndpoints.updateEventRetention)).toHaveLength(0);
  });

  it('says the add-on keeps 365 days, and shows the server’s refusal on the field', async () => {
    const api = fakeEventsApi(365);
    api.api.on(eventEndpoints.updateEventRetention, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.days', message: 'validation.retentionAboveMaximum', values: { max: '90' } }],
      }),
    );
    const { user } = renderScreen();
    const panel = await screen.findByRole('region', { name: 'Retention' });
    expect(
      await within(panel).findByText(
        'Your subscription includes the Extended log retention (365 days) add-on: events are kept for up to 365 days.',
      ),
    ).toBeInTheDocument();
    const input = within(panel).getByRole('textbox', { name: 'Keep events for (days)' });
    await waitFor(() => expect(input).toHaveValue('365'));
    await user.clear(input);
    await user.type(input, '200');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    // Meanwhile the add-on was removed: the server's limit, in its words.
    expect(
      await within(panel).findByText('Your subscription keeps events for at most 90 days.'),
    ).toBeInTheDocument();
  });

  it('says the limit in German', async () => {
    fakeEventsApi(90);
    initTestI18n();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    renderScreen();
    const panel = await screen.findByRole('region', { name: 'Aufbewahrung' });
    expect(
      await within(panel).findByText(
        'Ihr Tarif bewahrt Ereignisse bis zu 90 Tage auf; die Zusatzoption Erweiterte Protokollaufbewahrung (365 Tage) bewahrt sie bis zu 365 Tage auf.',
      ),
    ).toBeInTheDocument();
  });

  it('shows a policy event’s rules as the rule editor summarises them, with the categories’ names', async () => {
    const api = fakeEventsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: /^Details of Policy created/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Event details' });
    expect(within(drawer).getByText('Policy: Office')).toBeInTheDocument();
    const changed = await within(drawer).findByRole('table', { name: 'Changed fields' });
    const rules = within(changed).getByRole('rowheader', { name: 'Rules' }).closest('tr')!;
    // The custom category is named by the look-up, the shipped one by the catalogue.
    expect(
      await within(rules).findByText(
        'No partner sites (Domains (DNS), Block): partner.example, Partner sites, Gambling',
      ),
    ).toBeInTheDocument();
    expect(within(changed).queryByRole('rowheader', { name: /^id$/i })).not.toBeInTheDocument();
    expect(api.api.calls(policyObjectEndpoints.listCategories)).toHaveLength(1);
    // Nothing refers to applications or feeds: they are not looked up (nothing else was asked for).
    expect(api.api.unhandled).toEqual([]);
  });

  it('shows labels, not codes, in German, with German plurals', async () => {
    fakeEventsApi();
    initTestI18n();
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    const { user } = renderScreen();
    const known = (await screen.findByRole('button', { name: /^Details zu Benutzer geändert/ })).closest(
      'tr',
    )!;
    expect(within(known).getByText('Benutzer')).toBeInTheDocument();
    const bulk = screen
      .getByRole('button', { name: /^Details zu Internetzugriff für Benutzer ausgeschaltet/ })
      .closest('tr')!;
    expect(within(bulk).getByText('2 Benutzer')).toBeInTheDocument();
    expect(screen.queryByText('user.bulk.disableInternetAccess')).not.toBeInTheDocument();
    expect(screen.queryByText('2 users')).not.toBeInTheDocument();

    await user.click(screen.getByLabelText('Aktion', { selector: 'input' }));
    expect(await findOption('Benutzer erstellt')).toBeInTheDocument();
    expect(await findOption('Gruppen')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Objekttyp', { selector: 'input' }));
    expect(await findOption('Gruppe')).toBeInTheDocument();
  });
});
