import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { useCan } from '../../../lib/auth';
import { BackToRoutes, NotAllowed } from '../components/labels';
import { NewRouteForm } from '../components/new-route';
import { EMPTY_ROUTE_FORM } from '../utils/route-policy';

/** `/devices/routes/`: a new route — destination networks sent through a gateway. */
export function Component() {
  const { t } = useTranslation();
  const canCreate = useCan('policies:create');
  return (
    <>
      <PageHeader
        title={t('routes.add.title', 'Add route')}
        description={t(
          'routes.add.description',
          'Devices send traffic to these networks through the gateway. The route is saved as a device policy of its own.',
        )}
        actions={<BackToRoutes />}
      />
      {canCreate ? <NewRouteForm initialValues={EMPTY_ROUTE_FORM} /> : <NotAllowed />}
    </>
  );
}
