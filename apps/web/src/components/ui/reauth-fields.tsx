import { PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { Reauthentication } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import type { InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';

/** What a form keeps of the proof a long-lived credential asks for. */
export interface ReauthValues {
  password: string;
  code: string;
}

export const EMPTY_REAUTH: ReauthValues = { password: '', code: '' };

/** The proof as the API takes it: the code when one is typed, else the password, else nothing. */
export function reauthInput(values: ReauthValues): Reauthentication | undefined {
  if (values.code.trim()) return { code: values.code.trim() };
  if (values.password) return { password: values.password };
  return undefined;
}

/** The form's own check: one of the two is needed (the server checks it is right). */
export function reauthError(values: ReauthValues, t: TFunction): string | null {
  return reauthInput(values)
    ? null
    : t('validation.reauthRequired', 'Enter your password or a code from your authenticator app.');
}

type InputProps = Partial<InputHTMLAttributes<HTMLInputElement>> & { error?: unknown };

/** Props of {@link ReauthFields}. */
export interface ReauthFieldsProps {
  /** The password field's props (`form.getInputProps('reauth.password')`). */
  password: InputProps;
  /** The code field's props; shown only when the account uses TOTP. */
  code: InputProps;
  hasTotp: boolean;
}

/**
 * Asks the signed-in person to confirm who they are before making a credential that outlives the session by
 * far (an API token or embed link past 30 days): their password, or a code from their authenticator app.
 */
export function ReauthFields({ password, code, hasTotp }: ReauthFieldsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text size="sm">
        {t(
          'reauth.text',
          'It lasts longer than 30 days: confirm it is you. Nobody who finds your session open can make one.',
        )}
      </Text>
      <PasswordInput
        label={t('reauth.password', 'Your password')}
        autoComplete="current-password"
        {...(password as object)}
        error={password.error as string | undefined}
      />
      {hasTotp ? (
        <TextInput
          label={t('reauth.code', 'Or a code from your authenticator app')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...(code as object)}
          error={code.error as string | undefined}
        />
      ) : null}
    </Stack>
  );
}
