import type { SimulationResult } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderWithProviders } from '../../../testing/render';
import { ALPHA, BLOCK_GAMBLING, stubApi } from '../testing/fixtures';
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

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policy simulator', () => {
  it('sends the request and shows the decision, the deciding rule and the trace grouped by layer', async () => {
    const sent = stubApi(({ method, path }) =>
      method === 'POST' && path === '/api/policy/simulate/acme' ? jsonResponse(RESULT) : undefined,
    );
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });

    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'https://casino.example/');
    await user.type(within(drawer).getByRole('textbox', { name: /Source IP/ }), '203.0.113.10');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));

    expect(await within(drawer).findByText('Blocked')).toBeInTheDocument();
    const simulate = sent.find((s) => s.path === '/api/policy/simulate/acme');
    expect(simulate?.body).toEqual({
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
    const sent = stubApi(({ method, path }) =>
      method === 'POST' && path === '/api/policy/simulate/acme'
        ? jsonResponse({ ...RESULT, decision: 'allow', rule: null, layer: null, trace: [] })
        : undefined,
    );
    const draft = { id: ALPHA, policy: { type: 'other' as const, name: 'Alpha', rules: [] } };
    const { user } = renderWithProviders(<SimulateButton draft={draft} />, { session: makeSession() });

    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    expect(within(drawer).getByText(/Decided with your unsaved changes to Alpha/)).toBeInTheDocument();
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));

    expect(await within(drawer).findByText('Allowed')).toBeInTheDocument();
    expect(within(drawer).getByText('No rule matched: the default allows')).toBeInTheDocument();
    const simulate = sent.find((s) => s.path === '/api/policy/simulate/acme');
    expect(simulate?.body).toMatchObject({ request: { destination: 'casino.example' }, draft });
  });

  it('checks the destination before sending and shows the server field details', async () => {
    const sent = stubApi(({ method, path }) =>
      method === 'POST' && path === '/api/policy/simulate/acme'
        ? jsonResponse(
            {
              errcode: 2,
              code: 'validation_failed',
              message: 'Invalid.',
              details: [{ path: 'body.request.destination', message: 'policy.validation.destination' }],
            },
            400,
          )
        : undefined,
    );
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });
    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });

    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    expect(await within(drawer).findByText('This field is required.')).toBeInTheDocument();
    expect(sent.some((s) => s.path === '/api/policy/simulate/acme')).toBe(false);

    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'not a destination');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    await waitFor(() =>
      expect(
        within(drawer).getByText('Enter a URL, a domain, an IP address or IP:port.'),
      ).toBeInTheDocument(),
    );
  });

  it('pins the simulated request as a policy test', async () => {
    const sent = stubApi(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/policy/simulate/acme') return jsonResponse(RESULT);
      if (method === 'POST' && path === '/api/policy/tests/acme') {
        return jsonResponse(
          { id: 't1', actual: 'block', passing: true, updatedAt: '', ...(body as object) },
          201,
        );
      }
      return undefined;
    });
    const { user } = renderWithProviders(<SimulateButton />, { session: makeSession() });
    await user.click(screen.getByRole('button', { name: 'Test a request' }));
    const drawer = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(drawer).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(drawer).getByRole('button', { name: 'Decide' }));
    await user.click(await within(drawer).findByRole('button', { name: 'Pin as test' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(sent.some((s) => s.path === '/api/policy/tests/acme')).toBe(true));
    const created = sent.find((s) => s.method === 'POST' && s.path === '/api/policy/tests/acme');
    expect(created?.body).toEqual({
      name: 'casino.example is blocked',
      request: { destination: 'casino.example', protocol: 'tcp' },
      expect: 'block',
    });
  });
});
