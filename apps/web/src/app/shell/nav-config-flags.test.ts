import { CONFIG_FLAGS, FEATURE_FLAGS, ROLE_PERMISSIONS } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { isRouteIncluded } from '../../lib/tenant-flags';
import { buildNav } from './nav-items';

// The sidebar follows the working tenant's configuration flags (contracts CONFIG_ROUTES): policy groups are off
// by default (spec §6), so a tenant shows their entry only once it turns them on.

const t = (_key: string, defaultValue: string) => defaultValue;
const labels = (policyGroups: boolean) => {
  const flags = { features: [...FEATURE_FLAGS], configurations: { ...CONFIG_FLAGS, policyGroups } };
  return buildNav(t, ROLE_PERMISSIONS.owner, 'acme', 'owner', (to) => isRouteIncluded(flags, to)).flatMap(
    (entry) => [entry.label, ...(entry.children ?? []).map((child) => child.label)],
  );
};

describe('the sidebar and the policyGroups flag', () => {
  it('has no "Policy groups" while the flag is off, as by default', () => {
    expect(CONFIG_FLAGS.policyGroups).toBe(false);
    expect(labels(false)).not.toContain('Policy groups');
    expect(labels(false)).toContain('Policies');
  });

  it('has it while the flag is on', () => {
    expect(labels(true)).toContain('Policy groups');
  });
});
