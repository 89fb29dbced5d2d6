/**
 * Test rendering with the app's providers: Mantine (the app theme, notifications), a fresh QueryClient, the
 * session, i18n initialised synchronously from the en JSON files, and a memory data router (so `useNavigation`,
 * `useMatches` and lazy routes work as in the app).
 */
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { FEATURE_DEFAULTS, FEATURE_FLAGS, ROLE_PERMISSIONS, type Session } from '@palisade/contracts';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import paymentHistory from '../../public/locales/en/paymentHistory.json';
import routeTranslation from '../../public/locales/en/routeTranslation.json';
import subscriptionHistory from '../../public/locales/en/subscriptionHistory.json';
import translation from '../../public/locales/en/translation.json';
import { SESSION_QUERY_KEY, SessionProvider } from '../lib/auth';
import { i18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import { saveSession } from '../lib/session-store';
import { buildMantineTheme, resolveAppearance } from '../lib/theme';

/** Initialises the app's i18n instance with the English resources, synchronously (once per test file). */
export function initTestI18n(): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.init({
      lng: 'en',
      fallbackLng: 'en',
      ns: ['translation', 'routeTranslation', 'subscriptionHistory', 'paymentHistory'],
      defaultNS: 'translation',
      resources: { en: { translation, routeTranslation, subscriptionHistory, paymentHistory } },
      initAsync: false,
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  }
  return i18n;
}

/**
 * A complete session for tests; override what the test is about. The permissions are those of the role it is
 * given (owner by default) unless `permissions` is given too, as for a custom role.
 */
export function makeSession(overrides: Partial<Session> = {}): Session {
  const role = overrides.role ?? 'owner';
  return {
    userid: 'u-admin',
    username: 'admin@acme.example',
    firstname: 'Ada',
    lastname: 'Admin',
    usertype: 1,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    customRoleName: null,
    tenant: 'acme',
    tenantDisplayName: 'Acme Corp',
    tenantKind: 'customer',
    managedTenants: [],
    managedTenantDisplayNames: {},
    partnername: null,
    // What a tenant without stored flags has (contracts FEATURE_DEFAULTS).
    features: FEATURE_FLAGS.filter((flag) => FEATURE_DEFAULTS[flag]),
    theme: null,
    palette: null,
    tenantTheme: 'light',
    tenantPalette: 'classic',
    language: null,
    totpEnabled: false,
    clientAuth: false,
    expiresAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Options of {@link renderRoutes} and {@link renderWithProviders}. */
export interface RenderOptions {
  /** The address to start at. */
  route?: string;
  /** Signs in with this session (stored id `test-session` and the query data), or stays signed out. */
  session?: Session | null;
  queryClient?: QueryClient;
}

/** What the render helpers return: Testing Library's result plus the router, the client and a user. */
export interface RenderAppResult extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
  user: ReturnType<typeof userEvent.setup>;
}

const testTheme = buildMantineTheme(resolveAppearance({}));

function Providers({
  queryClient,
  navigate,
  children,
}: {
  queryClient: QueryClient;
  navigate: (path: string) => unknown;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider navigate={navigate}>
        <MantineProvider theme={testTheme}>
          <Notifications />
          {children}
        </MantineProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}

/** Renders a route tree in a memory router under the app's providers. */
export function renderRoutes(routes: RouteObject[], options: RenderOptions = {}): RenderAppResult {
  initTestI18n();
  const queryClient = options.queryClient ?? createQueryClient();
  if (options.session) {
    saveSession({ ...options.session, sessid: 'test-session' });
    queryClient.setQueryData(SESSION_QUERY_KEY, options.session);
  }
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/'] });
  const user = userEvent.setup();
  const result = render(
    <Providers queryClient={queryClient} navigate={(path) => router.navigate(path)}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient, user };
}

/**
 * Renders one element at `route`. Give `path` (a pattern such as `/tenant/:id/settings`) when the element reads
 * route params.
 */
export function renderWithProviders(
  ui: ReactElement,
  options: RenderOptions & { path?: string } = {},
): RenderAppResult {
  return renderRoutes([{ path: options.path ?? '*', element: ui }], options);
}
