import { describe, expect, it } from 'vitest';
import { FILES, INTRANET, TILL } from '../testing/fixtures';
import {
  foldFieldErrors,
  serviceToInput,
  ztnaRuleFormToInput,
  ztnaRuleToFormValues,
  ztnaRuleToInput,
} from './entry-values';

describe('entry values', () => {
  it('sends a listed entry back whole, its audience as ids', () => {
    expect(serviceToInput(INTRANET)).toEqual({
      name: 'Intranet',
      gatewayId: INTRANET.gatewayId,
      address: '192.168.1.20',
      protocol: 'tcp',
      ports: '443',
      userIds: [INTRANET.users[0].id],
      groupIds: [INTRANET.groups[0].id],
      enabled: true,
    });
    expect(ztnaRuleToInput(TILL)).toMatchObject({ protocol: 'any', ports: null });
    expect(ztnaRuleToInput(FILES)).toMatchObject({ protocol: 'tcp', ports: '445' });
  });

  it('sends no ports for a rule with empty ports or any protocol', () => {
    const values = ztnaRuleToFormValues(FILES);
    expect(ztnaRuleFormToInput({ ...values, ports: '  ' }).ports).toBeNull();
    expect(ztnaRuleFormToInput({ ...values, protocol: 'any', ports: '445' }).ports).toBeNull();
    expect(ztnaRuleFormToInput({ ...values, ports: ' 80,443 ' }).ports).toBe('80,443');
  });

  it('folds list positions into their field and drops fields the form does not show', () => {
    expect(
      foldFieldErrors({ 'userIds.2': 'unknown user', 'userIds.4': 'another', address: 'outside', id: 'no' }, [
        'name',
        'address',
        'userIds',
      ]),
    ).toEqual({ userIds: 'unknown user', address: 'outside' });
  });
});
