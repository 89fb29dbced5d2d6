import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { zodValidator } from '../../../lib/form-errors';
import { AuthCard } from '../components/auth-card';

/** The code from the verification e-mail: its transaction id, as long as the server's `TransParams`. */
const CodeForm = z.object({
  code: z
    .string()
    .trim()
    .min(1, { message: 'validation.required' })
    .max(200, { message: 'validation.tooLong' }),
});

/** `/verify/email-verification`: type in the code from the verification e-mail; it opens `/verify/{code}`. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: zodValidator(CodeForm, t),
  });

  const handleSubmit = form.onSubmit(({ code }) => {
    navigate(`/verify/${encodeURIComponent(code.trim())}`);
  });

  return (
    <AuthCard
      title={t('auth.verifyCode.title', 'Enter your verification code')}
      description={t('auth.verifyCode.description', 'The code is in the verification e-mail we sent you.')}
      footer={
        <>
          <Anchor component={Link} to="/email-verification" size="sm">
            {t('auth.verifyCode.resend', 'Send the verification e-mail again')}
          </Anchor>
          <Anchor component={Link} to="/sign-in" size="sm">
            {t('auth.verifyCode.signIn', 'Back to sign in')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('auth.verifyCode.code', 'Verification code')}
            autoComplete="one-time-code"
            spellCheck={false}
            required
            withAsterisk={false}
            {...form.getInputProps('code')}
          />
          <Button type="submit" fullWidth>
            {t('auth.verifyCode.submit', 'Verify')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
