import { describe, expect, it } from 'vitest';
import { checkNetworks, splitNetworks, toMatcher, toNetworksText } from './networks';

describe('route networks', () => {
  it('reads one per line or comma separated, and writes the rule matcher', () => {
    expect(splitNetworks(' 10.20.0.0/16,10.30.0.0/16\n\n192.168.1.1 ; ')).toEqual([
      '10.20.0.0/16',
      '10.30.0.0/16',
      '192.168.1.1',
    ]);
    expect(toMatcher('10.20.0.0/16\n10.30.0.0/16')).toBe('10.20.0.0/16;10.30.0.0/16');
    expect(toNetworksText('10.20.0.0/16;10.30.0.0/16')).toBe('10.20.0.0/16\n10.30.0.0/16');
  });

  it('takes IPv4 addresses and CIDR blocks only, each once', () => {
    expect(checkNetworks('10.20.0.0/16\n10.1.2.3')).toBeNull();
    expect(checkNetworks('  ')).toEqual({ message: 'routes.validation.networksRequired' });
    expect(checkNetworks('10.20.0.0/33')).toEqual({
      message: 'policy.validation.routeMatcher',
      values: { item: '10.20.0.0/33' },
    });
    expect(checkNetworks('example.com')?.values).toEqual({ item: 'example.com' });
    expect(checkNetworks('fd00::/8')?.message).toBe('policy.validation.routeMatcher');
    expect(checkNetworks('10.1.2.3, 10.1.2.3')).toEqual({
      message: 'validation.duplicate',
      values: { item: '10.1.2.3' },
    });
  });
});
