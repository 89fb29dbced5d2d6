import { describe, expect, it } from 'vitest';
import { buildNav } from './nav-items';

const t = (_key: string, defaultValue: string) => defaultValue;
const ids = (entries: ReturnType<typeof buildNav>) =>
  entries.flatMap((entry) => [entry.id, ...(entry.children ?? []).map((child) => child.id)]);

describe('buildNav', () => {
  it('shows every built screen to an owner, with the tenant in the tenant links', () => {
    const nav = buildNav(t, 'owner', 'acme');
    expect(ids(nav)).toEqual([
      'dashboard',
      'users',
      'users-list',
      'users-add',
      'tenant',
      'tenant-overview',
      'tenant-settings',
      'settings',
    ]);
    expect(nav.find((e) => e.id === 'tenant')?.children?.[1].to).toBe('/tenant/acme/settings');
    expect(nav[0].to).toBe('/main-dashboards/global/SASEDashboard');
  });

  it('hides what the role cannot do', () => {
    expect(ids(buildNav(t, 'auditor', 'acme'))).not.toContain('users-add');
    expect(ids(buildNav(t, 'billing_admin', 'acme'))).not.toContain('users');
  });

  it('leaves an end user only the settings', () => {
    expect(ids(buildNav(t, 'user', 'acme'))).toEqual(['settings']);
  });
});
