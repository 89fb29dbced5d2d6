import { screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../testing/render';
import { useFocusHeadingOnNavigate } from './route-focus';

/** A frame like the app's: navigation outside `<main>`, the screen inside it. */
function Frame() {
  useFocusHeadingOnNavigate();
  return (
    <>
      <nav>
        <Link to="/first">First</Link>
        <Link to="/second">Second</Link>
        <Link to="/slow">Slow</Link>
        <Link to="/form">Form</Link>
        <Link to="/first?q=x">Search</Link>
      </nav>
      <header>
        <input aria-label="Working tenant" />
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}

/** A screen whose heading comes after its data, like a detail page. */
function Slow() {
  const [isLoaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 30);
    return () => clearTimeout(timer);
  }, []);
  return isLoaded ? <h1>Slow screen</h1> : <p>Loading…</p>;
}

function renderFrame() {
  return renderRoutes(
    [
      {
        element: <Frame />,
        children: [
          { path: '/first', element: <h1>First screen</h1> },
          { path: '/second', element: <h1>Second screen</h1> },
          { path: '/slow', element: <Slow /> },
          {
            path: '/form',
            element: (
              <>
                <h1>Form screen</h1>
                {/* biome-ignore lint/a11y/noAutofocus: the case under test, a screen that focuses its field. */}
                <input aria-label="Name" autoFocus />
              </>
            ),
          },
        ],
      },
    ],
    { route: '/first' },
  );
}

describe('focus after navigation', () => {
  it('leaves focus alone on the first page load', () => {
    renderFrame();
    expect(screen.getByRole('heading', { name: 'First screen' })).not.toHaveFocus();
  });

  it("moves focus from the link to the new screen's heading", async () => {
    const { user } = renderFrame();
    await user.click(screen.getByRole('link', { name: 'Second' }));
    const heading = await screen.findByRole('heading', { name: 'Second screen' });
    await waitFor(() => expect(heading).toHaveFocus());
    // Focusable by script only: it does not become a Tab stop.
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('waits for a heading that appears after the screen has loaded', async () => {
    const { user } = renderFrame();
    await user.click(screen.getByRole('link', { name: 'Slow' }));
    const heading = await screen.findByRole('heading', { name: 'Slow screen' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('keeps the focus a screen gives its own field', async () => {
    const { user } = renderFrame();
    await user.click(screen.getByRole('link', { name: 'Form' }));
    await screen.findByRole('heading', { name: 'Form screen' });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
  });

  it('does not move focus when only the query string changes', async () => {
    const { user, router } = renderFrame();
    const search = screen.getByRole('link', { name: 'Search' });
    await user.click(search);
    await waitFor(() => expect(router.state.location.search).toBe('?q=x'));
    expect(search).toHaveFocus();
  });

  it('never takes focus from a field the user is in, even one focused before the navigation committed', async () => {
    const { user, router } = renderFrame();
    const field = screen.getByRole('textbox', { name: 'Working tenant' });
    // The user clicks on into the tenant switcher while the next screen is on its way.
    field.focus();
    await router.navigate('/slow');
    await screen.findByRole('heading', { name: 'Slow screen' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(field).toHaveFocus();
    // A link that led somewhere still hands focus to the new heading.
    await user.click(screen.getByRole('link', { name: 'Second' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Second screen' })).toHaveFocus());
  });
});
