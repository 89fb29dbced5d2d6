import { Alert, Button, Center, Loader, MantineProvider, Stack, Text } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type NavigateFn, SessionProvider } from '../lib/auth';
import { i18n } from '../lib/i18n';
import { DEFAULT_TOAST_PLACEMENT, TOAST_POSITIONS, TOAST_TRANSITION_MS } from '../lib/notify';
import { buildMantineTheme, colorSchemeOf, cssVariablesResolverFor } from '../lib/theme';
import { useAppearance } from './shell/use-appearance';

/** MantineProvider with the effective theme and palette of the signed-in user. */
function AppThemeProvider({ children }: { children: ReactNode }) {
  const appearance = useAppearance();
  // Not suspending: this provider also wraps the loader shown while translations load.
  const { t } = useTranslation(undefined, { useSuspense: false });
  const close = t('common.close', 'Close');
  const showPassword = t('common.showPassword', 'Show password');
  const pickColour = t('common.pickColour', 'Pick a colour from the screen');
  const theme = useMemo(
    () => buildMantineTheme(appearance, { close, showPassword, pickColour }),
    [appearance, close, showPassword, pickColour],
  );
  const resolver = useMemo(() => cssVariablesResolverFor(appearance), [appearance]);
  return (
    <MantineProvider
      theme={theme}
      forceColorScheme={colorSchemeOf(appearance.theme)}
      cssVariablesResolver={resolver}
    >
      {children}
    </MantineProvider>
  );
}

/** A spinner for the whole page while translations load. */
function FullPageLoader() {
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Loader aria-label={i18n.t('common.loading', 'Loading…')} />
    </Center>
  );
}

interface ErrorBoundaryState {
  error: Error | null;
}

/**
 * The last line of defence: a render error outside any route (route errors have their own element) shows a
 * message and a reload button instead of a blank page. Texts use i18n directly with English defaults, since
 * translations may be what failed.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): ErrorBoundaryState {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled render error', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title={i18n.t('common.crashTitle', 'Something went wrong')} role="alert" maw={480}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {i18n.t(
                'common.crashText',
                'The console ran into an unexpected problem. Reloading usually fixes it.',
              )}
            </Text>
            <Button size="xs" onClick={() => window.location.reload()}>
              {i18n.t('common.reload', 'Reload')}
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }
}

/** Props of {@link AppProvider}. */
export interface AppProviderProps {
  queryClient: QueryClient;
  /** The router's navigate, for the session's redirects. */
  navigate: NavigateFn;
  children: ReactNode;
}

/** Everything the screens rely on: queries, the session, the theme, toasts, translations and a crash screen. */
export function AppProvider({ queryClient, navigate, children }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider navigate={navigate}>
        <AppThemeProvider>
          <Notifications
            position={TOAST_POSITIONS[DEFAULT_TOAST_PLACEMENT]}
            transitionDuration={TOAST_TRANSITION_MS}
            zIndex={1200}
          />
          <AppErrorBoundary>
            <Suspense fallback={<FullPageLoader />}>{children}</Suspense>
          </AppErrorBoundary>
        </AppThemeProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
