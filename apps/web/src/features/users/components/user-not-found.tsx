import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';

/** True when a user look-up failed because there is no such user (unknown id, or not an id at all). */
export function isUserMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** The "User not found" state of the detail and copy screens. */
export function UserNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('users.notFound.title', 'User not found')} />
      <EmptyState
        message={t('users.notFound.message', 'This user does not exist or was deleted.')}
        action={
          <Button component={Link} to="/users/list" variant="default">
            {t('users.backToList', 'Back to users')}
          </Button>
        }
      />
    </>
  );
}
