import {
  type Location,
  policyEndpoints,
  policyObjectEndpoints,
  type RuleRef,
  type Session,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as LocationsScreen } from './locations';

const OFFICE: Location = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Head office',
  description: 'Berlin',
  networks: ['203.0.113.0/24', '198.51.100.7'],
  usedBy: 2,
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const LAB: Location = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Lab',
  description: '',
  networks: ['192.0.2.0/24'],
  usedBy: 0,
  updatedAt: '2026-03-01T10:00:00.000Z',
};

const rule = (policyName: string, ruleName: string, ruleId: string): RuleRef => ({
  policyId: `p-${policyName}`,
  policyName,
  ruleId,
  ruleName,
  type: 'dmn',
  action: 'allow',
  system: false,
});

/** The fake API of the locations screen: the list, where each is used, and deletes. */
function fakeLocationsApi(): FakeApi {
  return fakeApi()
    .on(policyObjectEndpoints.listLocations, () => [OFFICE, LAB])
    .on(policyEndpoints.whereUsed, ({ query }) => {
      const isOffice = query.id === OFFICE.id;
      return {
        rules: isOffice
          ? [rule('Staff', 'Wiki from the office', 'r1'), rule('Guests', 'Block social', 'r2')]
          : [],
        policyGroups: isOffice ? [{ id: 'g1', name: 'Berlin staff' }] : [],
      };
    })
    .on(policyObjectEndpoints.deleteLocations, ({ body }) => ({ deleted: body.ids.length }));
}

/** What a request changed: adds, saves and deletes. */
const changes = (api: FakeApi) => api.requests.filter((s) => s.method !== 'GET');

function renderScreen(session: Session = makeSession()) {
  return renderWithProviders(<LocationsScreen />, { route: '/policy/locations', session });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('locations screen', () => {
  it('lists locations with their networks and how many rules use them', async () => {
    const api = fakeLocationsApi();
    renderScreen();
    const row = (await screen.findByRole('rowheader', { name: /Head office/ })).closest('tr') as HTMLElement;
    expect(within(row).getByText('203.0.113.0/24')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: /used by 2 rules/i })).toBeInTheDocument();
    const labRow = screen.getByRole('rowheader', { name: 'Lab' }).closest('tr') as HTMLElement;
    expect(within(labRow).getByText('Not used')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows where a location is used: the rules as policy › rule and the policy groups', async () => {
    const api = fakeLocationsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: /used by 2 rules/i }));
    const dialog = await screen.findByRole('dialog', { name: 'Where Head office is used' });
    await within(dialog).findByText('Wiki from the office');
    expect(within(dialog).getByText('Block social')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Berlin staff' })).toHaveAttribute(
      'href',
      '/policy/policyGroups/g1',
    );
    expect(api.calls(policyEndpoints.whereUsed).map((s) => s.query)).toContainEqual({
      kind: 'location',
      id: OFFICE.id,
    });
    expect(api.unhandled).toEqual([]);
  });

  it('lists the cascade before a used location is deleted, and deletes only on confirmation', async () => {
    const api = fakeLocationsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete Head office' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete Head office?' });
    expect(await within(dialog).findByText('These rules will lose this location:')).toBeInTheDocument();
    const affected = within(dialog).getByRole('list', { name: 'Affected rules' });
    expect(
      within(affected)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Wiki from the office'), expect.stringContaining('Block social')]);
    expect(within(affected).getAllByRole('listitem')[0]).toHaveTextContent(/Staff.*Wiki from the office/);
    expect(within(dialog).getByText('Rules left with nothing to match are removed.')).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);
    const [whereUsed] = api.calls(policyEndpoints.whereUsed);
    expect(Object.fromEntries(whereUsed.url.searchParams)).toEqual({
      kind: 'location',
      id: OFFICE.id,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Delete and update rules' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(api.calls(policyObjectEndpoints.deleteLocations)[0].sentBody).toEqual({ ids: [OFFICE.id] });
    expect(await screen.findByText('Location Head office deleted.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('says when nothing uses the location', async () => {
    const api = fakeLocationsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete Lab' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Lab?' });
    expect(await within(dialog).findByText('No rule uses it, so no rule changes.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(api.calls(policyEndpoints.whereUsed)[0].query).toEqual({ kind: 'location', id: LAB.id });
    expect(changes(api)).toHaveLength(0);
  });

  it('hides the write controls from a role that may only view', async () => {
    fakeLocationsApi();
    renderScreen(makeSession({ role: 'auditor' }));
    await screen.findByRole('rowheader', { name: /Head office/ });
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add location' })).not.toBeInTheDocument();
  });

  it('adds a location and edits one in the modal, saying so and closing it', async () => {
    const api = fakeLocationsApi()
      .on(policyObjectEndpoints.createLocation, ({ body }) => ({
        ...LAB,
        ...body,
        id: '33333333-3333-4333-8333-333333333333',
      }))
      .on(policyObjectEndpoints.updateLocation, ({ params, body }) =>
        params.id === OFFICE.id ? { ...OFFICE, ...body } : apiError('not_found'),
      );
    const { user } = renderScreen();

    await user.click(await screen.findByRole('button', { name: 'Add location' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add location' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Warehouse');
    await user.type(within(dialog).getByRole('textbox', { name: 'Network 1' }), '192.0.2.128/25');
    await user.click(within(dialog).getByRole('button', { name: 'Add location' }));
    expect(await screen.findByText('Location Warehouse added.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add location' })).not.toBeInTheDocument(),
    );
    expect(changes(api)).toHaveLength(1);
    expect(api.calls(policyObjectEndpoints.createLocation)[0].sentBody).toEqual({
      name: 'Warehouse',
      description: '',
      networks: ['192.0.2.128/25'],
    });

    await user.click(screen.getByRole('button', { name: 'Edit Head office' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Head office' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(within(dialog).getByRole('textbox', { name: 'Network 2' })).toHaveValue('198.51.100.7');
    await user.clear(name);
    await user.type(name, 'Berlin office');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes to Berlin office saved.')).toBeInTheDocument();
    expect(changes(api)).toHaveLength(2);
    expect(api.calls(policyObjectEndpoints.updateLocation)[0].sentBody).toEqual({
      name: 'Berlin office',
      description: 'Berlin',
      networks: ['203.0.113.0/24', '198.51.100.7'],
    });
  });

  it('keeps the delete dialog open with the policy tests a delete would break', async () => {
    const api = fakeLocationsApi().on(policyObjectEndpoints.deleteLocations, () =>
      apiError('policy_tests_failed', {
        message: 'This change would break a policy test.',
        failures: [
          { testId: 't1', name: 'Office reaches the wiki', expect: 'allow', actual: 'block', rule: null },
        ],
      }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Delete Lab' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Lab?' });
    await user.click(await within(dialog).findByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByText('Office reaches the wiki')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Delete Lab?' })).toBeInTheDocument();
    expect(screen.queryByText('Location Lab deleted.')).not.toBeInTheDocument();
    expect(changes(api)).toHaveLength(1);
    expect(api.calls(policyObjectEndpoints.deleteLocations)[0].body).toEqual({ ids: [LAB.id] });
  });
});
