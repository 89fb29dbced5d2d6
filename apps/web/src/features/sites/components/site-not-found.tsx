import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';

/** The "Site gateway not found" state of the copy screen (an unknown gateway, or an address that is no screen). */
export function SiteNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('sites.notFound.title', 'Site gateway not found')} />
      <EmptyState
        message={t(
          'sites.notFound.message',
          'There is no site gateway with this address in this tenant. It may have been deleted, or the link is incomplete.',
        )}
        action={
          <Button component={Link} to="/devices/list" variant="default">
            {t('sites.backToDevices', 'Back to devices')}
          </Button>
        }
      />
    </>
  );
}
