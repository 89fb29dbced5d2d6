import { policyEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as PolicyList } from '../screens/policy-list';
import { ALPHA, ALPHA_POLICY, fakePolicyApi, LISTS } from '../testing/fixtures';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the TLS hint of the policy editor', () => {
  it('says on a path rule that it applies to plain HTTP only, and nothing on a domain rule', async () => {
    fakePolicyApi()
      .on(policyEndpoints.listPolicies, () => LISTS)
      .on(policyEndpoints.getPolicy, ({ params }) =>
        params.id === ALPHA ? ALPHA_POLICY : apiError('not_found'),
      );
    renderRoutes([{ path: '/policy/list', element: <PolicyList /> }], {
      route: `/policy/list?policy=${ALPHA}`,
      session: makeSession(),
    });
    const editor = await screen.findByRole('dialog', { name: 'Edit Alpha' });
    const cards = await within(editor).findAllByTestId('rule-editor');
    const downloads = cards.find((c) => c.textContent?.includes('Block downloads'))!;
    const gambling = cards.find((c) => c.textContent?.includes('Block gambling'))!;
    expect(within(downloads).getByTestId('rule-tls-hint')).toHaveTextContent(
      'Applies to plain HTTP only: on HTTPS the gateway sees just the site name',
    );
    expect(within(gambling).queryByTestId('rule-tls-hint')).not.toBeInTheDocument();
  });
});
