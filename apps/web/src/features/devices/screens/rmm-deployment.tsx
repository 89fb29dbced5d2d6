import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { DeploymentKey } from '@palisade/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ui/confirm-modal';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { showSuccess } from '../../../lib/mutation-toast';
import type { CreatedKey } from '../api/create-deployment-key';
import { useDeploymentKeys } from '../api/get-deployment-keys';
import { useRevokeDeploymentKey } from '../api/revoke-deployment-key';
import { CopyField } from '../components/copy-field';
import { CreateKeyModal } from '../components/create-key-modal';
import { DeploymentInstructions } from '../components/deployment-instructions';
import { DeploymentKeysTable } from '../components/deployment-keys-table';

/** A key just created, with its token: kept in this screen only, never in the query cache. */
interface FreshKey {
  tenant: string;
  name: string;
  token: string;
}

/** The new key's token, shown once with a warning, a copy button and a way to put it away. */
function FreshKeyPanel({ fresh, onHide }: { fresh: FreshKey; onHide: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The dialog that created the key has closed: bring the reader here, where the token is.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <Paper
      component="section"
      aria-labelledby="fresh-key-title"
      withBorder
      p="md"
      radius="sm"
      bg="var(--mantine-color-orange-light)"
      style={{ borderColor: 'var(--mantine-color-orange-outline)' }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="fresh-key-title" ref={headingRef} tabIndex={-1}>
          {t('devices.keys.fresh.title', 'Key “{{name}}” created: copy it now', { name: fresh.name })}
        </Title>
        <Text size="sm">
          {t(
            'devices.keys.fresh.warning',
            'This is the only time the key is shown. It is filled into the instructions below until you leave this page; after that only its prefix is listed.',
          )}
        </Text>
        <CopyField
          label={t('devices.keys.fresh.token', 'Deployment key')}
          value={fresh.token}
          copyLabel={t('devices.keys.fresh.copy', 'Copy key')}
        />
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={onHide}>
            {t('devices.keys.fresh.hide', 'I have stored it, hide the key')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

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
  const [freshKey, setFreshKey] = useState<FreshKey | null>(null);
  const [toRevoke, setToRevoke] = useState<DeploymentKey | null>(null);
  // A key of another tenant never fills this tenant's commands.
  const fresh = freshKey?.tenant === tenant ? freshKey : null;

  const revoke = useRevokeDeploymentKey(tenant, {
    onSuccess: () => {
      setToRevoke(null);
      showSuccess(t('devices.keys.revokeDone', 'Key revoked.'));
    },
  });

  const handleCreated = (created: CreatedKey) => {
    setIsCreating(false);
    setHasJustCreated(true);
    setFreshKey({ tenant, name: created.key.name, token: created.token });
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
        {fresh ? <FreshKeyPanel key={fresh.token} fresh={fresh} onHide={() => setFreshKey(null)} /> : null}
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
