import { describe, expect, it } from 'vitest';
import { CONFIG_ROUTES, FEATURE_ROUTES, routeFlag } from './feature-routes';
import { policyObjectEndpoints } from './policy-objects';
import { privateAccessEndpoints } from './private-access';
import { reportEndpoints } from './reports';
import { SERVED_ROUTES } from './routes';

const gated = [
  ...Object.values(policyObjectEndpoints),
  ...Object.values(privateAccessEndpoints),
  ...Object.values(reportEndpoints),
].filter((e) => e.feature || e.configFlag);

describe('the routes behind flags', () => {
  it('names only screens that are served', () => {
    const screens = [...Object.values(FEATURE_ROUTES), ...Object.values(CONFIG_ROUTES)].flat();
    expect(screens.filter((route) => !(SERVED_ROUTES as readonly string[]).includes(route))).toEqual([]);
  });

  it('tells the flag of a screen, and none for an ungated one', () => {
    expect(routeFlag('/devices/ztna-firewall')).toEqual({ kind: 'feature', flag: 'ztnaFirewall' });
    expect(routeFlag('/users/:id/:type')).toEqual({ kind: 'config', flag: 'copyAllowed' });
    expect(routeFlag('/users/list')).toBeNull();
  });

  it('gates only endpoints whose path names the tenant, whose flags the server reads', () => {
    expect(gated.length).toBeGreaterThan(5);
    expect(gated.filter((e) => !e.path.includes(':tenant')).map((e) => e.path)).toEqual([]);
  });
});
