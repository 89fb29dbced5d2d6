import type { TFunction } from 'i18next';
import { errorMessageKey, RateLimitError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';

/** The default error toast of the token mutations (a rate-limited call was already toasted by the client). */
export function showTokenError(t: TFunction, error: unknown): void {
  if (error instanceof RateLimitError) return;
  const key = errorMessageKey(error);
  notify(t(key, { defaultValue: t('error.genericFetchErrorText') }), {
    color: 'red',
    title: t('tokens.toast.failed', 'That did not work'),
    id: `error:${key}`,
  });
}
