import { Alert, Badge, Button, Card, Code, Group, Image, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { OtpCode, type Session } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { errorMessageKey } from '../../../lib/api-client';
import { schemaFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { notify } from '../../../lib/notify';
import { useConfirmTotp, useDisableTotp, useStartTotp } from '../api/profile';
import { useFailureToast } from './use-failure-toast';

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
/** The two-step sign-in card: set it up (QR code, secret, first code), or turn it off with a code. */
export function TotpSection({ session }: { session: Session }) {
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
