import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';

/** True when a group look-up failed because there is no such group (unknown id, or not an id at all). */
export function isGroupMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** The link back to the groups list. */
export function BackToGroups() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/users/groups" variant="default">
      {t('groups.backToList', 'Back to groups')}
    </Button>
  );
}

/** The "Group not found" state of the detail and copy screens. */
export function GroupNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('groups.notFound.title', 'Group not found')} />
      <EmptyState
        message={t('groups.notFound.message', 'This group does not exist or was deleted.')}
        action={<BackToGroups />}
      />
    </>
  );
}

/** Shown in place of a form the signed-in role may not use (the server refuses it as well). */
export function NotAllowed() {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" title={t('groups.notAllowed.title', 'Not available')}>
      {t('error.3', 'Your role does not allow this.')}
    </Alert>
  );
}
