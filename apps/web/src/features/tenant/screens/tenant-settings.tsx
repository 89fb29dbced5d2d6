import { Alert, Button, Card, ColorInput, Grid, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type Palette, type Tenant, TenantUpdate, type Theme } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PalettePicker, ThemePicker } from '../../../components/ui/appearance-pickers';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useSession } from '../../../lib/auth';
import { schemaFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { PALETTE_COLORS } from '../../../lib/theme';
import { primaryUserQuery, tenantQuery, useUpdateTenant } from '../api/tenant-queries';

interface TenantFormValues {
  displayName: string;
  themevalue: Theme;
  palette: Palette;
  /** Empty means "the palette's primary colour". */
  primaryColor: string;
}

function toValues(tenant: Tenant): TenantFormValues {
  return {
    displayName: tenant.displayName,
    themevalue: tenant.themevalue,
    palette: tenant.palette,
    primaryColor: tenant.primaryColor ?? '',
  };
}

function toBody(values: TenantFormValues): TenantUpdate {
  return {
    displayName: values.displayName.trim(),
    themevalue: values.themevalue,
    palette: values.palette,
    primaryColor: values.primaryColor.trim() === '' ? null : values.primaryColor.trim().toLowerCase(),
  };
}

/** The tenant's primary user (its first owner); only known for the signed-in user's own tenant. */
function PrimaryUserCard() {
  const { t } = useTranslation();
  const { session } = useSession();
  const query = useQuery({ ...primaryUserQuery(session?.tenant ?? ''), meta: { isSilent: true } });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="primary-user-title">
      <Title order={2} size="h4" id="primary-user-title" mb="sm">
        {t('tenant.primaryUser.title', 'Primary user')}
      </Title>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <Text size="sm" c="dimmed">
          {t('tenant.primaryUser.unavailable', 'The primary user could not be loaded.')}
        </Text>
      ) : (
        <Stack gap={2}>
          <Text fw={500}>{`${query.data.firstname} ${query.data.lastname}`.trim()}</Text>
          <Text size="sm" c="dimmed">
            {query.data.email}
          </Text>
        </Stack>
      )}
    </Card>
  );
}

/** The form, mounted once the tenant has loaded so its initial values are the saved ones. */
function TenantSettingsForm({ tenant, canEdit }: { tenant: Tenant; canEdit: boolean }) {
  const { t } = useTranslation();
  const { refresh } = useSession();
  const update = useUpdateTenant(tenant.name);
  const form = useForm<TenantFormValues>({
    mode: 'controlled',
    initialValues: toValues(tenant),
    validate: (values) => schemaFieldErrors(TenantUpdate, toBody(values), t),
  });

  // A save elsewhere (or a refetch) moves the saved state; keep it as the form's reset point.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run only when the saved version changes.
  useEffect(() => {
    if (!form.isDirty()) form.setValues(toValues(tenant));
    form.resetDirty(toValues(tenant));
  }, [tenant.updatedAt]);

  function handleSubmit(values: TenantFormValues) {
    update.mutate(toBody(values), {
      onSuccess: () => {
        showSuccess(t('tenant.settings.saved', 'Tenant settings saved.'));
        // The session carries the tenant's theme and palette.
        void refresh();
      },
      onError: (error) => {
        form.setErrors(serverFieldErrors(error, t));
        showMutationError(t, error, {
          title: t('tenant.settings.saveFailed', 'The tenant settings were not saved.'),
          fieldsOnForm: true,
        });
      },
    });
  }

  const palettePrimary = PALETTE_COLORS[form.values.palette].primary;
  return (
    <form onSubmit={form.onSubmit(handleSubmit)} noValidate aria-labelledby="tenant-settings-form-title">
      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" id="tenant-settings-form-title" mb="md">
          {t('tenant.settings.formTitle', 'Name and look')}
        </Title>
        <fieldset disabled={!canEdit || update.isPending} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="lg">
            <TextInput
              label={t('tenant.fields.displayName', 'Display name')}
              description={t('tenant.fields.displayNameHint', 'Shown in the header and on invitations.')}
              required
              maxLength={100}
              {...form.getInputProps('displayName')}
            />
            <ThemePicker
              label={t('tenant.fields.theme', 'Default theme')}
              value={form.values.themevalue}
              onChange={(value) => form.setFieldValue('themevalue', value)}
            />
            <PalettePicker
              label={t('tenant.fields.palette', 'Default palette')}
              value={form.values.palette}
              onChange={(value) => form.setFieldValue('palette', value)}
            />
            <ColorInput
              label={t('tenant.fields.primaryColor', 'Primary colour')}
              description={t(
                'tenant.fields.primaryColorHint',
                'Leave empty to use the palette colour ({{color}}).',
                {
                  color: palettePrimary,
                },
              )}
              placeholder={palettePrimary}
              format="hex"
              swatches={Object.values(PALETTE_COLORS).map((palette) => palette.primary)}
              {...form.getInputProps('primaryColor')}
            />
          </Stack>
        </fieldset>
        {canEdit ? (
          <Group justify="flex-end" mt="xl">
            <Button
              variant="default"
              onClick={() => form.reset()}
              disabled={!form.isDirty() || update.isPending}
            >
              {t('common.reset', 'Reset')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {update.isPending ? t('common.saving', 'Saving…') : t('common.save', 'Save')}
            </Button>
          </Group>
        ) : null}
      </Card>
    </form>
  );
}

/** `/tenant/:id/settings` (id = tenant name): display name, default theme, palette and primary colour. */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { session } = useSession();
  const canEdit = useCan('tenant:update');
  const query = useQuery(tenantQuery(id));

  return (
    <>
      <PageHeader
        title={t('tenant.settings.title', 'Tenant settings')}
        description={query.data ? query.data.displayName : id}
      />
      {!canEdit ? (
        <Alert color="gray" variant="light" mb="md">
          {t('tenant.settings.readOnly', 'Your role may view these settings but not change them.')}
        </Alert>
      ) : null}
      {query.isPending ? (
        <LoadingState label={t('tenant.loading', 'Loading the tenant…')} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <TenantSettingsForm tenant={query.data} canEdit={canEdit} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            {id === session?.tenant ? <PrimaryUserCard /> : null}
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
