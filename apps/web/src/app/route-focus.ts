import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** How long a screen may take to show its heading (a lazy chunk, a first query) before focus stays put. */
export const HEADING_WAIT_MS = 10_000;

/** Whether focus is somewhere the new screen put it: inside `<main>`, on anything but `<main>` itself. */
function isPlacedByScreen(main: Element | null): boolean {
  const active = document.activeElement;
  return !!main && !!active && active !== main && main.contains(active);
}

/**
 * Whether the user put focus somewhere since the navigation (`before` had it when it was seen): anywhere but the
 * page itself, the main region or the element that led here — or into a field (a tenant switcher, a search
 * box), whichever moment it was: the navigation can commit a moment after the user clicked on, and a field the
 * user is in never loses focus to a heading.
 */
function isMovedByUser(main: Element | null, before: Element | null): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || active === main || !active.isConnected) return false;
  const isField = active.matches('input, select, textarea, [contenteditable="true"], [role="combobox"]');
  return isField || active !== before;
}

/**
 * Focuses the screen's `<h1>` (made focusable with `tabindex="-1"`) once it is shown; false while there is none.
 * Focus the screen placed itself (an autofocused field), or the user moved meanwhile, is left alone.
 */
function focusHeading(before: Element | null): boolean {
  const main = document.querySelector('main');
  if (isPlacedByScreen(main) || isMovedByUser(main, before)) return true;
  const heading = main?.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return true;
}

/** The location the hook last saw, and the navigation whose heading still waits for focus, across remounts. */
let lastSeen: { key: string; pathname: string } | null = null;
let pendingKey: string | null = null;
/** What had focus when the pending navigation was first seen (the link or button that led there, or nothing). */
let pendingBefore: Element | null = null;

/**
 * After each navigation (not the first page load), moves focus to the new screen's heading, so screen readers
 * announce where the user landed and Tab continues from the top of the new content instead of from a link that
 * is gone or from the sidebar. A screen still loading gets its heading focused when it appears; the user moving
 * focus in the meantime cancels it. Changes of the query string (search, filters, paging) are not navigation,
 * and neither is the layout mounting again at the same location (a Suspense fallback can unmount it while a
 * screen loads; the wait then resumes).
 */
export function useFocusHeadingOnNavigate(): void {
  const { key, pathname } = useLocation();

  useEffect(() => {
    const previous = lastSeen;
    lastSeen = { key, pathname };
    // "default" is the key of the location the page was loaded at.
    const isNavigation =
      previous !== null && key !== 'default' && previous.key !== key && previous.pathname !== pathname;
    if (isNavigation) {
      pendingKey = key;
      pendingBefore = document.activeElement;
    } else if (previous?.key !== key) pendingKey = null;
    if (pendingKey !== key) return;

    // Kept across a remount of the layout: focus the user moved meanwhile is theirs.
    const before = pendingBefore;
    const done = () => {
      pendingKey = null;
      stop();
    };
    const observer = new MutationObserver(() => {
      if (focusHeading(before)) done();
    });
    const timer = window.setTimeout(done, HEADING_WAIT_MS);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
      document.removeEventListener('focusin', done);
    }
    if (focusHeading(before)) {
      done();
      return;
    }
    observer.observe(document.body, { childList: true, subtree: true });
    // Whoever moves focus first (the user, or the screen) wins over the heading.
    document.addEventListener('focusin', done);
    return stop;
  }, [key, pathname]);
}
