import { useMediaQuery } from '@mantine/hooks';
import { HOME_PATH, matchesPattern } from '@palisade/contracts';
import { type MouseEvent, useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession, useWorkingTenant } from '../../lib/auth';
import classes from './app-shell.module.css';
import { layoutReducer, loadLayout, saveLayout } from './layout-state';
import { landingPath } from './nav-items';
import { Sidebar } from './sidebar';
import { TargetBanner } from './target-banner';
import { TopBar } from './top-bar';
import { TopProgress } from './top-progress';

/** The id of `<main>`, target of the skip link. */
export const MAIN_ID = 'main-content';

/** Moves focus to the main content without changing the URL's hash (which the router would treat as navigation). */
function handleSkipToMain(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  event.preventDefault();
  main.focus();
  main.scrollIntoView();
}

/**
 * The signed-in frame: skip link, progress bar, sidebar, header, the partner-access band (while a partner works
 * in a tenant it manages) and the screen in `<main>`.
 */
export function AppShell() {
  const { t } = useTranslation();
  const [layout, dispatch] = useReducer(layoutReducer, undefined, () => loadLayout());
  const isSmallScreen = useMediaQuery('(max-width: 48em)') ?? false;
  const { pathname } = useLocation();
  const { session } = useSession();
  const tenant = useWorkingTenant();

  useEffect(() => saveLayout(layout), [layout]);

  // On a phone the open sidebar covers the screen: start closed and close after each navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not a value used.
  useEffect(() => {
    if (isSmallScreen) dispatch({ type: 'sidebar/hide' });
  }, [isSmallScreen, pathname]);

  // Sign-in, the logo and unknown paths lead to the dashboard; without `dashboard:view`, to the first permitted screen.
  const isDashboard = matchesPattern('/main-dashboards/:id/SASEDashboard', pathname);
  if (session && isDashboard && !session.permissions.includes('dashboard:view')) {
    return <Navigate to={landingPath(session.permissions, tenant)} replace />;
  }

  const { sidebar } = layout;
  return (
    <div className={classes.page} data-boxed={layout.isBoxed || undefined}>
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={handleSkipToMain}>
        {t('shell.skipToContent', 'Skip to main content')}
      </a>
      <TopProgress />
      <div className={classes.frame}>
        {sidebar.isDisabled ? null : (
          <Sidebar state={sidebar} isSticky={sidebar.isSticky} dispatch={dispatch} homePath={HOME_PATH} />
        )}
        {isSmallScreen && sidebar.isOpen && !sidebar.isDisabled ? (
          <div
            className={classes.overlay}
            aria-hidden="true"
            onClick={() => dispatch({ type: 'sidebar/hide' })}
          />
        ) : null}
        <div className={classes.content}>
          <TopBar layout={layout} dispatch={dispatch} />
          <TargetBanner />
          <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
            <Outlet />
          </main>
        </div>
      </div>
    </div>
  );
}
