import { describe, expect, it } from 'vitest';
import { formatTarget, parseTarget } from './session';

describe("the session-stored 'target' of partner-edit mode", () => {
  it('writes a comma list of key:value pairs whose last item says whether the partner may edit', () => {
    expect(formatTarget({ tenant: 'acme', edit: true }, 'northwind')).toBe(
      'tenant:acme,partner:northwind,wsEditAllowed:true,true',
    );
    expect(formatTarget({ tenant: 'acme', edit: false }, 'northwind').endsWith(',false')).toBe(true);
  });

  it('reads it back, and reads nothing from a value without a tenant', () => {
    expect(parseTarget(formatTarget({ tenant: 'acme', edit: false }, 'northwind'))).toEqual({
      tenant: 'acme',
      partner: 'northwind',
      fromPartner: true,
      edit: false,
    });
    expect(parseTarget('tenant:globex,true')).toEqual({
      tenant: 'globex',
      partner: null,
      fromPartner: false,
      edit: true,
    });
    expect(parseTarget('')).toBeNull();
    expect(parseTarget('partner:northwind,true')).toBeNull();
  });
});
