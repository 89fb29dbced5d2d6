import type { TFunction } from 'i18next';
import { ApiError, errorMessageKey, RateLimitError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';

/**
 * The error toast of the roles mutations: the first server detail when it names a known reason (such as
 * `validation.roleInUse`), else the translated `error.{errcode}`. A rate-limited call was already toasted by the
 * API client, so it stays quiet here.
 */
export function showMutationError(t: TFunction, error: unknown, title?: string): void {
  if (error instanceof RateLimitError) return;
  const key = errorMessageKey(error);
  const detail = error instanceof ApiError ? error.details?.[0]?.message : undefined;
  const message =
    detail && i18nHas(t, detail) ? t(detail) : t(key, { defaultValue: t('error.genericFetchErrorText') });
  notify(message, {
    color: 'red',
    title: title ?? t('roles.toast.failed', 'That did not work'),
    // The same id as the API client's toasts, so one failure never shows twice.
    id: `error:${key}`,
  });
}

/** Whether a key is in the catalogue (a missing key translates to itself). */
function i18nHas(t: TFunction, key: string): boolean {
  return t(key, { defaultValue: '' }) !== '';
}

/** A short success toast; the message is already translated. */
export function showSuccess(message: string): void {
  notify(message, { color: 'green' });
}
