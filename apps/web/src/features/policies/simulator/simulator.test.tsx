import { policyEndpoints, type SimulationResult } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { ALPHA, BLOCK_GAMBLING, fakePolicyApi } from '../testing/fixtures';
import { SimulateButton } from './index';

const RESULT: SimulationResult = {
  decision: 'block',
  rule: BLOCK_GAMBLING,
  layer: 'dns',
  rewrite: null,
  gateway: null,
  qos: '00000000-0000-0000-0000-000000000000',
  context: {
    host: 'casino.example',
    path: '/',
    ip: null,
    port: 443,
    sourceCountry: null,
    destinationCountry: 'MT',
    categories: ['Gambling'],
    apps: [],
    groups: ['Engineers'],
  },
  trace: [
    {
      layer: 'dns',
      rule: {
        ...BLOCK_GAMBLING,
        policyId: 'sys',
        policyName: 'system:threatIntel',
        ruleName: 'Feed: abuse',
        system: true,
      },
      outcome: 'no-match',
      reason: 'policy.trace.hostNoMatch',
      values: { host: 'casino.example' },
    },
    {
      layer: 'dns',
      rule: BLOCK_GAMBLING,
      outcome: 'matched',
      reason: 'policy.trace.matched',
      values: { item: 'casino.example', action: 'block', target: '' },
    },
    {
      layer: 'network',
      rule: null,
      outcome: 'skipped',
      reason: 'policy.trace.layerNotReached',
      values: {},
    },
  ],
};

/** The fake API of the simulator: `decide` answers the simulation; the look-ups answer empty lists. */
function fakeSimulatorApi(decide: () => FakeAnswer<typeof policyEndpoints.simulate>) {
  return fakePolicyApi().on(policyEndpoints.simulate, decide);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policy simulator', () => {
  it('sends the request and shows the decision, the deciding rule and the trace grouped by layer', async () => {
    const api = fakeSimulatorApi(() => RESULT);
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });

    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'https://casino.example/');
    await user.type(within(drawer).getByRole('textbox', { name: /Source IP/ }), '203.0.113.10');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));

    expect(await within(drawer).findByText('Blocked')).toBeInTheDocument();
    const [simulate] = api.calls(policyEndpoints.simulate);
    expect(simulate.params).toEqual({ tenant: 'acme' });
    expect(simulate.sentBody).toEqual({
      request: { destination: 'https://casino.example/', protocol: 'tcp', sourceIp: '203.0.113.10' },
    });

    // The deciding rule, as policy › rule.
    const decidedBy = within(drawer).getByText('Decided by').nextElementSibling as HTMLElement;
    expect(decidedBy).toHaveTextContent('Alpha');
    expect(decidedBy).toHaveTextContent('Block gambling');
    // The resolved context.
    expect(within(drawer).getByText('Gambling')).toBeInTheDocument();
    expect(within(drawer).getByText('Engineers')).toBeInTheDocument();

    // The trace: one ordered list per layer, in evaluation order, each step with outcome and reason.
    const dns = within(drawer).getByRole('heading', { name: 'DNS' });
    const network = within(drawer).getByRole('heading', { name: 'Network' });
    expect(dns.compareDocumentPosition(network) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const steps = within(drawer).getAllByTestId('trace-step');
    expect(steps).toHaveLength(3);
    expect(steps[0]).toHaveTextContent('No match');
    expect(steps[0]).toHaveTextContent('Threat intelligence');
    expect(steps[0]).toHaveTextContent('System');
    expect(steps[0]).toHaveTextContent("casino.example is not in the rule's domains.");
    expect(steps[1]).toHaveTextContent('Matched');
    expect(steps[1]).toHaveTextContent('Matched casino.example: Block.');
    expect(steps[2]).toHaveTextContent('Skipped');
    expect(steps[2]).toHaveTextContent('Not evaluated: an earlier layer blocked the request.');
  });

  it('decides against the unsaved draft it was given', async () => {
    const api = fakeSimulatorApi(() => ({
      ...RESULT,
      decision: 'allow',
      rule: null,
      layer: null,
      trace: [],
    }));
    const draft = { id: ALPHA, policy: { type: 'other' as const, name: 'Alpha', rules: [] } };
    const { user } = renderWithProviders(<SimulateButton draft={draft} />, { session: makeSession() });

    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    expect(within(drawer).getByText(/Decided with your unsaved changes to Alpha/)).toBeInTheDocument();
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));

    expect(await within(drawer).findByText('Allowed')).toBeInTheDocument();
    const decidedBy = within(drawer).getByText('Decided by').nextElementSibling as HTMLElement;
    expect(decidedBy).toHaveTextContent('No rule matched — allowed by default');
    const [simulate] = api.calls(policyEndpoints.simulate);
    expect(simulate.sentBody).toMatchObject({ request: { destination: 'casino.example' }, draft });
  });

  it('tells QoS after the layers it follows, as they are evaluated, and names countries', async () => {
    const QOS_CLASS = '5e1f0c2a-9d4b-4c61-8a57-3f0e2b7d1c01';
    fakeSimulatorApi(() => ({
      ...RESULT,
      decision: 'allow',
      rule: null,
      layer: null,
      gateway: 'hq-cybernode',
      qos: QOS_CLASS,
      trace: [
        { layer: 'qos', rule: null, outcome: 'default', reason: 'policy.trace.qosDefault', values: {} },
        {
          layer: 'dns',
          rule: null,
          outcome: 'default',
          reason: 'policy.trace.layerDefault',
          values: {},
        },
        {
          layer: 'network',
          rule: null,
          outcome: 'default',
          reason: 'policy.trace.layerDefault',
          values: {},
        },
      ],
    }));
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });
    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    await within(drawer).findByText('Allowed');

    const terms = within(drawer)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms.slice(0, 3)).toEqual(['Decided by', 'Routed through', 'QoS class']);
    const headings = within(drawer)
      .getAllByRole('heading', { level: 4 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['DNS', 'Network', 'QoS']);
    const country = within(drawer).getByText('Destination country').nextElementSibling as HTMLElement;
    expect(country).toHaveTextContent('Malta');
  });

  it('checks the destination before sending and shows the server field details', async () => {
    const api = fakeSimulatorApi(() =>
      apiError('validation_failed', {
        message: 'Invalid.',
        details: [{ path: 'body.request.destination', message: 'policy.validation.destination' }],
      }),
    );
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });
    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });

    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    expect(await within(drawer).findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls(policyEndpoints.simulate)).toHaveLength(0);

    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'not a destination');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    await waitFor(() =>
      expect(
        within(drawer).getByText('Enter a URL, a domain, an IP address or IP:port.'),
      ).toBeInTheDocument(),
    );
    expect(api.calls(policyEndpoints.simulate)).toHaveLength(1);
  });

  it('pins the simulated request as a policy test', async () => {
    const api = fakeSimulatorApi(() => RESULT).on(policyEndpoints.createPolicyTest, ({ body }) => ({
      id: 't1',
      actual: 'block' as const,
      passing: true,
      updatedAt: '2026-03-01T10:00:00.000Z',
      ...body,
    }));
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });
    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    await user.click(await within(drawer).findByRole('button', { name: 'Pin as test' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls(policyEndpoints.createPolicyTest)).toHaveLength(1));
    const [created] = api.calls(policyEndpoints.createPolicyTest);
    expect(created.sentBody).toEqual({
      name: 'casino.example is blocked',
      request: { destination: 'casino.example', protocol: 'tcp' },
      expect: 'block',
    });
  });
});
