import type { TFunction } from 'i18next';
import { ApiError, errorMessageKey, RateLimitError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';

/** Errcode of `last_owner`: the last active owner of a tenant cannot be suspended or removed. */
export const LAST_OWNER_ERRCODE = 17;

/** Whether an error is the server's `last_owner` refusal. */
export function isLastOwnerError(error: unknown): boolean {
  return error instanceof ApiError && error.errcode === LAST_OWNER_ERRCODE;
}

/**
 * The error toast of the administrators mutations. A 403 here means the server's owner rule ("only an owner can
 * …"), which gets its own plain sentence; anything else is the translated `error.{errcode}`. A rate-limited
 * call was already toasted by the API client.
 */
export function showAdminError(t: TFunction, error: unknown, title: string): void {
  if (error instanceof RateLimitError) return;
  const key = errorMessageKey(error);
  const message =
    error instanceof ApiError && error.status === 403
      ? t('admins.toast.ownerOnly', 'Only an owner can invite, suspend or remove an owner.')
      : t(key, { defaultValue: t('error.genericFetchErrorText') });
  notify(message, { color: 'red', title, id: `error:${key}` });
}

/** A short success toast; the message is already translated. */
export function showAdminSuccess(message: string): void {
  notify(message, { color: 'green' });
}
