import {
  type BundlePreview,
  bundleEndpoints,
  CONFIG_FLAGS,
  enrolmentEndpoints,
  type PolicyLists,
  type PolicySaved,
  type PolicyTest,
  policyEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, type FakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ALPHA, ALPHA_POLICY, BETA, BLOCK_GAMBLING, fakePolicyApi, GAMMA, LISTS } from '../testing/fixtures';
import { Component as PolicyList } from './policy-list';

// A tenant with policy groups (its `policyGroups` configuration flag, off by default).
function renderList(
  route = '/policy/list',
  session = makeSession({ configurations: { ...CONFIG_FLAGS, policyGroups: true } }),
) {
  return renderRoutes([{ path: '/policy/list', element: <PolicyList /> }], { route, session });
}

const testsFailed = () =>
  apiError('policy_tests_failed', {
    message: 'A policy test would fail.',
    failures: [
      { testId: 't1', name: 'Casino stays blocked', expect: 'block', actual: 'allow', rule: null },
      { testId: 't2', name: 'Wiki is reachable', expect: 'allow', actual: 'block', rule: BLOCK_GAMBLING },
    ],
  });

/** The fake API of the policy list: the three lists, and the editor's look-ups. */
function fakeListApi(lists: PolicyLists = LISTS): FakeApi {
  return fakePolicyApi().on(policyEndpoints.listPolicies, () => lists);
}

/** What a request changed: reorders, saves, switches, copies and deletes. */
const changes = (api: FakeApi) => api.requests.filter((s) => s.method !== 'GET' && s.method !== 'HEAD');

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
    const api = fakeListApi();
    renderList();

    expect(await screen.findByRole('table', { name: 'QoS policies' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Device policies' })).toBeInTheDocument();
    // In the order they are evaluated: user and device policies decide, QoS policies classify after them.
    expect(screen.getAllByRole('table').map((table) => table.getAttribute('aria-label'))).toEqual([
      'User policies',
      'Device policies',
      'QoS policies',
    ]);
    expect(userRows()).toEqual(['Alpha', 'Beta', 'Gamma']);
    const table = screen.getByRole('table', { name: 'User policies' });
    const alpha = within(table).getAllByTestId('policy-row')[0];
    expect(within(alpha).getByText('Engineers')).toBeInTheDocument();
    const beta = within(table).getAllByTestId('policy-row')[1];
    expect(within(beta).getByText('Applies to everyone')).toBeInTheDocument();
    expect(within(beta).getByText('3')).toBeInTheDocument();
    expect(within(beta).getByRole('switch', { name: 'Enabled: Beta' })).toBeChecked();
    expect(api.unhandled).toEqual([]);
  });

  it('moves a policy with the keyboard and sends the whole new order of its list', async () => {
    const reordered: PolicyLists = { ...LISTS, user: [LISTS.user[1], LISTS.user[0], LISTS.user[2]] };
    let current = LISTS;
    const api = fakeListApi()
      .on(policyEndpoints.listPolicies, () => current)
      .on(policyEndpoints.reorderPolicies, () => {
        current = reordered;
        return reordered;
      });
    const { user } = renderList();
    const moveUp = await screen.findByRole('button', { name: 'Move Beta up' });

    moveUp.focus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({
      endpoint: policyEndpoints.reorderPolicies,
      params: { tenant: 'acme' },
      sentBody: { list: 'user', ids: [BETA, ALPHA, GAMMA] },
    });
    expect(await screen.findByText('Beta moved to position 1 of 3.')).toBeInTheDocument();
    expect(userRows()).toEqual(['Beta', 'Alpha', 'Gamma']);
  });

  it('lists the failing tests of a refused reorder and puts the old order back', async () => {
    fakeListApi().on(policyEndpoints.reorderPolicies, testsFailed);
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Move Alpha down' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not saved: this change breaks policy tests');
    const items = within(alert).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Casino stays blocked: expected Blocked, would be Allowed');
    expect(items[0]).toHaveTextContent(
      'Casino stays blocked: expected Blocked, would be Allowed. No rule matched — allowed by default',
    );
    expect(items[1]).toHaveTextContent('Wiki is reachable: expected Allowed, would be Blocked');
    expect(items[1]).toHaveTextContent('decided by Alpha');
    expect(items[1]).toHaveTextContent('Block gambling');
    await waitFor(() => expect(userRows()).toEqual(['Alpha', 'Beta', 'Gamma']));
  });

  it('hides reorder, switch and delete controls from a view-only role', async () => {
    fakeListApi();
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
  const DEVICE_TEST: PolicyTest = {
    id: 't1',
    name: 'Kiosk stays off casinos',
    request: { destination: 'casino.example', deviceId: KIOSK, protocol: 'tcp' },
    expect: 'block',
    actual: 'block',
    passing: true,
    updatedAt: '2026-11-20T10:00:00.000Z',
  };

  it('names the device a test comes from, in the list and in the edit form', async () => {
    const api = fakeListApi()
      .on(policyEndpoints.listPolicyTests, () => [DEVICE_TEST])
      .on(enrolmentEndpoints.getDevice, ({ params }) =>
        params.id === KIOSK
          ? { id: KIOSK, name: 'Lobby kiosk', os: 'linux' as const, username: 'frontdesk@acme.example' }
          : apiError('not_found'),
      )
      .on(enrolmentEndpoints.listDeviceOptions, () => []);
    const { user } = renderList('/policy/list?tab=tests');

    const row = await screen.findByTestId('policy-test-row');
    expect(await within(row).findByText('Device Lobby kiosk (frontdesk@acme.example)')).toBeInTheDocument();
    expect(row).not.toHaveTextContent(KIOSK);

    await user.click(within(row).getByRole('button', { name: 'Edit test Kiosk stays off casinos' }));
    const device = await screen.findByLabelText(/^Device/, { selector: 'input' });
    await waitFor(() => expect(device).toHaveValue('Lobby kiosk (frontdesk@acme.example)'));
    expect(api.unhandled).toEqual([]);
  });
});

describe('policy editor', () => {
  /** The list with Alpha to edit, and `save` answering its save. */
  function fakeEditorApi(save: () => FakeAnswer<typeof policyEndpoints.updatePolicy>) {
    return fakeListApi()
      .on(policyEndpoints.getPolicy, ({ params }) =>
        params.id === ALPHA ? ALPHA_POLICY : apiError('not_found'),
      )
      .on(policyEndpoints.updatePolicy, ({ params }) =>
        params.id === ALPHA ? save() : apiError('not_found'),
      );
  }

  const saved = (lint: PolicySaved['lint'] = []): PolicySaved => ({ policy: ALPHA_POLICY, lint });

  it('opens from the address, shows system rules read-only and sends only the own rules', async () => {
    const api = fakeEditorApi(() => saved());
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    const rules = await within(editor).findAllByRole('listitem');
    expect(rules[0]).toHaveTextContent('ZTNA private apps');
    expect(within(rules[0]).getByText('System')).toBeInTheDocument();
    expect(within(rules[0]).queryByRole('button', { name: /Delete rule/ })).not.toBeInTheDocument();

    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    const [save] = api.calls(policyEndpoints.updatePolicy);
    expect(save.body.rules.map((rule) => rule.id)).toEqual(['r-1', 'r-2']);
    expect(api.unhandled).toEqual([]);
  });

  it('starts a new rule of a block list as Block, and says how to separate the entries it matches', async () => {
    fakeEditorApi(() => saved());
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');

    // Alpha's own rules both block.
    await user.click(within(editor).getByRole('button', { name: 'Add rule' }));
    const cards = within(editor).getAllByTestId('rule-editor');
    const added = cards[cards.length - 1];
    expect(within(added).getByLabelText('Action', { selector: 'input' })).toHaveValue('Block');
    expect(within(added).getByRole('textbox', { name: 'Matches' })).toHaveAccessibleDescription(
      /Put each entry on its own line, or separate entries with ; or ,\./,
    );
  });

  it('says a policy in no policy group applies to everyone, and asks before saving it', async () => {
    const beta = { ...ALPHA_POLICY, ...LISTS.user[1], rules: ALPHA_POLICY.rules };
    const api = fakeListApi()
      .on(policyEndpoints.getPolicy, ({ params }) => (params.id === BETA ? beta : apiError('not_found')))
      .on(policyEndpoints.updatePolicy, ({ params }) =>
        params.id === BETA ? { policy: beta, lint: [] } : apiError('not_found'),
      );
    const { user } = renderList(`/policy/list?policy=${BETA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Beta' });
    await within(editor).findAllByTestId('rule-editor');

    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('dialog', { name: 'Apply to everyone?' });
    expect(confirm).toHaveTextContent('Beta is in no policy group, so it applies to everyone in the tenant');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Apply to everyone?' })).not.toBeInTheDocument(),
    );
    expect(changes(api)).toHaveLength(0);

    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Apply to everyone?' })).getByRole('button', {
        name: 'Save for everyone',
      }),
    );
    await waitFor(() => expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(1));
    expect(changes(api)).toHaveLength(1);
  });

  it('saves the block page and full tunnel switches with the policy', async () => {
    const beta = { ...ALPHA_POLICY, ...LISTS.user[1], rules: ALPHA_POLICY.rules };
    const api = fakeListApi()
      .on(policyEndpoints.getPolicy, () => beta)
      .on(policyEndpoints.updatePolicy, () => ({ policy: beta, lint: [] }));
    const { user } = renderList(`/policy/list?policy=${BETA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Beta' });
    await within(editor).findAllByTestId('rule-editor');
    const blockPage = within(editor).getByRole('switch', { name: /^Show the block page/ });
    const fullTunnel = within(editor).getByRole('switch', { name: /^Full tunnel/ });
    expect(blockPage).toBeChecked();
    expect(fullTunnel).not.toBeChecked();
    expect(within(editor).getByText(/send all their traffic through the gateway/)).toBeInTheDocument();
    await user.click(blockPage);
    await user.click(fullTunnel);
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Apply to everyone?' })).getByRole('button', {
        name: 'Save for everyone',
      }),
    );
    await waitFor(() => expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(1));
    expect(api.calls(policyEndpoints.updatePolicy)[0].sentBody).toMatchObject({
      blockPage: false,
      fullTunnel: true,
    });
  });

  it('puts a server 400 detail on the field of the rule it names', async () => {
    fakeEditorApi(() =>
      apiError('validation_failed', {
        message: 'Invalid.',
        details: [
          { path: 'body.rules.1.url', message: 'policy.validation.urlMatcher', values: { item: 'ftp:/x' } },
        ],
      }),
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
    fakeEditorApi(testsFailed);
    const { user } = renderList(`/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));

    const alert = await within(editor).findByRole('alert');
    expect(alert).toHaveTextContent('Casino stays blocked');
    expect(alert).toHaveTextContent('Wiki is reachable');
  });

  it('shows the lint findings of a save next to the rule, naming the other rule', async () => {
    fakeEditorApi(() =>
      saved([
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
      ]),
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
    const api = fakeEditorApi(() => saved()).on(policyEndpoints.simulate, () => ({
      decision: 'allow' as const,
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
    }));
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
    const [simulate] = api.calls(policyEndpoints.simulate);
    expect(simulate.sentBody).toMatchObject({
      draft: { id: ALPHA, policy: { name: 'Alpha draft', rules: [{ id: 'r-1' }, { id: 'r-2' }] } },
    });
    // Deciding is not a change: the simulation is the only request that is not a read.
    expect(changes(api)).toEqual([simulate]);
    expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(0);
  });

  describe('preview on gateways', () => {
    const PREVIEW: BundlePreview = {
      currentVersion: 'aaaaaaaaaaaaaaaa',
      nextVersion: 'bbbbbbbbbbbbbbbb',
      gateways: [
        { id: 'g-1', name: 'HQ Berlin', kind: 'cgw' },
        { id: 'g-2', name: 'Frankfurt PoP', kind: 'cybernode' },
      ],
      artefacts: [
        { artefact: 'nftables', added: 0, removed: 0, diff: '', isTooLarge: false },
        {
          artefact: 'rpz',
          added: 1,
          removed: 0,
          diff: '--- rpz\n+++ rpz\n@@ -3,1 +3,2 @@\n files.example CNAME .\n+casino.example CNAME .\n',
          isTooLarge: false,
        },
        { artefact: 'squid', added: 0, removed: 0, diff: '', isTooLarge: false },
      ],
    };

    it('shows which gateways a save would reach and the lines each artefact gains, saving nothing', async () => {
      const api = fakeEditorApi(() => saved()).on(bundleEndpoints.previewBundle, () => PREVIEW);
      const { user } = renderList(`/policy/list?policy=${ALPHA}`);
      const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
      await within(editor).findAllByTestId('rule-editor');

      await user.click(within(editor).getByRole('button', { name: 'Preview on gateways' }));
      const panel = await within(editor).findByRole('region', {
        name: 'What this save pushes to the gateways',
      });
      expect(panel).toHaveTextContent('2 gateways receive a new bundle within a second:');
      expect(within(panel).getByText('HQ Berlin')).toBeInTheDocument();
      expect(panel).toHaveTextContent('+casino.example CNAME .');
      expect(panel).not.toHaveTextContent(/nftables/i);
      const [asked] = api.calls(bundleEndpoints.previewBundle);
      expect(asked.body.policyId).toBe(ALPHA);
      expect(asked.body.policy.rules.map((rule) => rule.id)).toEqual(['r-1', 'r-2']);
      expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(0);
    });

    it('says when nothing a gateway enforces changes', async () => {
      fakeEditorApi(() => saved()).on(bundleEndpoints.previewBundle, () => ({
        ...PREVIEW,
        nextVersion: PREVIEW.currentVersion,
        artefacts: PREVIEW.artefacts.map((a) => ({ ...a, added: 0, removed: 0, diff: '' })),
      }));
      const { user } = renderList(`/policy/list?policy=${ALPHA}`);
      const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
      await within(editor).findAllByTestId('rule-editor');
      await user.click(within(editor).getByRole('button', { name: 'Preview on gateways' }));
      expect(
        await within(editor).findByText('Nothing a gateway enforces changes: saving pushes no new bundle.'),
      ).toBeInTheDocument();
    });

    it('puts what the save would refuse on the field it names', async () => {
      fakeEditorApi(() => saved()).on(bundleEndpoints.previewBundle, () =>
        apiError('validation_failed', {
          message: 'Invalid.',
          details: [
            {
              path: 'body.policy.rules.1.url',
              message: 'policy.validation.urlMatcher',
              values: { item: 'ftp:/x' },
            },
          ],
        }),
      );
      const { user } = renderList(`/policy/list?policy=${ALPHA}`);
      const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
      await within(editor).findAllByTestId('rule-editor');
      await user.click(within(editor).getByRole('button', { name: 'Preview on gateways' }));
      const matcher = await within(editor).findByRole('textbox', { name: 'Matches' });
      await waitFor(() => expect(matcher).toHaveAttribute('aria-invalid', 'true'));
    });

    it('is not offered without gateways:view', async () => {
      fakeEditorApi(() => saved());
      const session = makeSession();
      renderList(`/policy/list?policy=${ALPHA}`, {
        ...session,
        permissions: session.permissions.filter((permission) => !permission.startsWith('gateways:')),
      });
      const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
      await within(editor).findAllByTestId('rule-editor');
      expect(within(editor).getByRole('button', { name: 'Lint' })).toBeInTheDocument();
      expect(within(editor).queryByRole('button', { name: 'Preview on gateways' })).not.toBeInTheDocument();
    });
  });
});
