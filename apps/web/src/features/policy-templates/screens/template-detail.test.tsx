import {
  type PolicyTemplate,
  policyTemplateEndpoints,
  type TemplatePreview,
  type TemplateTenantStatus,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as TemplateDetail } from './template-detail';
import { Component as TemplatesList } from './templates-list';

const ID = '33333333-3333-4333-8333-333333333333';
const PARTNER = makeSession({
  role: 'partner_admin',
  tenant: 'northwind',
  tenantDisplayName: 'Northwind',
  tenantKind: 'partner',
  managedTenants: ['acme', 'globex', 'initech'],
});

const TEMPLATE: PolicyTemplate = {
  id: ID,
  name: 'Baseline',
  description: 'Managed web filtering',
  version: 2,
  sourceTenant: 'northwind',
  policyCount: 1,
  objectCount: 1,
  updatedBy: 'admin@northwind.example',
  updatedAt: '2026-05-01T10:00:00.000Z',
  createdAt: '2026-04-01T10:00:00.000Z',
  policies: [
    {
      key: '44444444-4444-4444-8444-444444444444',
      name: 'Baseline web',
      type: 'other',
      description: '',
      enabled: true,
      rules: [
        {
          name: 'Block social',
          type: 'dmn',
          url: ['social.example'],
          action: 'block',
          target: '',
          ports: '',
          categories: [],
          feeds: [],
          locations: ['Head office'],
          schedule: null,
          enabled: true,
        },
      ],
    },
  ],
  objects: {
    locations: [{ name: 'Head office', description: '', networks: ['10.1.0.0/16'] }],
    categories: [],
    apps: [],
  },
};

const status = (
  over: Partial<TemplateTenantStatus> & Pick<TemplateTenantStatus, 'tenant'>,
): TemplateTenantStatus => ({
  displayName: over.tenant,
  state: 'never',
  appliedVersion: null,
  appliedAt: null,
  appliedBy: null,
  drifted: [],
  ...over,
});

const STATUS = [
  status({
    tenant: 'acme',
    displayName: 'Acme Corporation',
    state: 'drifted',
    appliedVersion: 2,
    appliedAt: '2026-05-02T10:00:00.000Z',
    appliedBy: 'admin@northwind.example',
    drifted: [{ policy: 'Baseline web', changedAt: '2026-05-03T10:00:00.000Z' }],
  }),
  status({
    tenant: 'globex',
    displayName: 'Globex Industries',
    state: 'inSync',
    appliedVersion: 2,
    appliedAt: '2026-05-02T10:00:00.000Z',
    appliedBy: 'admin@northwind.example',
  }),
  status({ tenant: 'initech', displayName: 'Initech' }),
];

const PREVIEW: Record<string, TemplatePreview> = {
  acme: {
    tenant: 'acme',
    policies: [
      {
        name: 'Baseline web',
        change: 'update',
        diff: [
          { path: 'rules.Block social.url', before: 'social.example, chat.example', after: 'social.example' },
        ],
      },
    ],
    objects: [{ kind: 'location', name: 'Head office', change: 'unchanged' }],
    failingTests: [],
    error: null,
  },
  initech: {
    tenant: 'initech',
    policies: [{ name: 'Baseline web', change: 'create', diff: [] }],
    objects: [{ kind: 'location', name: 'Head office', change: 'create' }],
    failingTests: [{ testId: 't1', name: 'Social stays open', expect: 'allow', actual: 'block', rule: null }],
    error: null,
  },
};

function fakeTemplateApi() {
  return fakeApi()
    .on(policyTemplateEndpoints.listPolicyTemplates, () => ({ items: [TEMPLATE], total: 1 }))
    .on(policyTemplateEndpoints.getPolicyTemplate, () => TEMPLATE)
    .on(policyTemplateEndpoints.policyTemplateStatus, () => ({ items: STATUS, total: STATUS.length }))
    .on(policyTemplateEndpoints.updatePolicyTemplate, ({ body }) => ({
      ...TEMPLATE,
      name: body.name,
      version: TEMPLATE.version + 1,
    }))
    .on(policyTemplateEndpoints.previewPolicyTemplate, ({ body }) => ({
      tenants: body.tenants.map((name) => PREVIEW[name]),
    }))
    .on(policyTemplateEndpoints.applyPolicyTemplate, ({ body }) => ({
      tenants: body.tenants.map((name) =>
        name === 'initech'
          ? {
              tenant: name,
              result: 'refused' as const,
              created: 0,
              updated: 0,
              unchanged: 0,
              failingTests: PREVIEW.initech.failingTests,
              error: null,
            }
          : {
              tenant: name,
              result: 'applied' as const,
              created: 0,
              updated: 1,
              unchanged: 0,
              failingTests: [],
              error: null,
            },
      ),
    }));
}

const renderDetail = () =>
  renderWithProviders(<TemplateDetail />, {
    session: PARTNER,
    route: `/admin-console/templates/${ID}`,
    path: '/admin-console/templates/:id',
  });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('policy templates', () => {
  it('lists the templates of the console, each linking to its page', async () => {
    const api = fakeTemplateApi();
    renderWithProviders(<TemplatesList />, { session: PARTNER, route: '/admin-console/templates' });
    const table = await screen.findByRole('table', { name: 'Policy templates' });
    expect(within(table).getByRole('link', { name: 'Baseline' })).toHaveAttribute(
      'href',
      `/admin-console/templates/${ID}`,
    );
    expect(screen.getByText('1 template')).toBeInTheDocument();
    expect(api.calls(policyTemplateEndpoints.listPolicyTemplates)[0]).toMatchObject({
      params: { tenant: 'northwind' },
      query: { limit: 25, offset: 0 },
    });
  });

  it("shows the template's policies and each tenant's state, with re-apply only where it drifted", async () => {
    fakeTemplateApi();
    renderDetail();
    expect(await screen.findByRole('heading', { level: 1, name: 'Baseline' })).toBeInTheDocument();
    expect(screen.getByText('Version 2')).toBeInTheDocument();
    expect(screen.getByText(/Block social: block dmn social.example at Head office/)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Tenants and their state' });
    const acme = within(table).getByText('Acme Corporation').closest('tr')!;
    expect(within(acme).getByText('Drifted')).toBeInTheDocument();
    expect(within(acme).getByText(/Baseline web \(changed/)).toBeInTheDocument();
    expect(within(acme).getByRole('button', { name: 'Re-apply to Acme Corporation' })).toBeInTheDocument();
    const globex = within(table).getByText('Globex Industries').closest('tr')!;
    expect(within(globex).getByText('In sync')).toBeInTheDocument();
    expect(within(globex).queryByRole('button', { name: /Re-apply/ })).not.toBeInTheDocument();
    const initech = within(table).getByText('Initech').closest('tr')!;
    expect(within(initech).getByText('Never applied')).toBeInTheDocument();
  });

  it('previews the selected tenants: changes per tenant, the diff, and the pinned tests that would fail', async () => {
    const api = fakeTemplateApi();
    const { user } = renderDetail();
    const preview = await screen.findByRole('button', { name: 'Preview (0)' });
    expect(preview).toBeDisabled();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Acme Corporation' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Initech' }));
    await user.click(screen.getByRole('button', { name: 'Preview (2)' }));
    await waitFor(() =>
      expect(api.calls(policyTemplateEndpoints.previewPolicyTemplate)[0]?.body).toEqual({
        tenants: ['acme', 'initech'],
      }),
    );
    const acme = await screen.findByRole('region', { name: 'acme' });
    expect(within(acme).getByText('0 to create, 1 to update, 1 unchanged')).toBeInTheDocument();
    await user.click(within(acme).getByRole('button', { name: 'Changes to Baseline web (1)' }));
    expect(
      await within(acme).findByText(/social\.example, chat\.example → social\.example/),
    ).toBeInTheDocument();
    const initech = screen.getByRole('region', { name: 'initech' });
    expect(within(initech).getByText('Pinned policy tests would fail here')).toBeInTheDocument();
    expect(within(initech).getByText('Social stays open: expects allow, would be block')).toBeInTheDocument();
    expect(api.calls(policyTemplateEndpoints.applyPolicyTemplate)).toHaveLength(0);
  });

  it('applies to the previewed tenants and shows how it went in each', async () => {
    const api = fakeTemplateApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Acme Corporation' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Initech' }));
    await user.click(screen.getByRole('button', { name: 'Preview (2)' }));
    await user.click(await screen.findByRole('button', { name: 'Apply to 2 tenants' }));
    await waitFor(() =>
      expect(api.calls(policyTemplateEndpoints.applyPolicyTemplate)[0]?.body).toEqual({
        tenants: ['acme', 'initech'],
      }),
    );
    const results = await screen.findByRole('list', { name: 'Apply results' });
    expect(within(results).getByText('Applied')).toBeInTheDocument();
    expect(within(results).getByText('0 created, 1 updated, 0 unchanged')).toBeInTheDocument();
    expect(within(results).getByText('Refused: pinned tests would break')).toBeInTheDocument();
    expect(within(results).getByText('Social stays open')).toBeInTheDocument();
    expect(await screen.findByText('Applied to 1 of 2 tenants.')).toBeInTheDocument();
  });

  it('takes the policies again from the source tenant, and says the new version', async () => {
    const api = fakeTemplateApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Take policies again from northwind' }));
    await waitFor(() =>
      expect(api.calls(policyTemplateEndpoints.updatePolicyTemplate)[0]?.body).toEqual({
        name: 'Baseline',
        description: 'Managed web filtering',
        sourceTenant: 'northwind',
        policyIds: ['44444444-4444-4444-8444-444444444444'],
      }),
    );
    expect(
      await screen.findByText('The template now holds the policies as they are (version 3).'),
    ).toBeInTheDocument();
  });

  it('re-applies to a drifted tenant after its preview', async () => {
    const api = fakeTemplateApi();
    const { user } = renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Re-apply to Acme Corporation' }));
    await waitFor(() =>
      expect(api.calls(policyTemplateEndpoints.previewPolicyTemplate)[0]?.body).toEqual({
        tenants: ['acme'],
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Apply to 1 tenant' }));
    await waitFor(() =>
      expect(api.calls(policyTemplateEndpoints.applyPolicyTemplate)[0]?.body).toEqual({ tenants: ['acme'] }),
    );
  });
});
