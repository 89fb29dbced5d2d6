import type { ServedRoute } from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeSession, renderWithProviders } from '../../testing/render';
import { SCREENS } from '../routes';

/** The routes of the policy-objects feature: each header offers the policies feature's simulator. */
const OBJECT_ROUTES: ServedRoute[] = [
  '/policy/locations',
  '/policy/apps',
  '/policy/web-categories',
  '/policy/threat-intel',
  '/policy/maliciousip',
  '/policy/geo-controls',
  '/policy/blocked-apps',
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('policy-object screens as the app serves them', () => {
  it.each(OBJECT_ROUTES)('%s has "Test a request" in its header', async (path) => {
    // The screen's data never arrives: the header is what this is about.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    const { Component } = await SCREENS[path].load();
    renderWithProviders(<Component />, { route: path, session: makeSession() });
    expect(await screen.findByRole('button', { name: 'Test a request' })).toBeInTheDocument();
  });
});
