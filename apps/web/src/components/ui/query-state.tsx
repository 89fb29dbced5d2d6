import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../../lib/api-client';

/** Props of {@link LoadingState}. */
export interface LoadingStateProps {
  /** Accessible label of the spinner; "Loading…" by default. */
  label?: string;
}

/** A centred spinner announced to screen readers while data loads. */
export function LoadingState({ label }: LoadingStateProps) {
  const { t } = useTranslation();
  const text = label ?? t('common.loading', 'Loading…');
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}

/** Props of {@link ErrorState}. */
export interface ErrorStateProps {
  /** The failure; its message is translated through `error.{errcode}` (or the generic load-failure text). */
  error?: unknown;
  /** Overrides the translated message. */
  message?: ReactNode;
  /** Shows a "Try again" button that calls this. */
  onRetry?: () => void;
}

/** A red alert explaining that loading failed, with an optional retry button. */
export function ErrorState({ error, message, onRetry }: ErrorStateProps) {
  const { t } = useTranslation();
  const text =
    message ?? t(errorMessageKey(error), t('error.genericFetchErrorText', 'We could not load the data.'));
  return (
    <Alert color="red" variant="light" title={t('common.loadFailed', 'Loading failed')} role="alert" my="md">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{text}</Text>
        {onRetry ? (
          <Button size="xs" variant="outline" color="red" onClick={onRetry}>
            {t('common.retry', 'Try again')}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  /** What is missing, e.g. "No users yet." */
  message?: ReactNode;
  /** A call to action, e.g. an "Add user" button. */
  action?: ReactNode;
}

/** Shown when a loaded list or view has nothing in it. */
export function EmptyState({ message, action }: EmptyStateProps) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Text c="dimmed">{message ?? t('common.empty', 'Nothing here yet.')}</Text>
        {action}
      </Stack>
    </Center>
  );
}

/** The three flags of a query that {@link QueryState} reads (TanStack Query's result fits). */
export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Props of {@link QueryState}. */
export interface QueryStateProps<T> {
  /** A TanStack Query result (or anything with the same flags). */
  query: QueryLike & { data: T | undefined };
  /** True when the loaded data counts as empty (renders {@link EmptyState}). */
  isEmpty?: (data: T) => boolean;
  /** Text of the empty state. */
  emptyMessage?: ReactNode;
  /** Call to action of the empty state. */
  emptyAction?: ReactNode;
  /** Renders the loaded data. */
  children: (data: T) => ReactNode;
}

/**
 * Renders a query in the order loading → error (with retry) → empty → data, so screens do not repeat the
 * early returns.
 */
export function QueryState<T>({ query, isEmpty, emptyMessage, emptyAction, children }: QueryStateProps<T>) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || query.data === undefined) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (isEmpty?.(query.data)) return <EmptyState message={emptyMessage} action={emptyAction} />;
  return <>{children(query.data)}</>;
}
