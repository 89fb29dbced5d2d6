import { Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { FEATURE_FLAGS, type FeatureFlag, type ManagedTenant } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { featureDescription, featureLabel } from '../../../lib/flag-labels';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { tenantFeaturesQuery, useUpdateTenantFeatures } from '../api/tenant-features';

/** Props of {@link TenantFeaturesModal}. */
export interface TenantFeaturesModalProps {
  /** The managed tenant whose features are shown; the dialog is open while one is given. */
  target: ManagedTenant | null;
  /** The console's own tenant (the partner's or the platform's). */
  tenant: string;
  /** Whether the console's user may change them (`tenant:update`); otherwise the switches only show them. */
  canEdit: boolean;
  onClose: () => void;
}

/**
 * The feature flags of one managed tenant (spec §2 tabs gated per tenant): a switch per flag with what it
 * includes. Saved together; a tenant without changes follows the defaults.
 */
export function TenantFeaturesModal({ target, tenant, canEdit, onClose }: TenantFeaturesModalProps) {
  const { t } = useTranslation();
  const query = useQuery({ ...tenantFeaturesQuery(tenant, target?.id ?? ''), enabled: target !== null });
  const update = useUpdateTenantFeatures(tenant);
  const [draft, setDraft] = useState<Partial<Record<FeatureFlag, boolean>>>({});
  const targetId = target?.id;
  // Each tenant starts from its saved flags.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another tenant is chosen, not on each render.
  useEffect(() => {
    setDraft({});
  }, [targetId]);

  const saved = query.data?.features;
  const entitled = query.data?.entitled;
  const value = (flag: FeatureFlag) => draft[flag] ?? saved?.[flag] ?? false;
  // A flag the subscription does not pay for is off whatever its switch says: shown off and not to be changed.
  const isEntitled = (flag: FeatureFlag) => entitled?.includes(flag) ?? false;
  const changes = saved
    ? Object.fromEntries(
        FEATURE_FLAGS.filter((flag) => draft[flag] !== undefined && draft[flag] !== saved[flag]).map(
          (flag) => [flag, draft[flag]],
        ),
      )
    : {};
  const hasChanges = Object.keys(changes).length > 0;

  const handleClose = () => {
    if (update.isPending) return;
    update.reset();
    setDraft({});
    onClose();
  };

  const save = () => {
    if (!target) return;
    update.mutate(
      { id: target.id, name: target.name, features: changes },
      {
        onSuccess: () => {
          showSuccess(
            t('partners.features.saved', 'The features of {{name}} are saved.', { name: target.displayName }),
          );
          setDraft({});
          onClose();
        },
        onError: (error) =>
          showMutationError(t, error, {
            title: t('partners.features.failed', 'The features were not saved'),
          }),
      },
    );
  };

  return (
    <Modal
      opened={target !== null}
      onClose={handleClose}
      title={t('partners.features.title', 'Features of {{name}}', { name: target?.displayName ?? '' })}
      size="lg"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t(
            'partners.features.intro',
            'What this workspace includes. A feature turned off disappears from its navigation and its server refuses it.',
          )}
        </Text>
        {query.isPending ? (
          <LoadingState />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <Stack gap="sm">
            {FEATURE_FLAGS.map((flag) => (
              <Switch
                key={flag}
                label={featureLabel(t, flag)}
                description={
                  isEntitled(flag)
                    ? featureDescription(t, flag)
                    : `${featureDescription(t, flag)} ${t(
                        'partners.features.notEntitled',
                        'Not in this workspace’s subscription: it stays off until the subscription includes it.',
                      )}`
                }
                checked={isEntitled(flag) && value(flag)}
                disabled={!canEdit || update.isPending || !isEntitled(flag)}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setDraft((current) => ({ ...current, [flag]: checked }));
                }}
              />
            ))}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={handleClose} disabled={update.isPending}>
            {canEdit ? t('common.cancel', 'Cancel') : t('common.close', 'Close')}
          </Button>
          {canEdit ? (
            <Button onClick={save} loading={update.isPending} disabled={!hasChanges}>
              {t('partners.features.save', 'Save features')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
