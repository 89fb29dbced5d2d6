import { Button, Card, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  LOCALES,
  type Locale,
  PALETTES,
  type Palette,
  ProfileInput,
  type Session,
  THEMES,
  type Theme,
} from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { usePaletteLabels, useThemeLabels } from '../../../components/ui/appearance-pickers';
import { schemaFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { changeLanguage, currentLocale, LANGUAGE_NAMES } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useUpdateProfile } from '../api/profile';
import { useFailureToast } from './use-failure-toast';

/** The select value that stands for "no choice of my own: use the tenant's". */
const TENANT_DEFAULT = '';

interface ProfileValues {
  firstname: string;
  lastname: string;
  language: Locale;
  theme: Theme | typeof TENANT_DEFAULT;
  palette: Palette | typeof TENANT_DEFAULT;
}

/** The profile card: name, language, and the look (theme and palette, or the tenant's). */
export function ProfileSection({ session }: { session: Session }) {
  const { t } = useTranslation();
  const themes = useThemeLabels();
  const palettes = usePaletteLabels();
  const updateProfile = useUpdateProfile({ isSilent: true });
  const showFailure = useFailureToast();
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: {
      firstname: session.firstname,
      lastname: session.lastname,
      language: session.language ?? currentLocale(),
      theme: session.theme ?? TENANT_DEFAULT,
      palette: session.palette ?? TENANT_DEFAULT,
    },
    validate: (values) => schemaFieldErrors(ProfileInput, toProfile(values), t),
  });

  function toProfile(values: ProfileValues): ProfileInput {
    return {
      firstname: values.firstname.trim(),
      lastname: values.lastname.trim(),
      language: values.language,
      theme: values.theme || null,
      palette: values.palette || null,
    };
  }

  function handleSubmit(values: ProfileValues) {
    const profile = toProfile(values);
    updateProfile.mutate(profile, {
      onSuccess: () => {
        if (profile.language) void changeLanguage(profile.language);
        form.resetDirty();
        notify(t('settings.profile.saved', 'Your profile was saved.'), { color: 'green' });
      },
      onError: (error) => {
        form.setErrors(serverFieldErrors(error, t));
        showFailure(error, t('settings.profile.saveFailed', 'Your profile was not saved.'));
      },
    });
  }

  const themeOptions = [
    {
      value: TENANT_DEFAULT,
      label: t('settings.profile.tenantDefault', 'Tenant default ({{name}})', {
        name: themes[session.tenantTheme],
      }),
    },
    ...THEMES.map((theme) => ({ value: theme, label: themes[theme] })),
  ];
  const paletteOptions = [
    {
      value: TENANT_DEFAULT,
      label: t('settings.profile.tenantDefault', 'Tenant default ({{name}})', {
        name: palettes[session.tenantPalette],
      }),
    },
    ...PALETTES.map((palette) => ({ value: palette, label: palettes[palette] })),
  ];

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="profile-title">
      <Title order={2} size="h4" id="profile-title" mb="md">
        {t('settings.profile.title', 'Profile')}
      </Title>
      <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('settings.profile.firstname', 'First name')}
              required
              autoComplete="given-name"
              maxLength={100}
              {...form.getInputProps('firstname')}
            />
            <TextInput
              label={t('settings.profile.lastname', 'Last name')}
              required
              autoComplete="family-name"
              maxLength={100}
              {...form.getInputProps('lastname')}
            />
          </SimpleGrid>
          <Select
            label={t('settings.profile.language', 'Language')}
            data={LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale] }))}
            allowDeselect={false}
            {...form.getInputProps('language')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('theme.theme', 'Theme')}
              data={themeOptions}
              allowDeselect={false}
              {...form.getInputProps('theme')}
            />
            <Select
              label={t('theme.palette', 'Palette')}
              data={paletteOptions}
              allowDeselect={false}
              {...form.getInputProps('palette')}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={updateProfile.isPending}>
              {t('settings.profile.save', 'Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
