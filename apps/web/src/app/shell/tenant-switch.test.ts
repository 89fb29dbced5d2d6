import { describe, expect, it } from 'vitest';
import { pathAfterTenantSwitch } from './tenant-switch';

describe('where a tenant switch goes', () => {
  it("goes to the area's list from a screen of one of the old tenant's objects", () => {
    const id = '0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
    expect(pathAfterTenantSwitch(`/users/${id}`, '', 'globex')).toBe('/users/list');
    expect(pathAfterTenantSwitch(`/users/${id}/copy`, '', 'globex')).toBe('/users/list');
    expect(pathAfterTenantSwitch(`/groups/${id}`, '?tab=members', 'globex')).toBe('/users/groups');
    expect(pathAfterTenantSwitch(`/policy/policyGroups/${id}`, '', 'globex')).toBe('/policy/policyGroups');
    expect(pathAfterTenantSwitch(`/policy/policyGroups/${id}/copy`, '', 'globex')).toBe(
      '/policy/policyGroups',
    );
    expect(pathAfterTenantSwitch(`/devices/${id}`, '', 'globex')).toBe('/devices/list');
    expect(pathAfterTenantSwitch(`/devices/route/${id}/${id}`, '', 'globex')).toBe('/devices/route/list');
  });

  it('drops a query naming an object, and keeps the rest of the address', () => {
    expect(pathAfterTenantSwitch('/policy/list', '?policy=abc&tab=tests', 'globex')).toBe(
      '/policy/list?tab=tests',
    );
    expect(pathAfterTenantSwitch('/policy/list', '?policy=new&type=qos', 'globex')).toBe('/policy/list');
  });

  it("moves screens that name the tenant to the new tenant's, and leaves every other screen as it is", () => {
    expect(pathAfterTenantSwitch('/tenant/acme/settings', '', 'globex')).toBe('/tenant/globex/settings');
    expect(pathAfterTenantSwitch('/tenant/acme/subscriptions/', '?page=2', 'globex')).toBe(
      '/tenant/globex/subscriptions/',
    );
    expect(pathAfterTenantSwitch('/tenant/acme/subscriptions/history', '', 'globex')).toBe(
      '/tenant/globex/subscriptions/history',
    );
    // The usage follows the working tenant by itself.
    expect(pathAfterTenantSwitch('/tenant/subscription/usage', '?days=90', 'globex')).toBeNull();
    expect(pathAfterTenantSwitch('/main-dashboards/acme/SASEDashboard', '', 'globex')).toBe(
      '/main-dashboards/globex/SASEDashboard',
    );
    expect(pathAfterTenantSwitch('/main-dashboards/global/SASEDashboard', '', 'globex')).toBeNull();
    // Static screens that look like an object's (`/users/:id`) are lists already.
    expect(pathAfterTenantSwitch('/users/list', '?q=ada', 'globex')).toBeNull();
    expect(pathAfterTenantSwitch('/users/roles', '?tab=assignments', 'globex')).toBeNull();
    expect(pathAfterTenantSwitch('/policy/policyGroups', '', 'globex')).toBeNull();
    expect(pathAfterTenantSwitch('/devices/list', '?state=pending', 'globex')).toBeNull();
  });
});
