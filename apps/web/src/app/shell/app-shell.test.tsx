import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../testing/render';
import { AppShell } from './app-shell';

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404)),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderShell() {
  return renderRoutes(
    [{ element: <AppShell />, children: [{ path: '/users/list', element: <h1>Users</h1> }] }],
    { route: '/users/list', session: makeSession() },
  );
}

describe('the navigation toggle', () => {
  it('says what it does, and shows a sidebar, not the cross of a close button', async () => {
    const { user } = renderShell();
    const navigation = screen.getByRole('navigation', { name: 'Main navigation' });
    const hide = screen.getByRole('button', { name: 'Hide navigation' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveAttribute('aria-controls', navigation.id);
    // Mantine's Burger turns into a cross while open; the sidebar glyph stays a sidebar.
    expect(hide.querySelector('[data-icon="sidebar"]')).not.toBeNull();
    expect(hide.querySelector('.mantine-Burger-burger')).toBeNull();

    await user.click(hide);
    const show = screen.getByRole('button', { name: 'Show navigation' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    expect(show.querySelector('[data-icon="sidebar"]')).not.toBeNull();
  });
});
