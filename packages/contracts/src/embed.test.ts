import { describe, expect, it } from 'vitest';
import {
  EMBED_KINDS,
  EMBED_ROUTE_OF,
  EMBED_ROUTES,
  type EmbedKind,
  embedLink,
  embedPath,
  isEmbedRoute,
} from './embed';
import { isPublicRoute, isServedRoute, matchesPattern, SERVED_ROUTES } from './routes';

const BASE = 'https://console.example.com';

describe('embedded dashboard links', () => {
  it('builds the exact link of every kind', () => {
    const links: Record<EmbedKind, string> = {
      tenant: embedLink(BASE, 's1', 'tenant', { tenant: 'acme' }),
      '5g': embedLink(BASE, 's1', '5g', { tenant: 'acme' }),
      xdr: embedLink(BASE, 's1', 'xdr', { tenant: 'acme', tenantType: 'customer' }),
      spa: embedLink(BASE, 's1', 'spa', { tenant: 'acme' }),
      'weekly-sase': embedLink(BASE, 's1', 'weekly-sase', { tenant: 'acme' }),
      'weekly-site-performance': embedLink(BASE, 's1', 'weekly-site-performance', { tenant: 'acme' }),
      diagnostics: embedLink(BASE, 's1', 'diagnostics', { tenant: 'acme' }),
      'intrusion-detection': embedLink(BASE, 's1', 'intrusion-detection', { tenant: 'acme' }),
      agentless: embedLink(BASE, 's1', 'agentless', { tenant: 'acme' }),
      'user-tag': embedLink(BASE, 's1', 'user-tag', {
        tenant: 'acme',
        userId: '0b6f6a1e-2f59-4c55-9a43-6a4a2e0b1c1d',
        userName: 'ada',
      }),
      global: embedLink(BASE, 's1', 'global'),
      'incident-response': embedLink(BASE, 's1', 'incident-response', { tenant: 'acme' }),
      'vulnerability-management': embedLink(BASE, 's1', 'vulnerability-management', { tenant: 'acme' }),
      'ai-search': embedLink(BASE, 's1', 'ai-search', { tenant: 'acme' }),
    };
    expect(links).toEqual({
      tenant: 'https://console.example.com/embed/tenant/acme?token=s1',
      '5g': 'https://console.example.com/embed/5g/acme?token=s1',
      xdr: 'https://console.example.com/embed/xdr/acme/customer?token=s1',
      spa: 'https://console.example.com/embed/spa/acme?token=s1',
      'weekly-sase': 'https://console.example.com/embed/weekly-sase/acme?token=s1',
      'weekly-site-performance': 'https://console.example.com/embed/weekly-site-performance/acme?token=s1',
      diagnostics: 'https://console.example.com/embed/diagnostics/acme?token=s1',
      'intrusion-detection': 'https://console.example.com/embed/intrusion-detection/acme?token=s1',
      agentless: 'https://console.example.com/embed/agentless/acme?token=s1',
      'user-tag':
        'https://console.example.com/embed/user-tag/acme/0b6f6a1e-2f59-4c55-9a43-6a4a2e0b1c1d/ada?token=s1',
      global: 'https://console.example.com/embed/global?token=s1',
      'incident-response': 'https://console.example.com/embed/incident-response/acme?token=s1',
      'vulnerability-management': 'https://console.example.com/embed/vulnerability-management/acme?token=s1',
      'ai-search': 'https://console.example.com/embed/ai-search/acme?token=s1',
    });
  });

  it('percent-encodes every path segment and the session id', () => {
    expect(
      embedLink(BASE, 'a+b/c=d&e', 'user-tag', {
        tenant: 'a/b',
        userId: 'x?y',
        userName: 'Zoë Müller #1',
      }),
    ).toBe(
      'https://console.example.com/embed/user-tag/a%2Fb/x%3Fy/Zo%C3%AB%20M%C3%BCller%20%231?token=a%2Bb%2Fc%3Dd%26e',
    );
    expect(embedPath('xdr', { tenant: 'a b', tenantType: 'partner' })).toBe('/embed/xdr/a%20b/partner');
    // What the browser makes of it: the arguments come back whole.
    const url = new URL(embedLink(BASE, 'a+b&c', 'tenant', { tenant: 'x/y?z' }));
    expect(url.pathname).toBe('/embed/tenant/x%2Fy%3Fz');
    expect(url.searchParams.get('token')).toBe('a+b&c');
  });

  it('keeps the path prefix of a base and drops its trailing slashes', () => {
    expect(embedLink('https://dash.example.com/palisade', 's', 'spa', { tenant: 'acme' })).toBe(
      'https://dash.example.com/palisade/embed/spa/acme?token=s',
    );
    expect(embedLink('https://dash.example.com/palisade/', 's', 'spa', { tenant: 'acme' })).toBe(
      'https://dash.example.com/palisade/embed/spa/acme?token=s',
    );
    expect(embedLink('http://10.0.0.5:8080//', 's', 'global')).toBe(
      'http://10.0.0.5:8080/embed/global?token=s',
    );
  });

  it('refuses an empty or dot segment, which the URL would drop or climb out of', () => {
    expect(() => embedLink(BASE, 's', 'tenant', { tenant: '' })).toThrow(/tenant/);
    expect(() => embedLink(BASE, 's', 'user-tag', { tenant: 'acme', userId: 'u', userName: '..' })).toThrow(
      /userName/,
    );
  });
});

describe('embedded dashboard routes', () => {
  it('has one route per kind, in the order of the kinds', () => {
    expect(EMBED_ROUTES).toEqual(EMBED_KINDS.map((kind) => EMBED_ROUTE_OF[kind]));
    expect(new Set(EMBED_KINDS).size).toBe(14);
  });

  it('are served by the SPA, signed in, and each link opens its own route', () => {
    for (const route of EMBED_ROUTES) {
      expect(SERVED_ROUTES, route).toContain(route);
      expect(isPublicRoute(route), route).toBe(false);
      expect(isEmbedRoute(route), route).toBe(true);
    }
    const path = embedPath('user-tag', { tenant: 'acme', userId: 'u1', userName: 'Ada Lovelace' });
    expect(isServedRoute(path)).toBe(true);
    expect(EMBED_ROUTES.filter((route) => matchesPattern(route, path))).toEqual([
      '/embed/user-tag/:tenant/:userId/:userName',
    ]);
    expect(isServedRoute('/embed/global')).toBe(true);
    expect(isServedRoute('/embed/nothing')).toBe(false);
    expect(isEmbedRoute('/users/list')).toBe(false);
    expect(isEmbedRoute('/embedded')).toBe(false);
  });
});
