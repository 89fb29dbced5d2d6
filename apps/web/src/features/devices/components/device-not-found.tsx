import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';

/** The "Device not found" state of the device page, with the way back to the list. */
export function DeviceNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('devices.notFound.title', 'Device not found')} />
      <EmptyState
        message={t(
          'devices.notFound.message',
          'There is no device with this address in this tenant. It may have been deleted, or the link is incomplete.',
        )}
        action={
          <Button component={Link} to="/devices/list" variant="default">
            {t('devices.backToList', 'Back to devices')}
          </Button>
        }
      />
    </>
  );
}
