import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { useMesh } from '../api/mesh';
import { MeshForm } from '../components/mesh-form';
import { MeshTopology } from '../components/mesh-topology';

/**
 * `/devices/spa/mesh`: the private-access mesh — which site gateways reach each other's networks over
 * gateway-to-gateway WireGuard tunnels, the hub cybernode the devices reach them through, and the users and
 * groups whose devices get the sites' networks. The settings above (saved with `gateways:update`), the peers
 * they make below, read-only.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canEdit = useCan('gateways:update');
  const query = useMesh(tenant);

  const renderBody = () => {
    if (query.isPending) return <LoadingState label={t('privateAccess.mesh.loading', 'Loading the mesh…')} />;
    if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    return (
      <Stack gap="lg">
        <MeshForm mesh={query.data} canEdit={canEdit} />
        <MeshTopology mesh={query.data} />
      </Stack>
    );
  };

  return (
    <>
      <PageHeader title={t('privateAccess.mesh.title', 'Private access mesh')} />
      <Stack gap="md">
        <Stack gap={6} maw={820}>
          <Text size="sm" c="dimmed">
            {t(
              'privateAccess.mesh.intro',
              'A mesh joins the networks of your sites: the site gateways you choose reach each other’s networks over WireGuard tunnels from gateway to gateway — directly when one of the two has a public endpoint, through the hub when neither has.',
            )}
          </Text>
          <Text size="sm" c="dimmed">
            {t(
              'privateAccess.mesh.introHub',
              'With a hub cybernode, the devices reach the mesh sites through it, and each site’s ZTNA firewall still knows whose device it is. The members — the users and groups you choose — get the sites’ networks on their devices; everybody else keeps only what private services and ZTNA rules grant them.',
            )}
          </Text>
        </Stack>
        {!canEdit ? (
          <Alert color="gray" variant="light">
            {t('privateAccess.mesh.readOnly', 'Your role may view the mesh but not change it.')}
          </Alert>
        ) : null}
        {renderBody()}
      </Stack>
    </>
  );
}
