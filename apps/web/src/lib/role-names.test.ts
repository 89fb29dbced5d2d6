import { describe, expect, it } from 'vitest';
import { initTestI18n } from '../testing/render';
import { roleLabel } from './role-names';

describe('roleLabel', () => {
  const i18n = initTestI18n();
  const t = i18n.t.bind(i18n);

  it('names a built-in role from the catalogue', () => {
    expect(roleLabel(t, 'network_admin', null)).toBe('Network administrator');
  });

  it("names a custom role by the tenant's own name", () => {
    expect(roleLabel(t, 'custom', 'Readers')).toBe('Readers');
    expect(roleLabel(t, 'custom', null)).toBe('Custom role');
  });
});
