import {
  Box,
  Button,
  ColorInput,
  FileButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  LOGO_TYPES,
  MAX_LOGO_BYTES,
  type PartnerSettings,
  PartnerSettingsUpdate as PartnerSettingsSchema,
  type PartnerSettingsUpdate,
} from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, QueryState } from '../../../components/ui/query-state';
import { useSession } from '../../../lib/auth';
import { useLostSession } from '../../../lib/file-request';
import { serverFieldErrors, zodValidator } from '../../../lib/form-errors';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import {
  useDeletePartnerLogo,
  usePartnerSettings,
  useUpdatePartnerSettings,
  useUploadPartnerLogo,
} from '../api/partner-settings';

/** The form's values: every field a string, empty for "not given". */
interface FormValues {
  displayName: string;
  primaryColor: string;
  accentColor: string;
  email: string;
  phone: string;
  url: string;
  hours: string;
}

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

function toValues(settings: PartnerSettings): FormValues {
  return {
    displayName: settings.displayName,
    primaryColor: settings.primaryColor ?? '',
    accentColor: settings.accentColor ?? '',
    email: settings.support.email ?? '',
    phone: settings.support.phone ?? '',
    url: settings.support.url ?? '',
    hours: settings.support.hours ?? '',
  };
}

function toBody(values: FormValues): PartnerSettingsUpdate {
  return {
    displayName: values.displayName,
    primaryColor: blankToNull(values.primaryColor),
    accentColor: blankToNull(values.accentColor),
    support: {
      email: blankToNull(values.email),
      phone: blankToNull(values.phone),
      url: blankToNull(values.url),
      hours: blankToNull(values.hours),
    },
  };
}

/** The form field of each path of the contract (`support.email` → `email`). */
const fieldOf = (path: string) => path.replace(/^support\./, '');

function formErrors(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([path, message]) => [fieldOf(path), message]));
}

/**
 * What the browser can tell of a logo file before sending it: a PNG, JPEG or WebP of at most 256 kB. The server
 * checks its bytes too and is the one that decides; this only spares a useless upload.
 */
export function logoFileError(file: File, t: TFunction): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) {
    return t('validation.logoType', 'Choose a PNG, JPEG or WebP image.');
  }
  if (file.size > MAX_LOGO_BYTES) {
    return t('validation.logoTooLarge', 'The image is larger than {{max}} kB.', {
      max: String(MAX_LOGO_BYTES / 1024),
    });
  }
  return null;
}

/** The head of the branded sign-in card, as `/{partner}/sign-in` shows it, from the form's current values. */
function BrandingPreview({ values, logo }: { values: FormValues; logo: string | null }) {
  const { t } = useTranslation();
  const valid = (colour: string) => (/^#[0-9a-fA-F]{6}$/.test(colour) ? colour : undefined);
  const primary = valid(values.primaryColor);
  const accent = valid(values.accentColor) ?? primary;
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" aria-label={t('partners.settings.preview', 'Preview')}>
      <Stack gap="lg">
        <Stack gap="sm">
          <Group gap="sm" wrap="nowrap">
            {logo ? <Image src={logo} alt="" h={40} w="auto" fit="contain" /> : null}
            <Text fw={700} fz="lg" c={primary}>
              {values.displayName}
            </Text>
          </Group>
          {accent ? <Box h={3} bg={accent} style={{ borderRadius: 2 }} aria-hidden /> : null}
        </Stack>
        <Title order={2} size="h3">
          {t('partners.settings.previewTitle', 'Sign in')}
        </Title>
        <Button color={primary} disabled fullWidth>
          {t('partners.settings.previewButton', 'Sign in')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** The logo: the current one, upload (checked in the browser first) and remove. */
function LogoField({ tenant, settings }: { tenant: string; settings: PartnerSettings }) {
  const { t } = useTranslation();
  const onLostSession = useLostSession();
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadPartnerLogo(tenant, onLostSession);
  const remove = useDeletePartnerLogo(tenant);
  const onFile = (file: File | null) => {
    if (!file) return;
    const refused = logoFileError(file, t);
    setError(refused);
    if (refused) return;
    upload.mutate(file, {
      onSuccess: () => showSuccess(t('partners.settings.logoDone', 'The logo was saved.')),
      onError: (failure) => {
        const fields = serverFieldErrors(failure, t);
        if (fields.logo) setError(fields.logo);
        else
          showMutationError(t, failure, {
            title: t('partners.settings.logoFailed', 'The logo was not saved'),
          });
      },
    });
  };
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('partners.settings.logo', 'Logo')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('partners.settings.logoHint', 'PNG, JPEG or WebP, at most {{max}} kB.', {
          max: String(MAX_LOGO_BYTES / 1024),
        })}
      </Text>
      {settings.logo ? (
        <Image
          src={settings.logo}
          alt={t('partners.settings.logoAlt', 'Current logo')}
          h={48}
          w="auto"
          fit="contain"
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('partners.settings.noLogo', 'No logo yet.')}
        </Text>
      )}
      <Group gap="sm">
        <FileButton onChange={onFile} accept={LOGO_TYPES.join(',')}>
          {(props) => (
            <Button {...props} variant="default" loading={upload.isPending}>
              {t('partners.settings.upload', 'Upload logo')}
            </Button>
          )}
        </FileButton>
        {settings.logo ? (
          <Button
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => showSuccess(t('partners.settings.logoRemoved', 'The logo was removed.')),
                onError: (failure) =>
                  showMutationError(t, failure, {
                    title: t('partners.settings.logoFailed', 'The logo was not saved'),
                  }),
              })
            }
          >
            {t('partners.settings.removeLogo', 'Remove logo')}
          </Button>
        ) : null}
      </Group>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

function SettingsForm({ tenant, settings }: { tenant: string; settings: PartnerSettings }) {
  const { t } = useTranslation();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: toValues(settings),
    validate: (values) => formErrors(zodValidator(PartnerSettingsSchema, t, toBody)(values)),
  });
  // A change saved elsewhere (or this form's answer) becomes the form's new starting point.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the stored settings change.
  useEffect(() => {
    form.setInitialValues(toValues(settings));
    form.setValues(toValues(settings));
  }, [settings]);
  const save = useUpdatePartnerSettings(tenant);
  const values = form.getValues();

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <form
        noValidate
        onSubmit={form.onSubmit((submitted) =>
          save.mutate(toBody(submitted), {
            onSuccess: () => showSuccess(t('partners.settings.done', 'The partner settings were saved.')),
            onError: (error) => {
              const fields = formErrors(serverFieldErrors(error, t));
              if (Object.keys(fields).length > 0) form.setErrors(fields);
              else
                showMutationError(t, error, {
                  title: t('partners.settings.failed', 'The partner settings were not saved'),
                });
            },
          }),
        )}
      >
        <Stack gap="md">
          <TextInput
            label={t('partners.settings.displayName', 'Display name')}
            required
            maxLength={100}
            {...form.getInputProps('displayName')}
          />
          <ColorInput
            label={t('partners.settings.primaryColor', 'Primary colour')}
            description={t('partners.settings.colorHint', 'As #rrggbb; empty for the default.')}
            format="hex"
            {...form.getInputProps('primaryColor')}
          />
          <ColorInput
            label={t('partners.settings.accentColor', 'Accent colour')}
            format="hex"
            {...form.getInputProps('accentColor')}
          />
          <Title order={2} size="h4">
            {t('partners.settings.support', 'Support contact')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('partners.settings.supportHint', "Shown to your customers' users in their account menu.")}
          </Text>
          <TextInput
            type="email"
            label={t('partners.settings.email', 'Support e-mail')}
            {...form.getInputProps('email')}
          />
          <TextInput
            type="tel"
            label={t('partners.settings.phone', 'Support phone')}
            {...form.getInputProps('phone')}
          />
          <TextInput
            type="url"
            label={t('partners.settings.url', 'Support website')}
            placeholder="https://"
            {...form.getInputProps('url')}
          />
          <Textarea
            label={t('partners.settings.hours', 'Support hours')}
            autosize
            minRows={2}
            maxLength={200}
            {...form.getInputProps('hours')}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('partners.settings.save', 'Save settings')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Stack gap="lg">
        <LogoField tenant={tenant} settings={settings} />
        <Text size="sm" fw={500}>
          {t('partners.settings.previewLabel', 'Your sign-in page')}
        </Text>
        <BrandingPreview values={values} logo={settings.logo} />
      </Stack>
    </SimpleGrid>
  );
}

/**
 * `/admin-console/settings`: a partner's branding — display name, colours and logo, as its sign-in page
 * `/{partner}/sign-in` shows them (with a live preview) — and the support contact its customers' users see.
 * For the partner's admins (and platform admins opening a partner).
 */
export function Component() {
  const { t } = useTranslation();
  const { session } = useSession();
  const tenant = session?.tenant ?? '';
  const isPartner =
    session?.tenantKind === 'partner' &&
    (session.role === 'partner_admin' || session.role === 'platform_admin');
  const settings = usePartnerSettings(tenant, isPartner);
  const title = t('partners.settings.title', 'Partner settings');
  const back = (
    <Button component={Link} to="/admin-console" variant="default">
      {t('partners.settings.back', 'Partner console')}
    </Button>
  );
  if (!isPartner) {
    return (
      <>
        <PageHeader title={title} actions={back} />
        <EmptyState
          message={t('partners.settings.notAllowed', 'Partner settings are for partner administrators.')}
        />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={title}
        description={t(
          'partners.settings.intro',
          'How your sign-in page looks, and how your customers reach you.',
        )}
        actions={back}
      />
      <QueryState query={settings}>{(data) => <SettingsForm tenant={tenant} settings={data} />}</QueryState>
    </>
  );
}
