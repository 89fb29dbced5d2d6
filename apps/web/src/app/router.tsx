import { HOME_PATH, SERVED_ROUTES, type ServedRoute } from '@palisade/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createBrowserRouter,
  Navigate,
  Outlet,
  type RouteObject,
  useLocation,
  useMatches,
  useRouteError,
} from 'react-router';
import { ErrorState, LoadingState } from '../components/ui/query-state';
import { analytics } from '../lib/analytics';
import { withFeatureGate } from './feature-gate';
import { useFocusHeadingOnNavigate } from './route-focus';
import { isEmbedRoute, isPublicRoute, SCREENS } from './routes';
import { SessionGuard } from './session-guard';
import { AuthLayout } from './shell/auth-layout';

/** What a screen route carries for the shell: the short name, whose title is `routeTranslation:{name}`. */
export interface ScreenHandle {
  name: string;
}

/** A lazy route for one served path: the screen module is fetched on first visit. */
export function screenRoute(path: ServedRoute): RouteObject {
  const screen = SCREENS[path];
  return {
    path,
    handle: { name: screen.name } satisfies ScreenHandle,
    lazy: async () => {
      const module = await screen.load();
      return { Component: withFeatureGate(path, module.Component) };
    },
  };
}

/**
 * Sets the document title from the current screen, moves focus to its heading after each navigation and
 * records a page view per location.
 */
function RootLayout() {
  const { t } = useTranslation();
  useFocusHeadingOnNavigate();
  const matches = useMatches();
  const location = useLocation();
  const name = (
    matches.findLast((match) => (match.handle as ScreenHandle | undefined)?.name)?.handle as
      | ScreenHandle
      | undefined
  )?.name;
  const appName = t('common.appName', 'Palisade');
  const title = name ? t(name, { ns: 'routeTranslation', defaultValue: '' }) : '';

  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);

  useEffect(() => {
    analytics.pageview(`${window.location.origin}${location.pathname}${location.search}`);
  }, [location.pathname, location.search]);

  return <Outlet />;
}

/** Shown when a screen fails to load (a chunk missing after a deploy) or throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  console.error(error);
  return (
    <ErrorState
      error={error}
      message={t('common.screenFailed', 'This screen could not be shown. Reload the page to try again.')}
      onRetry={() => window.location.reload()}
    />
  );
}

/**
 * The route tree: public screens in the auth layout; the embedded dashboards (`/embed/…`) behind their link's
 * embed token, without the shell; the rest in the shell behind the session guard.
 */
export function buildRoutes(paths: readonly ServedRoute[] = SERVED_ROUTES): RouteObject[] {
  const publicPaths = paths.filter((path) => isPublicRoute(path));
  const embedPaths = paths.filter((path) => !isPublicRoute(path) && isEmbedRoute(path));
  const privatePaths = paths.filter((path) => !isPublicRoute(path) && !isEmbedRoute(path));
  return [
    {
      element: <RootLayout />,
      HydrateFallback: LoadingState,
      errorElement: <RouteError />,
      children: [
        { element: <AuthLayout />, children: publicPaths.map(screenRoute) },
        {
          // The link's own credential, never a session (app/embed-gate.tsx); each embedded view is its own frame
          // (features/embed KioskFrame): no shell, no navigation.
          lazy: async () => ({ Component: (await import('./embed-gate')).EmbedGate }),
          children: [{ errorElement: <RouteError />, children: embedPaths.map(screenRoute) }],
        },
        {
          element: <SessionGuard />,
          children: [
            {
              // Its own chunk too: public screens never load the shell, and React Router fetches it in
              // parallel with the screen, so signed-in pages do not wait twice.
              lazy: async () => ({ Component: (await import('./shell/app-shell')).AppShell }),
              // A pathless child, so a failing screen shows its error inside the shell.
              children: [{ errorElement: <RouteError />, children: privatePaths.map(screenRoute) }],
            },
          ],
        },
        { path: '*', element: <Navigate to={HOME_PATH} replace /> },
      ],
    },
  ];
}

/** The app's router over the browser's address bar (tests build theirs with `createMemoryRouter`). */
export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
