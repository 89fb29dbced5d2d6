import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Image,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  LOCALES,
  type Locale,
  OtpCode,
  PALETTES,
  type Palette,
  Password,
  type PasswordChangeResult,
  ProfileInput,
  type Session,
  THEMES,
  type Theme,
} from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { usePaletteLabels, useThemeLabels } from '../../../components/ui/appearance-pickers';
import { PageHeader } from '../../../components/ui/page-header';
import { LoadingState } from '../../../components/ui/query-state';
import { errorMessageKey } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth';
import { schemaFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { changeLanguage, currentLocale, LANGUAGE_NAMES } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import {
  useChangePassword,
  useConfirmTotp,
  useDisableTotp,
  useStartTotp,
  useUpdateProfile,
} from '../api/profile';

/** The select value that stands for "no choice of my own: use the tenant's". */
const TENANT_DEFAULT = '';

function useFailureToast() {
  const { t } = useTranslation();
  return (error: unknown, title: string) =>
    notify(t(errorMessageKey(error), t('error.genericFetchErrorText')), { color: 'red', title });
}

interface ProfileValues {
  firstname: string;
  lastname: string;
  language: Locale;
  theme: Theme | typeof TENANT_DEFAULT;
  palette: Palette | typeof TENANT_DEFAULT;
}

function ProfileSection({ session }: { session: Session }) {
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

interface PasswordValues {
  current: string;
  next: string;
  confirm: string;
  revokeTokens: boolean;
}

const PasswordForm = z
  .object({
    current: z.string().min(1, { message: 'validation.required' }),
    next: Password,
    confirm: z.string(),
  })
  .refine((values) => values.next === values.confirm, {
    path: ['confirm'],
    message: 'validation.passwordsDiffer',
  });

/**
 * The toast after a password change: what else it ended, counted ("2 other sessions were signed out and 1 API
 * token was revoked."); nothing is said of sessions when no other was open.
 */
export function passwordChangedMessage(
  t: TFunction,
  result: PasswordChangeResult,
  hasAskedToRevokeTokens: boolean,
): string {
  const { endedSessions: sessions, revokedTokens: tokens } = result;
  const parts = [t('settings.password.changed', 'Your password was changed.')];
  if (sessions > 0 && tokens > 0) {
    parts.push(
      t('settings.password.signedOutAndRevoked', {
        count: tokens,
        sessions: t('settings.password.signedOutPart', {
          count: sessions,
          defaultValue: '{{count}} other sessions were signed out',
        }),
        defaultValue: '{{sessions}} and {{count}} API tokens were revoked.',
      }),
    );
  } else if (sessions > 0) {
    parts.push(
      t('settings.password.signedOut', {
        count: sessions,
        defaultValue: '{{count}} other sessions were signed out.',
      }),
    );
  } else if (tokens > 0) {
    parts.push(
      t('settings.password.revokedTokens', {
        count: tokens,
        defaultValue: '{{count}} API tokens were revoked.',
      }),
    );
  }
  if (hasAskedToRevokeTokens && tokens === 0) {
    parts.push(t('settings.password.noTokens', 'You had no active API tokens to revoke.'));
  }
  return parts.join(' ');
}

function PasswordSection({ session }: { session: Session }) {
  const { t } = useTranslation();
  const changePassword = useChangePassword();
  const showFailure = useFailureToast();
  // End users connect through the client and have no API tokens.
  const hasTokens = session.usertype !== 0;
  const form = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { current: '', next: '', confirm: '', revokeTokens: false },
    validate: (values) => schemaFieldErrors(PasswordForm, values, t),
  });

  function handleSubmit(values: PasswordValues) {
    const revokeTokens = hasTokens && values.revokeTokens;
    changePassword.mutate(
      { current: values.current, next: values.next, revokeTokens },
      {
        onSuccess: (result) => {
          form.reset();
          notify(passwordChangedMessage(t, result, revokeTokens), { color: 'green' });
        },
        onError: (error) => {
          // A wrong current password or a refused new one shows on its field; anything else as a toast.
          const errors = serverFieldErrors(error, t);
          form.setErrors(errors);
          if (Object.keys(errors).length === 0) {
            showFailure(error, t('settings.password.failed', 'Your password was not changed.'));
          }
        },
      },
    );
  }

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="password-title">
      <Title order={2} size="h4" id="password-title" mb="md">
        {t('settings.password.title', 'Change password')}
      </Title>
      <form onSubmit={form.onSubmit(handleSubmit)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('settings.password.current', 'Current password')}
            required
            autoComplete="current-password"
            {...form.getInputProps('current')}
          />
          <PasswordInput
            label={t('settings.password.next', 'New password')}
            description={t(
              'settings.password.rule',
              'At least 10 characters and hard to guess: not your e-mail address or the workspace name.',
            )}
            required
            autoComplete="new-password"
            {...form.getInputProps('next')}
          />
          <PasswordInput
            label={t('settings.password.confirm', 'Repeat the new password')}
            required
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          {hasTokens ? (
            <Checkbox
              label={t('settings.password.revokeTokens', 'Also revoke all my API tokens')}
              description={t(
                'settings.password.revokeTokensHint',
                'Scripts and automation that use them stop working at once.',
              )}
              {...form.getInputProps('revokeTokens', { type: 'checkbox' })}
            />
          ) : null}
          <Text size="sm" c="dimmed">
            {t(
              'settings.password.sessionsNote',
              'Changing your password signs you out on every other device and browser; you stay signed in here.',
            )}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={changePassword.isPending}>
              {t('settings.password.submit', 'Change password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

const CodeForm = z.object({ code: OtpCode });

/** A six-digit code field with its submit button; shows client and server errors on the field. */
function TotpCodeForm({
  label,
  submitLabel,
  color,
  isPending,
  onSubmit,
}: {
  label: string;
  submitLabel: string;
  color?: string;
  isPending: boolean;
  onSubmit: (code: string, setErrors: (errors: Record<string, string>) => void) => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: (values) => schemaFieldErrors(CodeForm, values, t),
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values.code.trim(), form.setErrors))} noValidate>
      <Group align="flex-start" gap="sm">
        <TextInput
          label={label}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          w={180}
          required
          {...form.getInputProps('code')}
        />
        <Button type="submit" color={color} loading={isPending} mt={25}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

function TotpSection({ session }: { session: Session }) {
  const { t } = useTranslation();
  const startTotp = useStartTotp();
  const confirmTotp = useConfirmTotp();
  const disableTotp = useDisableTotp();
  const showFailure = useFailureToast();
  const [isEnrolling, setIsEnrolling] = useState(false);
  const enrolment = isEnrolling ? startTotp.data : undefined;

  function handleStart() {
    setIsEnrolling(true);
    startTotp.mutate();
  }

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="totp-title">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4" id="totp-title">
          {t('settings.totp.title', 'Two-step sign-in')}
        </Title>
        <Badge color={session.totpEnabled ? 'green' : 'gray'} variant="light">
          {session.totpEnabled ? t('settings.totp.on', 'On') : t('settings.totp.off', 'Off')}
        </Badge>
      </Group>
      {session.totpEnabled ? (
        <Stack gap="md">
          <Text size="sm">
            {t(
              'settings.totp.enabledText',
              'Sign-in asks for a code from your authenticator app. To turn this off, enter a current code.',
            )}
          </Text>
          <TotpCodeForm
            label={t('settings.totp.code', 'Six-digit code')}
            submitLabel={t('settings.totp.disable', 'Turn off')}
            color="red"
            isPending={disableTotp.isPending}
            onSubmit={(code, setErrors) =>
              disableTotp.mutate(code, {
                onSuccess: () =>
                  notify(t('settings.totp.disabled', 'Two-step sign-in is off.'), { color: 'green' }),
                onError: (error) => {
                  setErrors(serverFieldErrors(error, t));
                  showFailure(error, t('settings.totp.disableFailed', 'Two-step sign-in is still on.'));
                },
              })
            }
          />
        </Stack>
      ) : enrolment ? (
        <Stack gap="md">
          <Text size="sm">
            {t(
              'settings.totp.scan',
              'Scan this code with your authenticator app, or enter the secret by hand, then type the six-digit code it shows.',
            )}
          </Text>
          <Group align="flex-start" gap="lg">
            <Image
              src={enrolment.qr}
              alt={t('settings.totp.qrAlt', 'QR code to add Palisade to your authenticator app')}
              w={180}
              h={180}
              fit="contain"
              radius="sm"
              bg="white"
              p={6}
            />
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                {t('settings.totp.secret', 'Secret')}
              </Text>
              <Code fz="sm" style={{ wordBreak: 'break-all' }}>
                {enrolment.secret}
              </Code>
            </Stack>
          </Group>
          <TotpCodeForm
            label={t('settings.totp.code', 'Six-digit code')}
            submitLabel={t('settings.totp.confirm', 'Confirm')}
            isPending={confirmTotp.isPending}
            onSubmit={(code, setErrors) =>
              confirmTotp.mutate(code, {
                onSuccess: () => {
                  setIsEnrolling(false);
                  notify(t('settings.totp.enabled', 'Two-step sign-in is on.'), { color: 'green' });
                },
                onError: (error) => {
                  setErrors(serverFieldErrors(error, t));
                  showFailure(error, t('settings.totp.confirmFailed', 'Two-step sign-in was not turned on.'));
                },
              })
            }
          />
          <Button variant="subtle" onClick={() => setIsEnrolling(false)} style={{ alignSelf: 'flex-start' }}>
            {t('common.cancel', 'Cancel')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="md" align="flex-start">
          <Text size="sm">
            {t(
              'settings.totp.offText',
              'Protect your account with a code from an authenticator app in addition to your password.',
            )}
          </Text>
          {startTotp.isError && isEnrolling ? (
            <Alert color="red" variant="light">
              {t(errorMessageKey(startTotp.error), t('error.genericFetchErrorText'))}
            </Alert>
          ) : null}
          <Button onClick={handleStart} loading={startTotp.isPending}>
            {t('settings.totp.start', 'Set up two-step sign-in')}
          </Button>
        </Stack>
      )}
    </Card>
  );
}

/** `/settings`: the signed-in user's profile and look, password and two-step sign-in. */
export function Component() {
  const { t } = useTranslation();
  const { session } = useSession();
  return (
    <>
      <PageHeader
        title={t('settings.title', 'Settings')}
        description={session ? session.username : undefined}
      />
      {session ? (
        <Stack gap="lg" maw={860}>
          <ProfileSection session={session} />
          <PasswordSection session={session} />
          <TotpSection session={session} />
        </Stack>
      ) : (
        <LoadingState />
      )}
    </>
  );
}
