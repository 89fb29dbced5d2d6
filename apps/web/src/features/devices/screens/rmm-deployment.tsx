import { Button, Stack, Title } from '@mantine/core';
import type { DeploymentKey } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import type { CreatedKey } from '../api/create-deployment-key';
import { useDeploymentKeys } from '../api/get-deployment-keys';
import { useRevokeDeploymentKey } from '../api/revoke-deployment-key';
import { CreateKeyModal } from '../components/create-key-modal';
import { DeploymentInstructions } from '../components/deployment-instructions';
import { DeploymentKeysTable } from '../components/deployment-keys-table';
import { FreshKeyPanel, useFreshKey } from '../components/fresh-key-panel';

/**
 * `/users/rmm-deployment`: reusable deployment keys for RMM/MDM roll-outs (Intune, Jamf, scripts): list, create
 * (token shown once), revoke, and install instructions with the new key filled in.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canCreate = useCan('devices:create');
  const canDelete = useCan('devices:delete');
  const keys = useDeploymentKeys(tenant);

  const [isCreating, setIsCreating] = useState(false);
  const [hasJustCreated, setHasJustCreated] = useState(false);
  const { fresh, keep, hide } = useFreshKey(tenant);
  const [toRevoke, setToRevoke] = useState<DeploymentKey | null>(null);

  const revoke = useRevokeDeploymentKey(tenant, {
    onSuccess: () => {
      setToRevoke(null);
      showSuccess(t('devices.keys.revokeDone', 'Key revoked.'));
    },
  });

  const handleCreated = (created: CreatedKey) => {
    setIsCreating(false);
    setHasJustCreated(true);
    keep(created);
  };

  const renderKeys = () => {
    if (keys.isPending) return <LoadingState label={t('devices.keys.loading', 'Loading deployment keys…')} />;
    if (keys.isError && !keys.data)
      return <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
    return (
      <DeploymentKeysTable
        keys={keys.data}
        isFetching={keys.isFetching}
        {...(canDelete ? { onRevoke: setToRevoke } : {})}
      />
    );
  };

  return (
    <>
      <PageHeader
        title={t('devices.rmm.title', 'RMM deployment')}
        description={t(
          'devices.rmm.description',
          'Deployment keys let Intune, Jamf or any RMM tool install the client on many devices at once. Devices are assigned to the user the client reports.',
        )}
        actions={
          canCreate ? (
            <Button
              onClick={() => {
                setHasJustCreated(false);
                setIsCreating(true);
              }}
            >
              {t('devices.keys.create', 'Add key')}
            </Button>
          ) : null
        }
      />
      <Stack gap="xl">
        {fresh ? (
          <FreshKeyPanel
            key={fresh.token}
            headingId="fresh-key-title"
            token={fresh.token}
            title={t('devices.keys.fresh.title', 'Key “{{name}}” created: copy it now', { name: fresh.name })}
            warning={t(
              'devices.keys.fresh.warning',
              'This is the only time the key is shown. It is filled into the instructions below until you leave this page; after that only its prefix is listed.',
            )}
            tokenLabel={t('devices.keys.fresh.token', 'Deployment key')}
            copyLabel={t('devices.keys.fresh.copy', 'Copy key')}
            hideLabel={t('devices.keys.fresh.hide', 'I have stored it, hide the key')}
            gap="sm"
            onHide={hide}
          />
        ) : null}
        <Stack gap="sm" component="section" aria-labelledby="deployment-keys-title">
          <Title order={2} size="h3" id="deployment-keys-title">
            {t('devices.keys.title', 'Deployment keys')}
          </Title>
          {renderKeys()}
        </Stack>
        <DeploymentInstructions
          origin={window.location.origin}
          token={fresh?.token ?? null}
          {...(fresh ? { keyName: fresh.name } : {})}
        />
      </Stack>
      {canCreate ? (
        <CreateKeyModal
          opened={isCreating}
          tenant={tenant}
          // A new key moves the focus to its token instead.
          returnFocus={!hasJustCreated}
          onClose={() => setIsCreating(false)}
          onCreated={handleCreated}
        />
      ) : null}
      <ConfirmModal
        isDestructive
        opened={toRevoke !== null}
        title={t('devices.keys.revokeTitle', 'Revoke deployment key?')}
        message={t(
          'devices.keys.revokeMessage',
          'Installers that carry “{{name}}” can no longer enrol devices. Devices it already enrolled stay. This cannot be undone.',
          { name: toRevoke?.name ?? '' },
        )}
        confirmLabel={t('devices.keys.revoke', 'Revoke')}
        isBusy={revoke.isPending}
        onClose={() => setToRevoke(null)}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id)}
      />
    </>
  );
}
