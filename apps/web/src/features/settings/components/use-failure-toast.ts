import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';

/** A red toast saying what failed (`title`) and why, in the reader's language. */
export function useFailureToast() {
  const { t } = useTranslation();
  return (error: unknown, title: string) =>
    notify(t(errorMessageKey(error), t('error.genericFetchErrorText')), { color: 'red', title });
}
