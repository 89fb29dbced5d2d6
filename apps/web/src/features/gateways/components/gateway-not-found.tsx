import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';

/** True when a gateway look-up failed because there is no such gateway (unknown id, or not an id at all). */
export function isGatewayMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** The "Gateway not found" state of the gateway screen, with the way back to the list. */
export function GatewayNotFound() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('gateways.notFound.title', 'Gateway not found')} />
      <EmptyState
        message={t(
          'gateways.notFound.message',
          'There is no gateway with this address in this tenant. It may never have existed, or the link is incomplete.',
        )}
        action={
          <Button component={Link} to="/cybernodes/list" variant="default">
            {t('gateways.backToList', 'Back to gateways')}
          </Button>
        }
      />
    </>
  );
}
