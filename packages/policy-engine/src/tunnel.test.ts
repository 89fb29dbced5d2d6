import { describe, expect, it } from 'vitest';
import { fullTunnelFor } from './tunnel';
import type { EnginePolicy } from './types';

const policy = (overrides: Partial<EnginePolicy>): EnginePolicy => ({
  id: 'p',
  name: 'P',
  type: 'route',
  enabled: true,
  precedence: 1,
  rules: [],
  appliesTo: null,
  ...overrides,
});

const ann = { deviceId: 'd-ann', userId: 'u-ann', groups: ['g-eng'] };
const bob = { deviceId: 'd-bob', userId: 'u-bob', groups: [] };

describe('fullTunnelFor', () => {
  it('is split tunnel unless a policy asks for a full one', () => {
    expect(fullTunnelFor({ policies: [policy({})] }, ann)).toBe(false);
    expect(fullTunnelFor({ policies: [] }, ann)).toBe(false);
  });

  it('gives everyone a full tunnel when an unassigned policy asks for it', () => {
    const input = { policies: [policy({ fullTunnel: true })] };
    expect(fullTunnelFor(input, ann)).toBe(true);
    expect(fullTunnelFor(input, bob)).toBe(true);
  });

  it('applies only to the users, groups and devices the policy names', () => {
    const byGroup = {
      policies: [policy({ fullTunnel: true, appliesTo: { users: [], groups: ['g-eng'], devices: [] } })],
    };
    expect(fullTunnelFor(byGroup, ann)).toBe(true);
    expect(fullTunnelFor(byGroup, bob)).toBe(false);
    const byUser = {
      policies: [policy({ fullTunnel: true, appliesTo: { users: ['u-bob'], groups: [], devices: [] } })],
    };
    expect(fullTunnelFor(byUser, bob)).toBe(true);
    expect(fullTunnelFor(byUser, ann)).toBe(false);
    const byDevice = {
      policies: [policy({ fullTunnel: true, appliesTo: { users: [], groups: [], devices: ['d-ann'] } })],
    };
    expect(fullTunnelFor(byDevice, ann)).toBe(true);
    expect(fullTunnelFor(byDevice, { ...ann, deviceId: 'd-other' })).toBe(false);
  });

  it('ignores a disabled policy', () => {
    expect(fullTunnelFor({ policies: [policy({ fullTunnel: true, enabled: false })] }, ann)).toBe(false);
  });
});
