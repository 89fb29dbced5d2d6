import type { TFunction } from 'i18next';
import { errorMessageKey, RateLimitError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';

/**
 * The default error toast of the devices mutations: the translated `error.{errcode}` (spec §8). A rate-limited
 * call was already toasted by the API client, so it stays quiet here.
 */
export function showMutationError(t: TFunction, error: unknown): void {
  if (error instanceof RateLimitError) return;
  const key = errorMessageKey(error);
  notify(t(key, { defaultValue: t('error.genericFetchErrorText') }), {
    color: 'red',
    title: t('devices.toast.failed', 'That did not work'),
    // The same id as the API client's toasts, so one failure never shows twice.
    id: `error:${key}`,
  });
}

/** A short success toast; the message is already translated. */
export function showSuccess(message: string): void {
  notify(message, { color: 'green' });
}
