/**
 * The toasts of writes (mutations), for every feature: one place decides how a failed or finished change is
 * told, so every area says it the same way.
 */
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { ApiError, errorMessageKey, RateLimitError } from './api-client';
import { notify } from './notify';

/** Options of {@link showMutationError}. */
export interface MutationErrorOptions {
  /** Bold first line, naming what failed ("The role was not deleted"); "That did not work" by default. */
  title?: string;
  /**
   * A sentence of the caller's own for some failures (the administrators' owner rule on a 403…); answer
   * undefined to leave the failure to the default wording.
   */
  explain?: (error: ApiError) => string | undefined;
  /** The form shows the server's body-field details on its fields; the toast then leaves them out. */
  fieldsOnForm?: boolean;
}

/** Whether a key is in the catalogue (a missing key translates to itself, so the empty default tells). */
function hasKey(t: TFunction, key: string): boolean {
  return t(key, { defaultValue: '' }) !== '';
}

/**
 * The message of a failed write: the caller's own sentence when it has one, else the first server detail when
 * it is a known reason about the object (`validation.roleInUse` on `params.id`…), else the translated
 * `error.{errcode}` (spec §8). With `fieldsOnForm`, details on body fields are shown on the form's fields, so the
 * toast does not repeat them.
 */
export function mutationErrorMessage(
  t: TFunction,
  error: unknown,
  options: MutationErrorOptions = {},
): string {
  const own = error instanceof ApiError ? options.explain?.(error) : undefined;
  if (own) return own;
  const detail =
    error instanceof ApiError
      ? error.details?.find((entry) => !(options.fieldsOnForm && entry.path.startsWith('body.')))
      : undefined;
  if (detail && hasKey(t, detail.message)) return t(detail.message, { ...detail.values });
  return t(errorMessageKey(error), { defaultValue: t('error.genericFetchErrorText') });
}

/**
 * The error toast of a write. A rate-limited call was toasted by the API client already, so it stays quiet
 * here; the toast has the id of the API client's error toasts, so one failure never shows twice.
 */
export function showMutationError(t: TFunction, error: unknown, options: MutationErrorOptions = {}): void {
  if (error instanceof RateLimitError) return;
  notify(mutationErrorMessage(t, error, options), {
    color: 'red',
    title: options.title ?? t('common.toast.failed', 'That did not work'),
    id: `error:${errorMessageKey(error)}`,
  });
}

/** An undo offered on a success toast: its button label (translated) and what it does. */
export interface UndoOffer {
  label: string;
  onUndo: () => void;
}

/** How long a toast that offers an undo stays: long enough to read it and reach the button. */
export const UNDO_TOAST_MS = 10_000;

/**
 * The toast of a write that worked; the message is already translated. With `undo`, the toast carries an undo
 * button (it closes the toast) and stays {@link UNDO_TOAST_MS}.
 */
export function showSuccess(message: string, undo?: UndoOffer): void {
  if (!undo) {
    notify(message, { color: 'green' });
    return;
  }
  const id = `undo:${Date.now()}:${Math.random()}`;
  notify(
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <span>{message}</span>
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => {
          notifications.hide(id);
          undo.onUndo();
        }}
      >
        {undo.label}
      </Button>
    </Group>,
    { color: 'green', id, autoClose: UNDO_TOAST_MS },
  );
}
