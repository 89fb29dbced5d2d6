import { describe, expect, it } from 'vitest';
import { isServedRoute, SERVED_ROUTES, SPEC_ROUTES } from './routes';

describe('which paths the SPA serves', () => {
  it('serves every served route, with its parameters filled in', () => {
    expect(isServedRoute('/devices/list')).toBe(true);
    expect(isServedRoute('/devices/0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d')).toBe(true);
    expect(isServedRoute('/devices/routes/')).toBe(true);
    expect(isServedRoute('/users/list/')).toBe(true);
  });

  it('never takes a spec screen not built yet for another screen’s parameter', () => {
    const unbuilt = SPEC_ROUTES.filter(
      (route) => !route.includes(':') && !(SERVED_ROUTES as readonly string[]).includes(route),
    );
    expect(unbuilt).toContain('/XDR/dashboard');
    // A spec screen that looks like a served one's parameter (`/verify/:id`).
    expect(isServedRoute('/verify/sso-verification')).toBe(false);
    for (const route of unbuilt) expect(isServedRoute(route), route).toBe(false);
    expect(isServedRoute('/nothing/here/at/all')).toBe(false);
  });
});
