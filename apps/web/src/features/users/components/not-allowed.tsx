import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown in place of a form the signed-in role may not use (the server refuses it as well). */
export function NotAllowed() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t('users.notAllowed.title', 'Not available')}>
      {t('error.3', 'Your role does not allow this.')}
    </Alert>
  );
}
