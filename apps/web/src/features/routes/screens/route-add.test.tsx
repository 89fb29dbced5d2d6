import { gatewayEndpoints, type PolicyInput, type PolicySaved, policyEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { GATEWAYS_PAGE, makeRule, NEW_POLICY, NEW_RULE } from '../testing/fixtures';
import { Component as RouteAdd } from './route-add';

/** What the server answers to a created policy. */
function saved(body: PolicyInput): PolicySaved {
  const rule = body.rules?.[0];
  return {
    policy: {
      id: NEW_POLICY,
      type: 'route',
      name: body.name,
      description: '',
      enabled: true,
      precedence: 3,
      ruleCount: 1,
      policyGroups: [],
      blockPage: true,
      fullTunnel: false,
      updatedAt: '2026-03-01T10:00:00.000Z',
      rules: [
        makeRule({ id: NEW_RULE, name: rule?.name ?? '', url: rule?.url ?? '', target: rule?.target ?? '' }),
      ],
    },
    lint: [],
  };
}

function renderAdd(api: FakeApi, session = makeSession()) {
  api.on(gatewayEndpoints.listGateways, () => GATEWAYS_PAGE);
  return renderRoutes(
    [
      { path: '/devices/routes/', element: <RouteAdd /> },
      { path: '/devices/route/:id', element: <h1>Route page</h1> },
    ],
    { route: '/devices/routes/', session },
  );
}

const POPOVER = { hidden: true };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('add route', { timeout: 20_000 }, () => {
  it('checks the networks before sending anything', async () => {
    const api = fakeApi();
    const { user } = renderAdd(api);
    await screen.findByRole('heading', { level: 1, name: 'Add route' });
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Branch offices');
    await user.type(
      screen.getByRole('textbox', { name: /^Destination networks/ }),
      '10.20.0.0/16, 10.300.0.0/16',
    );
    await user.click(screen.getByRole('button', { name: 'Add route' }));
    expect(
      await screen.findByText(
        '“10.300.0.0/16” is not an IP address or CIDR block: enter IP addresses or CIDR blocks (or *).',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Choose the gateway.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Destination networks/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await user.clear(screen.getByRole('textbox', { name: /^Destination networks/ }));
    await user.type(
      screen.getByRole('textbox', { name: /^Destination networks/ }),
      '10.20.0.0/16\n10.20.0.0/16',
    );
    await user.click(screen.getByRole('button', { name: 'Add route' }));
    expect(await screen.findByText('This entry appears twice.')).toBeInTheDocument();
    expect(api.calls(policyEndpoints.createPolicy)).toHaveLength(0);
  });

  it('offers enrolled gateways only, creates a route policy with its hostname as target, and opens the route', async () => {
    const api = fakeApi().on(policyEndpoints.createPolicy, ({ body }) => saved(body));
    const { user, router } = renderAdd(api);
    await screen.findByRole('heading', { level: 1, name: 'Add route' });
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Branch offices');
    await user.type(
      screen.getByRole('textbox', { name: /^Destination networks/ }),
      '10.20.0.0/16\n10.30.0.0/16',
    );
    await user.click(screen.getByRole('combobox', { name: /^Gateway/ }));
    expect(await screen.findByRole('option', { name: 'Paris', ...POPOVER })).toBeInTheDocument();
    // A pending gateway has no host name yet; a retired one routes nothing.
    expect(screen.queryByRole('option', { name: 'New node', ...POPOVER })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Old node', ...POPOVER })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'HQ Berlin', ...POPOVER }));
    expect(
      screen.getByText('Traffic goes to the gateway with the host name hq-cybernode.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add route' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/devices/route/${NEW_RULE}`));
    expect(api.calls(policyEndpoints.createPolicy).map((call) => call.sentBody)).toEqual([
      {
        type: 'route',
        name: 'Branch offices',
        description: '',
        enabled: true,
        rules: [
          {
            name: 'Branch offices',
            type: 'ROUTE',
            action: 'route',
            url: '10.20.0.0/16;10.30.0.0/16',
            target: 'hq-cybernode',
            enabled: true,
          },
        ],
      },
    ]);
    expect(await screen.findByText('Route Branch offices added.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows the server’s 400 details on the fields', async () => {
    const api = fakeApi().on(policyEndpoints.createPolicy, () =>
      apiError('validation_failed', {
        details: [
          { path: 'body.name', message: 'policy.validation.nameTaken' },
          { path: 'body.rules.0.target', message: 'policy.validation.gateway' },
        ],
      }),
    );
    const { user, router } = renderAdd(api);
    await screen.findByRole('heading', { level: 1, name: 'Add route' });
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Branch offices');
    await user.type(screen.getByRole('textbox', { name: /^Destination networks/ }), '10.20.0.0/16');
    await user.click(screen.getByRole('combobox', { name: /^Gateway/ }));
    await user.click(await screen.findByRole('option', { name: 'Paris', ...POPOVER }));
    await user.click(screen.getByRole('button', { name: 'Add route' }));

    expect(await screen.findByText('A policy with this name already exists.')).toBeInTheDocument();
    expect(screen.getByText('Enter a gateway name.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveFocus();
    expect(api.calls(policyEndpoints.createPolicy)[0].sentBody).toMatchObject({
      rules: [{ target: 'paris.example' }],
    });
    expect(router.state.location.pathname).toBe('/devices/routes/');
  });

  it('is not offered to a role that may not create policies', async () => {
    const api = fakeApi();
    renderAdd(api, makeSession({ role: 'security_analyst' }));
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add route' })).not.toBeInTheDocument();
  });
});
