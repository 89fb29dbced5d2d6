import { localControlsEndpoints, MAX_LOCAL_POLICIES } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession, type RenderAppResult, renderWithProviders } from '../../../testing/render';
import { fakeLocalControlsApi } from '../testing/fake-local-controls';
import {
  BERLIN_ID,
  BERLIN_VIEW,
  MUNICH_ID,
  MUNICH_VIEW,
  OLD_SITE,
  PRINTERS_ID,
  STAFF_ID,
  userPolicies,
} from '../testing/fixtures';
import { Component as LocalPolicies } from './local-policies';

function renderScreen(route = '/devices/local-policies', session = makeSession()) {
  return renderWithProviders(<LocalPolicies />, { route, session });
}

/** Opens the select named `select` and picks `option` from its own list (popovers count as hidden). */
async function choose(user: RenderAppResult['user'], select: string, option: string) {
  const combobox = screen.getByRole('combobox', { name: select });
  await user.click(combobox);
  const listbox = await waitFor(() => {
    const id = combobox.getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`The list of “${select}” is not open`);
    return element;
  });
  await user.click(within(listbox).getByRole('option', { name: option, hidden: true }));
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('local policies screen', { timeout: 30_000 }, () => {
  it('shows the first site gateway’s policies by default, with type and state, and no QoS policy', async () => {
    const api = fakeLocalControlsApi();
    renderScreen();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Local policies of Berlin office' }),
    ).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Local policies' })).toBeInTheDocument();
    expect(
      screen.getByText(/without the tunnel to a cybernode\. It receives a change with its next bundle/),
    ).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Site gateway' })).toHaveValue('Berlin office · Berlin');

    expect(await screen.findByRole('checkbox', { name: 'Staff web' })).toBeChecked();
    expect(checkbox('Staff web')).toHaveAccessibleDescription('User policy · Enabled');
    expect(checkbox('Guests')).not.toBeChecked();
    expect(checkbox('Guests')).toHaveAccessibleDescription('User policy · Disabled: enforced once enabled');
    expect(checkbox('Printers')).toHaveAccessibleDescription('Device policy · Enabled');
    expect(screen.queryByRole('checkbox', { name: 'VoIP' })).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Policies enforced locally' })).toHaveAccessibleDescription(
      expect.stringContaining('1 of 8 chosen.'),
    );
    expect(screen.getByText(/Last saved/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    // The retired gateway is never fetched: only Berlin's controls were asked for.
    expect(api.calls(localControlsEndpoints.getLocalControls).map((call) => call.params.id)).toEqual([
      BERLIN_ID,
    ]);
    expect(api.unhandled).toEqual([]);
  });

  it('saves a chosen policy with the other three lists as loaded, in one PUT', async () => {
    const api = fakeLocalControlsApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('checkbox', { name: 'Printers' }));
    expect(screen.getByText('Changes not saved yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(localControlsEndpoints.putLocalControls)).toHaveLength(1));
    const [put] = api.calls(localControlsEndpoints.putLocalControls);
    expect(put.params.id).toBe(BERLIN_ID);
    expect(put.sentBody).toEqual({
      policyIds: [STAFF_ID, PRINTERS_ID],
      categories: BERLIN_VIEW.categories,
      countries: BERLIN_VIEW.countries,
      feeds: BERLIN_VIEW.feeds,
    });
    expect(
      await screen.findByText(
        'Local controls of “Berlin office” saved. The gateway receives them with its next bundle.',
      ),
    ).toBeInTheDocument();
    expect(checkbox('Printers')).toBeChecked();
    expect(screen.queryByText('Changes not saved yet.')).not.toBeInTheDocument();
    // The overview is asked again and counts the new policy.
    const table = screen.getByRole('table', { name: /Local controls of every site gateway/ });
    await waitFor(() =>
      expect(
        within(
          within(table).getByRole('rowheader', { name: 'Berlin office' }).closest('tr') as HTMLElement,
        ).getAllByRole('cell')[0],
      ).toHaveTextContent('2'),
    );
  });

  it(`refuses a policy past ${MAX_LOCAL_POLICIES} and says why`, async () => {
    const nine = userPolicies(MAX_LOCAL_POLICIES + 1);
    const eight = nine.slice(0, MAX_LOCAL_POLICIES);
    const api = fakeLocalControlsApi({
      policies: { qos: [], user: nine, device: [] },
      views: [
        {
          ...MUNICH_VIEW,
          gatewayId: BERLIN_ID,
          name: 'Berlin office',
          policyIds: eight.map((policy) => policy.id),
          policies: eight.map((policy) => ({
            id: policy.id,
            name: policy.name,
            type: 'other',
            enabled: true,
          })),
        },
      ],
    });
    const { user } = renderScreen();
    const ninth = await screen.findByRole('checkbox', { name: 'Policy 9' });
    expect(screen.getByRole('group', { name: 'Policies enforced locally' })).toHaveAccessibleDescription(
      expect.stringContaining('8 of 8 chosen.'),
    );
    await user.click(ninth);
    expect(ninth).not.toBeChecked();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'A site gateway enforces at most 8 local policies. Take one off before you choose another.',
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    // Taking one off makes room, and the explanation goes.
    await user.click(checkbox('Policy 1'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(ninth);
    expect(ninth).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(localControlsEndpoints.putLocalControls)).toHaveLength(1));
    expect(api.calls(localControlsEndpoints.putLocalControls)[0].body.policyIds).toEqual(
      nine.slice(1).map((policy) => policy.id),
    );
  });

  it('shows the server’s refusal of a policy at that policy, and of the list at the list', async () => {
    const api = fakeLocalControlsApi();
    api.on(localControlsEndpoints.putLocalControls, () =>
      apiError('validation_failed', {
        details: [
          { path: 'body.policyIds', message: 'validation.maxLocalPolicies' },
          { path: 'body.policyIds.1', message: 'validation.qosNotLocal' },
        ],
      }),
    );
    const { user } = renderScreen();
    await user.click(await screen.findByRole('checkbox', { name: 'Printers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(checkbox('Printers')).toHaveAccessibleDescription(
        expect.stringContaining('A QoS policy only classifies traffic: it cannot be enforced locally.'),
      ),
    );
    expect(checkbox('Staff web')).toHaveAccessibleDescription('User policy · Enabled');
    expect(screen.getByRole('group', { name: 'Policies enforced locally' })).toHaveAccessibleDescription(
      expect.stringContaining('A site gateway enforces at most 8 local policies.'),
    );
    // Nothing was saved: the change is still there to correct.
    expect(checkbox('Printers')).toBeChecked();
    expect(screen.getByText('Changes not saved yet.')).toBeInTheDocument();
  });

  it('switches the site gateway with the selector, keeps it in the address and loads its controls', async () => {
    const api = fakeLocalControlsApi();
    const { user, router } = renderScreen();
    expect(await screen.findByRole('checkbox', { name: 'Staff web' })).toBeChecked();

    // The retired gateway is not offered.
    await user.click(screen.getByRole('combobox', { name: 'Site gateway' }));
    expect(screen.queryByRole('option', { name: OLD_SITE.name, hidden: true })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await choose(user, 'Site gateway', 'Munich shop · Munich');
    await waitFor(() => expect(router.state.location.search).toBe(`?gateway=${MUNICH_ID}`));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Local policies of Munich shop' }),
    ).toBeVisible();
    await waitFor(() => expect(checkbox('Staff web')).not.toBeChecked());
    expect(screen.getByText('No local controls saved for this gateway yet.')).toBeInTheDocument();
    expect(api.calls(localControlsEndpoints.getLocalControls).map((call) => call.params.id)).toEqual([
      BERLIN_ID,
      MUNICH_ID,
    ]);

    // Saved there, the PUT goes to Munich with Munich's other lists.
    await user.click(checkbox('Guests'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(localControlsEndpoints.putLocalControls)).toHaveLength(1));
    const [put] = api.calls(localControlsEndpoints.putLocalControls);
    expect(put.params.id).toBe(MUNICH_ID);
    expect(put.sentBody).toEqual({
      policyIds: [checkboxId('Guests')],
      categories: [],
      countries: [],
      feeds: [],
    });
  });

  it('opens the gateway the address names', async () => {
    const api = fakeLocalControlsApi();
    renderScreen(`/devices/local-policies?gateway=${MUNICH_ID}`);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Local policies of Munich shop' }),
    ).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Site gateway' })).toHaveValue('Munich shop · Munich');
    expect(api.calls(localControlsEndpoints.getLocalControls).map((call) => call.params.id)).toEqual([
      MUNICH_ID,
    ]);
  });

  it('counts what each site gateway has in the overview, each a link to its controls', async () => {
    fakeLocalControlsApi();
    const { user, router } = renderScreen();
    const table = await screen.findByRole('table', {
      name: 'Local controls of every site gateway, counted per list.',
    });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Site gateway', 'Local policies', 'Web categories', 'Countries', 'Threat feeds']);
    const cells = (name: string) =>
      within(within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Berlin office')).toEqual(['1', '1', '1', '1']);
    expect(cells('Munich shop')).toEqual(['0', '0', '0', '0']);
    expect(within(table).getByRole('link', { name: 'Berlin office' })).toHaveAttribute(
      'aria-current',
      'true',
    );

    await user.click(within(table).getByRole('link', { name: 'Munich shop' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?gateway=${MUNICH_ID}`));
    expect(router.state.location.pathname).toBe('/devices/local-policies');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Local policies of Munich shop' }),
    ).toBeVisible();
  });

  it('invites to add a site gateway when the tenant has none in service', async () => {
    const api = fakeLocalControlsApi({ gateways: [OLD_SITE], views: [] });
    renderScreen();
    expect(await screen.findByText(/This tenant has no site gateway yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a site gateway' })).toHaveAttribute(
      'href',
      '/devices/new/add',
    );
    expect(screen.queryByRole('combobox', { name: 'Site gateway' })).not.toBeInTheDocument();
    expect(api.calls(localControlsEndpoints.getLocalControls)).toEqual([]);
  });
});

/** The policy id of a fixture policy by its name (the checkbox's value). */
function checkboxId(name: string): string {
  return (checkbox(name) as HTMLInputElement).value;
}
