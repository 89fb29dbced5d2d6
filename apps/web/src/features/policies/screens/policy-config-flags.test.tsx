import { CONFIG_FLAGS, type ConfigFlagValues, type Policy, policyEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ALPHA, ALPHA_POLICY, BETA, fakePolicyApi, LISTS } from '../testing/fixtures';
import { Component as PolicyGroupCopy } from './policy-group-copy';
import { Component as PolicyList } from './policy-list';

// What the policy screens leave out while the tenant has a configuration flag off (spec §6): `policyGroups`
// (the policy-group column, the "apply to everyone?" question, the policy-group copy) and `webCategoryEnabled`
// (a rule's web categories).

const session = (flags: Partial<ConfigFlagValues>) =>
  makeSession({ configurations: { ...CONFIG_FLAGS, ...flags } });

const BETA_POLICY: Policy = { ...ALPHA_POLICY, ...LISTS.user[1], rules: ALPHA_POLICY.rules };

function fakeListApi(): FakeApi {
  const byId = (id: string) => (id === ALPHA ? ALPHA_POLICY : id === BETA ? BETA_POLICY : null);
  return fakePolicyApi()
    .on(policyEndpoints.listPolicies, () => LISTS)
    .on(policyEndpoints.getPolicy, ({ params }) => byId(params.id) ?? apiError('not_found'))
    .on(policyEndpoints.updatePolicy, ({ params }) => {
      const policy = byId(params.id);
      return policy ? { policy, lint: [] } : apiError('not_found');
    });
}

function renderList(flags: Partial<ConfigFlagValues>, route = '/policy/list') {
  return renderRoutes([{ path: '/policy/list', element: <PolicyList /> }], {
    route,
    session: session(flags),
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policies while policy groups are off', { timeout: 20_000 }, () => {
  it('lists the policies without the policy-group column, and shows it while on', async () => {
    fakeListApi();
    const { unmount } = renderList({ policyGroups: false });
    const table = await screen.findByRole('table', { name: 'User policies' });
    expect(within(table).getByRole('columnheader', { name: 'Rules' })).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Policy groups' })).not.toBeInTheDocument();
    expect(within(table).queryByText('Engineers')).not.toBeInTheDocument();
    expect(within(table).queryByText('Applies to everyone')).not.toBeInTheDocument();
    unmount();

    renderList({ policyGroups: true });
    const withGroups = await screen.findByRole('table', { name: 'User policies' });
    expect(within(withGroups).getByRole('columnheader', { name: 'Policy groups' })).toBeInTheDocument();
    expect(within(withGroups).getByText('Engineers')).toBeInTheDocument();
  });

  it('saves a policy in no policy group without asking "apply to everyone?"', async () => {
    const api = fakeListApi();
    const { user } = renderList({ policyGroups: false }, `/policy/list?policy=${BETA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Beta' });
    await within(editor).findAllByTestId('rule-editor');
    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls(policyEndpoints.updatePolicy)).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Apply to everyone?' })).not.toBeInTheDocument();
  });

  it('asks for no policy group on the copy screen, and says it is turned off', async () => {
    const api = fakeListApi();
    renderRoutes([{ path: '/policy/policyGroups/:id/:type', element: <PolicyGroupCopy /> }], {
      route: '/policy/policyGroups/g1/copy',
      session: session({ policyGroups: false }),
    });
    expect(
      await screen.findByRole('heading', { name: 'Not included in this workspace' }),
    ).toBeInTheDocument();
    expect(api.calls(policyEndpoints.getPolicyGroup)).toHaveLength(0);
    expect(api.calls(policyEndpoints.listPolicyGroups)).toHaveLength(0);
  });
});

describe('rules while web categories are off', { timeout: 20_000 }, () => {
  async function addedRule(flags: Partial<ConfigFlagValues>) {
    fakeListApi();
    const { user } = renderList(flags, `/policy/list?policy=${ALPHA}`);
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    await within(editor).findAllByTestId('rule-editor');
    await user.click(within(editor).getByRole('button', { name: 'Add rule' }));
    const cards = within(editor).getAllByTestId('rule-editor');
    return cards[cards.length - 1];
  }

  it('has no web-categories field on a domain rule while off', async () => {
    const rule = await addedRule({ webCategoryEnabled: false, policyGroups: true });
    expect(within(rule).getByText('Threat-intel feeds')).toBeInTheDocument();
    expect(within(rule).queryByText('Web categories')).not.toBeInTheDocument();
  });

  it('has it while on', async () => {
    const rule = await addedRule({ webCategoryEnabled: true, policyGroups: true });
    expect(within(rule).getByText('Web categories')).toBeInTheDocument();
  });
});
