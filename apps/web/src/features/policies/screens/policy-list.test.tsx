import type { PolicyLists } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
import { ALPHA, ALPHA_POLICY, BETA, BLOCK_GAMBLING, GAMMA, LISTS, stubApi } from '../testing/fixtures';
import { Component as PolicyList } from './policy-list';

function renderList(route = '/policy/list', session = makeSession()) {
  return renderRoutes([{ path: '/policy/list', element: <PolicyList /> }], { route, session });
}

const FAILURE_ENVELOPE = {
  errcode: 19,
  code: 'policy_tests_failed',
  message: 'A policy test would fail.',
  failures: [
    { testId: 't1', name: 'Casino stays blocked', expect: 'block', actual: 'allow', rule: null },
    { testId: 't2', name: 'Wiki is reachable', expect: 'allow', actual: 'block', rule: BLOCK_GAMBLING },
  ],
};

function userRows() {
  const table = screen.getByRole('table', { name: 'User policies' });
  return within(table)
    .getAllByTestId('policy-row')
    .map((row) => within(row).getAllByRole('link')[0].textContent);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policy list', () => {
  it('shows the three ordered lists with precedence, rule counts and policy groups', async () => {
    stubApi(({ method, path }) =>
      method === 'GET' && path === '/api/policy/acme' ? jsonResponse(LISTS) : undefined,
    );
    renderList();

    expect(await screen.findByRole('table', { name: 'QoS policies' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Device policies' })).toBeInTheDocument();
    expect(userRows()).toEqual(['Alpha', 'Beta', 'Gamma']);
    const table = screen.getByRole('table', { name: 'User policies' });
    const alpha = within(table).getAllByTestId('policy-row')[0];
    expect(within(alpha).getByText('Engineers')).toBeInTheDocument();
    const beta = within(table).getAllByTestId('policy-row')[1];
    expect(within(beta).getByText('Everyone')).toBeInTheDocument();
    expect(within(beta).getByText('3')).toBeInTheDocument();
    expect(within(beta).getByRole('switch', { name: 'Enabled: Beta' })).toBeChecked();
  });

  it('moves a policy with the keyboard and sends the whole new order of its list', async () => {
    const reordered: PolicyLists = { ...LISTS, user: [LISTS.user[1], LISTS.user[0], LISTS.user[2]] };
    let current = LISTS;
    const sent = stubApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(current);
      if (method === 'PUT' && path === '/api/policy/acme/order') {
        current = reordered;
        return jsonResponse(reordered);
      }
      return undefined;
    });
    const { user } = renderList();
    const moveUp = await screen.findByRole('button', { name: 'Move Beta up' });

    moveUp.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    expect(sent.find((s) => s.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/policy/acme/order',
      body: { list: 'user', ids: [BETA, ALPHA, GAMMA] },
    });
    expect(await screen.findByText('Beta moved to position 1 of 3.')).toBeInTheDocument();
    expect(userRows()).toEqual(['Beta', 'Alpha', 'Gamma']);
  });

  it('lists the failing tests of a refused reorder and puts the old order back', async () => {
    stubApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'PUT' && path === '/api/policy/acme/order') return jsonResponse(FAILURE_ENVELOPE, 409);
      return undefined;
    });
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Move Alpha down' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not saved: this change breaks policy tests');
    const items = within(alert).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Casino stays blocked: expected Blocked, would be Allowed');
    expect(items[0]).toHaveTextContent('by the default (no rule matched)');
    expect(items[1]).toHaveTextContent('Wiki is reachable: expected Allowed, would be Blocked');
    expect(items[1]).toHaveTextContent('decided by Alpha');
    expect(items[1]).toHaveTextContent('Block gambling');
    await waitFor(() => expect(userRows()).toEqual(['Alpha', 'Beta', 'Gamma']));
  });

  it('hides reorder, switch and delete controls from a view-only role', async () => {
    stubApi(({ method, path }) =>
      method === 'GET' && path === '/api/policy/acme' ? jsonResponse(LISTS) : undefined,
    );
    renderList('/policy/list', makeSession({ role: 'auditor' }));
    await screen.findByRole('table', { name: 'User policies' });
    expect(screen.queryByRole('button', { name: 'Move Beta up' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Beta' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add policy' })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enabled: Beta' })).toBeDisabled();
  });
});

describe('policy tests tab', () => {
  const KIOSK = '66666666-6666-4666-8666-666666666666';
  const DEVICE_TEST = {
    id: 't1',
    name: 'Kiosk stays off casinos',
    request: { destination: 'casino.example', deviceId: KIOSK, protocol: 'tcp' },
    expect: 'block',
    actual: 'block',
    passing: true,
    updatedAt: '2026-11-20T10:00:00.000Z',
  };

  it('names the device a test comes from, in the list and in the edit form', async () => {
    stubApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'GET' && path === '/api/policy/tests/acme') return jsonResponse([DEVICE_TEST]);
      if (method === 'GET' && path === `/api/enrolment/acme/devices/${KIOSK}`) {
        return jsonResponse({
          id: KIOSK,
          name: 'Lobby kiosk',
          os: 'linux',
          username: 'frontdesk@acme.example',
        });
      }
      if (method === 'GET' && path === '/api/enrolment/acme/devices/options') return jsonResponse([]);
      return undefined;
    });
    const { user } = renderList('/policy/list?tab=tests');

    const row = await screen.findByTestId('policy-test-row');
    expect(await within(row).findByText('Device Lobby kiosk (frontdesk@acme.example)')).toBeInTheDocument();
    expect(row).not.toHaveTextContent(KIOSK);

    await user.click(within(row).getByRole('button', { name: 'Edit test Kiosk stays off casinos' }));
    const device = await screen.findByLabelText(/^Device/, { selector: 'input' });
    await waitFor(() => expect(device).toHaveValue('Lobby kiosk (frontdesk@acme.example)'));
  });
});

describe('policy editor', () => {
  function stubEditor(saveAnswer: () => Response) {
    return stubApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'GET' && path === `/api/policy/acme/${ALPHA}`) return jsonResponse(ALPHA_POLICY);
      if (method === 'PUT' && path === `/api/policy/acme/${ALPHA}`) return saveAnswer();
      return undefined;
    });
  }

  it('opens from the address, shows system rules read-only and sends only the own rules', async () => {
    const sent = stubEditor(() => jsonResponse({ policy: ALPHA_POLICY, lint: [] }));
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    const rules = await within(editor).findAllByRole('listitem');
    expect(rules[0]).toHaveTextContent('ZTNA private apps');
    expect(within(rules[0]).getByText('System')).toBeInTheDocument();
    expect(within(rules[0]).queryByRole('button', { name: /Delete rule/ })).not.toBeInTheDocument();

    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    const body = sent.find((s) => s.method === 'PUT')?.body as { rules: { id?: string }[] };
    expect(body.rules.map((rule) => rule.id)).toEqual(['r-1', 'r-2']);
  });

  it('puts a server 400 detail on the field of the rule it names', async () => {
    stubEditor(() =>
      jsonResponse(
        {
          errcode: 2,
          code: 'validation_failed',
          message: 'Invalid.',
          details: [
            { path: 'body.rules.1.url', message: 'policy.validation.urlMatcher', values: { item: 'ftp:/x' } },
          ],
        },
        400,
      ),
    );
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');

    await user.click(within(editor).getByRole('button', { name: 'Save' }));

    const matcher = await within(editor).findByRole('textbox', { name: 'Matches' });
    expect(matcher).toHaveValue('files.example/downloads');
    expect(matcher).toHaveAttribute('aria-invalid', 'true');
    expect(
      within(editor).getByText(
        '“ftp:/x” is not a valid URL: enter URLs without the scheme, like example.com/path.',
      ),
    ).toBeInTheDocument();
    // The error sits on the second own rule, not the first.
    const ruleCards = within(editor).getAllByTestId('rule-editor');
    expect(within(ruleCards[1]).getByRole('textbox', { name: 'Matches' })).toBe(matcher);
    expect(within(ruleCards[0]).queryByRole('textbox', { name: 'Matches' })).not.toBeInTheDocument();
  });

  it('lists the failing tests when a save is refused with 409', async () => {
    stubEditor(() => jsonResponse(FAILURE_ENVELOPE, 409));
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));

    const alert = await within(editor).findByRole('alert');
    expect(alert).toHaveTextContent('Casino stays blocked');
    expect(alert).toHaveTextContent('Wiki is reachable');
  });

  it('shows the lint findings of a save next to the rule, naming the other rule', async () => {
    stubEditor(() =>
      jsonResponse({
        policy: ALPHA_POLICY,
        lint: [
          {
            kind: 'shadowed',
            severity: 'warning',
            rule: { ...BLOCK_GAMBLING, ruleId: 'r-2', ruleName: 'Block downloads', type: 'url' },
            other: { ...BLOCK_GAMBLING, policyName: 'Baseline', ruleName: 'Block files' },
            object: null,
            message: 'policy.lint.shadowed',
            values: {
              rule: 'Block downloads',
              policy: 'Alpha',
              other: 'Block files',
              otherPolicy: 'Baseline',
              item: 'files.example',
              layer: 'http',
            },
          },
        ],
      }),
    );
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));

    const cards = await within(editor).findAllByTestId('rule-editor');
    await waitFor(() =>
      expect(cards[1]).toHaveTextContent(
        'Shadowed by rule Block files in policy Baseline (files.example): this rule never decides in the HTTP layer.',
      ),
    );
    expect(within(cards[0]).queryByTestId('rule-findings')).not.toBeInTheDocument();
  });

  it('tests the unsaved draft in the simulator without saving the policy', async () => {
    const sent = stubApi(({ method, path }) => {
      if (method === 'GET' && path === '/api/policy/acme') return jsonResponse(LISTS);
      if (method === 'GET' && path === `/api/policy/acme/${ALPHA}`) return jsonResponse(ALPHA_POLICY);
      if (method === 'POST' && path === '/api/policy/simulate/acme') {
        return jsonResponse({
          decision: 'allow',
          rule: null,
          layer: null,
          rewrite: null,
          gateway: null,
          qos: '00000000-0000-0000-0000-000000000000',
          context: {
            host: 'casino.example',
            path: null,
            ip: null,
            port: null,
            sourceCountry: null,
            destinationCountry: null,
            categories: [],
            apps: [],
            groups: [],
          },
          trace: [],
        });
      }
      return undefined;
    });
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');
    await user.clear(within(editor).getByRole('textbox', { name: 'Name' }));
    await user.type(within(editor).getByRole('textbox', { name: 'Name' }), 'Alpha draft');

    await user.click(within(editor).getByRole('button', { name: 'Test a request' }));
    const simulator = await screen.findByRole('dialog', { name: 'Test a request' });
    await user.type(within(simulator).getByRole('textbox', { name: /Destination/ }), 'casino.example');
    await user.click(within(simulator).getByRole('button', { name: 'Decide' }));

    expect(await within(simulator).findByText('Allowed')).toBeInTheDocument();
    const simulate = sent.find((s) => s.path === '/api/policy/simulate/acme');
    expect(simulate?.body).toMatchObject({
      draft: { id: ALPHA, policy: { name: 'Alpha draft', rules: [{ id: 'r-1' }, { id: 'r-2' }] } },
    });
    expect(sent.some((s) => s.method === 'PUT')).toBe(false);
  });
});
