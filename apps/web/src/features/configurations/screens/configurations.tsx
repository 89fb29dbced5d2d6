import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { CONFIG_FLAG_NAMES, type ConfigFlag } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { configDescription, configLabel } from '../../../lib/flag-labels';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { configurationsQuery, useUpdateConfiguration } from '../api/configurations';

/**
 * `/configurations` (spec §2, §6): the working tenant's configuration flags, one switch each with what it does.
 * Those with `tenant:update` change them (each switch saves at once); others see them.
 */
export function Component() {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canEdit = useCan('tenant:update');
  const query = useQuery(configurationsQuery(tenant));
  const update = useUpdateConfiguration(tenant);

  function change(flag: ConfigFlag, value: boolean) {
    update.mutate(
      { flag, value },
      {
        onSuccess: () =>
          showSuccess(
            value
              ? t('configurations.turnedOn', '{{name}} turned on.', { name: configLabel(t, flag) })
              : t('configurations.turnedOff', '{{name}} turned off.', { name: configLabel(t, flag) }),
          ),
        onError: (error) =>
          showMutationError(t, error, {
            title: t('configurations.saveFailed', 'The configuration was not changed.'),
          }),
      },
    );
  }

  return (
    <Stack>
      <PageHeader
        title={t('configurations.title', 'Configurations')}
        description={t(
          'configurations.description',
          'Settings that apply to everyone working in this workspace.',
        )}
      />
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="configurations-flags">
          <Title order={2} size="h4" id="configurations-flags" mb="md">
            {t('configurations.flagsTitle', 'Configuration flags')}
          </Title>
          {!canEdit ? (
            <Text size="sm" c="dimmed" mb="md">
              {t('configurations.readOnly', 'Your role may look at these settings but not change them.')}
            </Text>
          ) : null}
          <Stack gap="lg">
            {CONFIG_FLAG_NAMES.map((flag) => (
              <Switch
                key={flag}
                label={configLabel(t, flag)}
                description={configDescription(t, flag)}
                checked={query.data.configurations[flag]}
                disabled={!canEdit || update.isPending}
                onChange={(event) => change(flag, event.currentTarget.checked)}
              />
            ))}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
