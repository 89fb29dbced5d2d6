import { type SiteConfigView, siteConfigEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, type RenderAppResult, renderWithProviders } from '../../../testing/render';
import { BERLIN_ID, BERLIN_VIEW, lans } from '../testing/site-fixtures';
import { SiteConfigTabs } from './site-config-tabs';

const POPOVER = { hidden: true };
const NEXT_VERSION = 'c3d4e5f607182930.0badf00d';

/** The fake API of one site gateway's configuration, saving as the server would. */
function fakeSiteApi(start: SiteConfigView) {
  let view = start;
  return fakeApi()
    .on(siteConfigEndpoints.getSiteConfig, ({ params }) =>
      params.id === view.gatewayId ? view : apiError('not_found'),
    )
    .on(siteConfigEndpoints.putSiteConfig, ({ body }) => {
      view = {
        ...view,
        ...body,
        updatedAt: '2026-03-02T10:00:00.000Z',
        currentVersion: NEXT_VERSION,
        isApplied: false,
      };
      return view;
    });
}

function renderTabs(session = makeSession()) {
  return renderWithProviders(<SiteConfigTabs tenant="acme" gatewayId={BERLIN_ID} />, {
    session,
    route: `/devices/${BERLIN_ID}`,
  });
}

/** The value shown for a term of a description list. */
function shownFor(term: string): HTMLElement {
  const dt = screen.getAllByRole('term').find((element) => element.textContent === term);
  if (!dt?.nextElementSibling) throw new Error(`No term “${term}”`);
  return dt.nextElementSibling as HTMLElement;
}

const textbox = (name: string | RegExp) => screen.getByRole('textbox', { name });

/** Opens the select named `select` and picks `option` from its own list. */
async function choose(user: RenderAppResult['user'], select: string, option: string) {
  const combobox = screen.getByRole('combobox', { name: select });
  await user.click(combobox);
  const listbox = await waitFor(() => {
    const id = combobox.getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`The list of “${select}” is not open`);
    return element;
  });
  await user.click(within(listbox).getByRole('option', { name: option, ...POPOVER }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('site configuration tabs', { timeout: 30_000 }, () => {
  it('shows the saved configuration in its tabs, and whether the gateway enforces it', async () => {
    const api = fakeSiteApi(BERLIN_VIEW);
    const { user } = renderTabs();
    expect(await screen.findByText('Not enforced yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Site configuration' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'The gateway has not taken up the saved configuration yet. It normally does within seconds.',
      ),
    ).toBeInTheDocument();
    expect(shownFor('Gateway status')).toHaveTextContent('Online');
    expect(shownFor('Bundle with this configuration')).toHaveTextContent(BERLIN_VIEW.currentVersion ?? '');
    expect(shownFor('Bundle the gateway enforces')).toHaveTextContent(BERLIN_VIEW.appliedVersion ?? '');

    // LAN: the management port is named in the help text; DHCP is on, so its range is shown.
    expect(screen.getByRole('tab', { name: 'LAN', selected: true })).toBeInTheDocument();
    expect(
      screen.getByText(/management port 9630 answers from the LAN and VLAN networks only/),
    ).toBeInTheDocument();
    const lanTable = screen.getByRole('table', { name: 'LANs' });
    expect(within(lanTable).getByRole('columnheader', { name: 'Gateway address' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'LAN port of LAN row 1' })).toHaveValue('LAN 1');
    expect(textbox('Name of LAN row 1')).toHaveValue('Office');
    expect(textbox('Gateway address of LAN row 1')).toHaveValue('192.168.1.1');
    expect(textbox('Prefix length of LAN row 1')).toHaveValue('/24');
    expect(screen.getByRole('switch', { name: 'DHCP of LAN row 1' })).toBeChecked();
    expect(textbox('DHCP start of LAN row 1')).toHaveValue('192.168.1.100');
    expect(textbox('DHCP end of LAN row 1')).toHaveValue('192.168.1.200');

    await user.click(screen.getByRole('tab', { name: 'VLANs' }));
    expect(textbox('VLAN ID of VLAN row 1')).toHaveValue('10');
    expect(textbox('Name of VLAN row 1')).toHaveValue('Guests');
    expect(screen.getByRole('combobox', { name: 'Parent LAN of VLAN row 1' })).toHaveValue('LAN 1 · Office');

    await user.click(screen.getByRole('tab', { name: 'WAN' }));
    expect(screen.getByRole('radio', { name: 'Static address' })).toBeChecked();
    expect(textbox(/^Address/)).toHaveValue('203.0.113.10');
    expect(textbox(/^Prefix length/)).toHaveValue('/29');
    expect(textbox(/^Default gateway/)).toHaveValue('203.0.113.9');
    expect(textbox('DNS server 1')).toHaveValue('9.9.9.9');

    await user.click(screen.getByRole('tab', { name: 'Port forwards' }));
    expect(textbox('Name of port forward 1')).toHaveValue('Web');
    expect(screen.getByRole('combobox', { name: 'Protocol of port forward 1' })).toHaveValue('TCP');
    expect(textbox('External ports of port forward 1')).toHaveValue('443');
    expect(textbox('Internal host of port forward 1')).toHaveValue('192.168.1.10');
    expect(textbox('Internal port of port forward 1')).toHaveValue('');
    expect(textbox('Source of port forward 1')).toHaveValue('any');

    await user.click(screen.getByRole('tab', { name: 'Traffic flows' }));
    expect(textbox('Name of traffic flow 1')).toHaveValue('To HQ');
    expect(screen.getByRole('combobox', { name: 'Via of traffic flow 1' })).toHaveValue(
      'Tunnel to the cybernode',
    );
    expect(textbox('Destination of traffic flow 1')).toHaveValue('10.20.0.0/16');
    expect(api.unhandled).toEqual([]);
  });

  it('says so when the gateway enforces the saved configuration', async () => {
    fakeSiteApi({ ...BERLIN_VIEW, appliedVersion: BERLIN_VIEW.currentVersion, isApplied: true });
    renderTabs();
    expect(await screen.findByText('Enforced')).toBeInTheDocument();
    expect(screen.getByText('The gateway enforces the saved configuration.')).toBeInTheDocument();
  });

  it('adds a LAN and a VLAN on it, and saves the whole configuration with one PUT', async () => {
    const api = fakeSiteApi(BERLIN_VIEW);
    const { user } = renderTabs();
    await user.click(await screen.findByRole('button', { name: 'Add LAN' }));
    // The new row takes the lowest free LAN port and has the focus.
    expect(screen.getByRole('combobox', { name: 'LAN port of LAN row 2' })).toHaveValue('LAN 2');
    expect(screen.getByRole('combobox', { name: 'LAN port of LAN row 2' })).toHaveFocus();
    await user.type(textbox('Name of LAN row 2'), 'Lab');
    await user.type(textbox('Gateway address of LAN row 2'), '192.168.2.1');

    await user.click(screen.getByRole('tab', { name: 'VLANs' }));
    await user.click(screen.getByRole('button', { name: 'Add VLAN' }));
    await user.type(textbox('VLAN ID of VLAN row 2'), '20');
    await user.type(textbox('Name of VLAN row 2'), 'Lab guests');
    await choose(user, 'Parent LAN of VLAN row 2', 'LAN 2 · Lab');
    await user.type(textbox('Gateway address of VLAN row 2'), '192.168.20.1');

    await user.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(
      await screen.findByText(
        'Configuration of “Berlin office” saved. The gateway receives it with its next bundle.',
      ),
    ).toBeInTheDocument();
    const [put] = api.calls(siteConfigEndpoints.putSiteConfig);
    expect(put.params).toEqual({ tenant: 'acme', id: BERLIN_ID });
    expect(put.sentBody).toEqual({
      lans: [
        {
          id: 1,
          name: 'Office',
          address: '192.168.1.1',
          prefix: 24,
          lanDhcp: true,
          dhcpStart: '192.168.1.100',
          dhcpEnd: '192.168.1.200',
        },
        { id: 2, name: 'Lab', address: '192.168.2.1', prefix: 24, lanDhcp: false },
      ],
      vlans: [
        { vlanId: 10, name: 'Guests', lanId: 1, address: '192.168.10.1', prefix: 24 },
        { vlanId: 20, name: 'Lab guests', lanId: 2, address: '192.168.20.1', prefix: 24 },
      ],
      wan: {
        mode: 'static',
        ips: [{ address: '203.0.113.10', prefix: 29 }],
        gateway: '203.0.113.9',
        dns: ['9.9.9.9'],
      },
      portForwards: [{ name: 'Web', protocol: 'tcp', ports: '443', ip: '192.168.1.10', source: 'any' }],
      trafficFlows: [{ name: 'To HQ', lanId: 1, via: 'tunnel', destination: '10.20.0.0/16' }],
    });
    // The answer is the new state: saved, carried by a new bundle the gateway has not taken up yet.
    await waitFor(() => expect(shownFor('Bundle with this configuration')).toHaveTextContent(NEXT_VERSION));
    expect(screen.getByRole('button', { name: 'Discard changes' })).toBeDisabled();
  });

  it('refuses an 11th LAN: the add button is disabled at 10, saying why', async () => {
    fakeSiteApi({ ...BERLIN_VIEW, lans: lans(9), vlans: [], portForwards: [], trafficFlows: [] });
    const { user } = renderTabs();
    const add = await screen.findByRole('button', { name: 'Add LAN' });
    expect(screen.getByText('9 / 10')).toBeInTheDocument();
    await user.click(add);
    expect(screen.getByRole('combobox', { name: 'LAN port of LAN row 10' })).toHaveValue('LAN 10');
    expect(screen.getByText('10 / 10')).toBeInTheDocument();
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription('A site gateway has at most 10 LANs.');
    expect(screen.getByText('A site gateway has at most 10 LANs.')).toBeVisible();
  });

  it('shows a duplicate port forward at its internal host, naming the ip and both sources, without saving', async () => {
    const api = fakeSiteApi(BERLIN_VIEW);
    const { user } = renderTabs();
    await user.click(await screen.findByRole('tab', { name: 'Port forwards' }));
    await user.click(screen.getByRole('button', { name: 'Add port forward' }));
    await user.type(textbox('Name of port forward 2'), 'Admin');
    await user.type(textbox('External ports of port forward 2'), '8000-8080');
    await user.type(textbox('Internal host of port forward 2'), '192.168.1.10');
    await user.clear(textbox('Source of port forward 2'));
    await user.type(textbox('Source of port forward 2'), '10.0.0.0/8');
    // Back to the first tab: a failed check opens the tab of the first problem.
    await user.click(screen.getByRole('tab', { name: 'LAN' }));
    await user.click(screen.getByRole('button', { name: 'Save configuration' }));

    const message = '192.168.1.10 is forwarded twice for overlapping sources: any and 10.0.0.0/8.';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Port forwards/, selected: true })).toHaveTextContent('1');
    const host = textbox('Internal host of port forward 2');
    expect(host).toHaveAttribute('aria-invalid', 'true');
    expect(host).toHaveAccessibleDescription(message);
    await waitFor(() => expect(host).toHaveFocus());
    expect(screen.getByText(/not saved: 1 field needs attention/)).toBeInTheDocument();
    expect(api.calls(siteConfigEndpoints.putSiteConfig)).toHaveLength(0);
  });

  it('shows the other checks across rows at their field, translated', async () => {
    const api = fakeSiteApi({ ...BERLIN_VIEW, vlans: [], portForwards: [], trafficFlows: [] });
    const { user } = renderTabs();
    await user.clear(await screen.findByRole('textbox', { name: 'DHCP start of LAN row 1' }));
    await user.type(textbox('DHCP start of LAN row 1'), '192.168.2.100');
    await user.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(
      await screen.findByText(/The DHCP range must lie within the LAN.s host addresses/),
    ).toBeInTheDocument();
    expect(textbox('DHCP start of LAN row 1')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls(siteConfigEndpoints.putSiteConfig)).toHaveLength(0);
  });

  it('puts the server’s 400 details on their field, with their values', async () => {
    const api = fakeSiteApi(BERLIN_VIEW);
    api.on(siteConfigEndpoints.putSiteConfig, () =>
      apiError('validation_failed', {
        details: [
          {
            path: 'body.portForwards.0.ip',
            message: 'validation.ipSourceConflict',
            values: { ip: '192.168.1.10', source: 'any', otherSource: '203.0.113.0/24' },
          },
        ],
      }),
    );
    const { user } = renderTabs();
    await user.click(await screen.findByRole('button', { name: 'Save configuration' }));
    const message = '192.168.1.10 is forwarded twice for overlapping sources: any and 203.0.113.0/24.';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Port forwards/, selected: true })).toBeInTheDocument();
    const host = textbox('Internal host of port forward 1');
    expect(host).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(host).toHaveFocus());
    expect(api.calls(siteConfigEndpoints.putSiteConfig)).toHaveLength(1);
    // Changing the field clears its error.
    await user.type(host, '1');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it('toasts a refusal that is about no field of the form', async () => {
    const api = fakeSiteApi(BERLIN_VIEW);
    api.on(siteConfigEndpoints.putSiteConfig, () =>
      apiError('validation_failed', { details: [{ path: 'params.id', message: 'validation.siteGateway' }] }),
    );
    const { user } = renderTabs();
    await user.click(await screen.findByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('The configuration was not saved')).toBeInTheDocument();
    expect(screen.getByText('Choose a site gateway of this tenant.')).toBeInTheDocument();
    expect(screen.queryByText(/fields? needs? attention/)).not.toBeInTheDocument();
  });

  it('is read-only for a role that may not update gateways', async () => {
    fakeSiteApi(BERLIN_VIEW);
    renderTabs(makeSession({ role: 'security_analyst' }));
    expect(await screen.findByRole('textbox', { name: 'Name of LAN row 1' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save configuration' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add LAN' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Copy to another gateway' })).not.toBeInTheDocument();
  });
});
