import {
  enrolmentEndpoints,
  gatewayEndpoints,
  networkEndpoints,
  type Policy,
  policyEndpoints,
  type Session,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import {
  ALL_ROUTES,
  BRANCH_POLICY,
  BRANCH_POLICY_FULL,
  BRANCH_RULE,
  DEVICE_ID,
  GATEWAYS_PAGE,
  OTHER_RULE,
  SYSTEM_RULE,
} from '../testing/fixtures';
import { Component as RouteDetail } from './route-detail';

const POPOVER = { hidden: true };

/** The fake API of the route screen; policy saves answer the policy as sent. */
function fakeRouteApi() {
  return fakeApi()
    .on(networkEndpoints.listRoutes, () => ({ items: ALL_ROUTES }))
    .on(networkEndpoints.getRoute, ({ params }) => {
      const found = ALL_ROUTES.find((route) => route.ruleId === params.id);
      return found ?? apiError('not_found');
    })
    .on(gatewayEndpoints.listGateways, () => GATEWAYS_PAGE)
    .on(policyEndpoints.getPolicy, () => BRANCH_POLICY_FULL)
    .on(policyEndpoints.updatePolicy, () => ({ policy: BRANCH_POLICY_FULL as Policy, lint: [] }));
}

function renderDetail(id: string, session: Session = makeSession()) {
  return renderRoutes(
    [
      { path: '/devices/route/:id', element: <RouteDetail /> },
      { path: '/devices/route/:id/:deviceid', element: <h1>Device view</h1> },
    ],
    { route: `/devices/route/${id}`, session },
  );
}

/** The value shown for a term of a description list. */
function shownFor(term: string): HTMLElement {
  const dt = screen.getAllByRole('term').find((element) => element.textContent === term);
  if (!dt?.nextElementSibling) throw new Error(`No term “${term}”`);
  return dt.nextElementSibling as HTMLElement;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('route view', { timeout: 20_000 }, () => {
  it('shows the networks, gateway and status, policy and evaluation position', async () => {
    const api = fakeRouteApi();
    renderDetail(BRANCH_RULE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Branch offices' })).toBeInTheDocument();
    expect(shownFor('Destination networks')).toHaveTextContent('10.20.0.0/1610.30.0.0/16');
    expect(shownFor('Gateway')).toHaveTextContent('HQ BerlinOnline');
    expect(shownFor('Gateway host name')).toHaveTextContent('hq-cybernode');
    expect(within(shownFor('Policy')).getByRole('link', { name: 'Branch routes' })).toHaveAttribute(
      'href',
      `/policy/list?policy=${BRANCH_POLICY}`,
    );
    expect(await screen.findByText('2 of 5 route rules')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit route' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('edits only that rule of its policy, sending the other rules back as they are', async () => {
    const api = fakeRouteApi();
    const { user } = renderDetail(BRANCH_RULE);
    await user.click(await screen.findByRole('button', { name: 'Edit route' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Branch offices');
    const networks = screen.getByRole('textbox', { name: /^Destination networks/ });
    expect(networks).toHaveValue('10.20.0.0/16\n10.30.0.0/16');
    await user.clear(name);
    await user.type(name, 'Branches');
    await user.clear(networks);
    await user.type(networks, '10.20.0.0/16, 10.50.0.0/16');
    await user.click(screen.getByRole('combobox', { name: /^Gateway/ }));
    await user.click(await screen.findByRole('option', { name: 'Paris', ...POPOVER }));
    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Save route' }));

    await waitFor(() => expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(1));
    const call = api.calls(policyEndpoints.updatePolicy)[0];
    expect(call.params.id).toBe(BRANCH_POLICY);
    const [, allow, branch, other] = BRANCH_POLICY_FULL.rules;
    const unchanged = ({ issysgen: _, ...rule }: typeof allow) => rule;
    expect(call.sentBody).toEqual({
      type: 'route',
      name: 'Branch routes',
      description: 'Offices and partners',
      enabled: true,
      // The system rule is not sent: the server keeps it.
      rules: [
        unchanged(allow),
        {
          ...unchanged(branch),
          name: 'Branches',
          url: '10.20.0.0/16;10.50.0.0/16',
          target: 'paris.example',
          enabled: false,
        },
        unchanged(other),
      ],
    });
    expect(await screen.findByText('Route Branch offices saved.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows failing policy tests of a refused save, and 400 details on the fields', async () => {
    let answer: 'tests' | 'invalid' = 'tests';
    const api = fakeRouteApi().on(policyEndpoints.updatePolicy, () =>
      answer === 'tests'
        ? apiError('policy_tests_failed', {
            failures: [
              {
                testId: 't1',
                name: 'Lab stays reachable',
                expect: 'allow',
                actual: 'block',
                rule: null,
              },
            ],
          })
        : apiError('validation_failed', {
            details: [
              { path: 'body.rules.1.url', message: 'validation.duplicate', values: { item: '10.20.0.0/16' } },
            ],
          }),
    );
    const { user } = renderDetail(BRANCH_RULE);
    await user.click(await screen.findByRole('button', { name: 'Edit route' }));
    await screen.findByRole('textbox', { name: /^Name/ });
    await user.click(screen.getByRole('button', { name: 'Save route' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not saved: this change breaks policy tests');
    expect(alert).toHaveTextContent('Lab stays reachable');

    answer = 'invalid';
    await user.click(screen.getByRole('button', { name: 'Save route' }));
    expect(await screen.findByText('This entry appears twice.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Destination networks/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(2);
  });

  it('keeps a system rule read-only', async () => {
    fakeRouteApi();
    renderDetail(SYSTEM_RULE);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'route rule: site Munich' }),
    ).toBeInTheDocument();
    expect(screen.getByText('System rule')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit route' })).not.toBeInTheDocument();
  });

  it('hides editing and copying without the permissions, and the device check without devices:view', async () => {
    fakeRouteApi();
    const session = makeSession({
      role: 'custom',
      customRoleName: 'Policy reader',
      permissions: ['policies:view'],
    });
    renderDetail(BRANCH_RULE, session);
    await screen.findByRole('heading', { level: 1, name: 'Branch offices' });
    expect(screen.queryByRole('button', { name: 'Edit route' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Copy' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Check a device' })).not.toBeInTheDocument();
  });

  it('opens the route as a device picked by a search gets it', async () => {
    const api = fakeRouteApi().on(enrolmentEndpoints.listDeviceOptions, ({ query }) =>
      [{ id: DEVICE_ID, name: 'Ada laptop', os: 'mac' as const, username: 'ada@acme.example' }].filter(
        (device) => device.name.toLowerCase().includes((query.q ?? '').toLowerCase()),
      ),
    );
    const { user, router } = renderDetail(BRANCH_RULE);
    const check = await screen.findByRole('region', { name: 'Check a device' });
    await user.type(within(check).getByRole('combobox', { name: /^Device/ }), 'ada');
    await user.click(
      await screen.findByRole(
        'option',
        { name: 'Ada laptop (ada@acme.example)', ...POPOVER },
        { timeout: 3000 },
      ),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/devices/route/${BRANCH_RULE}/${DEVICE_ID}`),
    );
    expect(api.calls(enrolmentEndpoints.listDeviceOptions).length).toBeGreaterThan(0);
  });

  it('says when there is no such route', async () => {
    fakeRouteApi();
    renderDetail(OTHER_RULE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Route not found' })).toBeInTheDocument();
  });
});
