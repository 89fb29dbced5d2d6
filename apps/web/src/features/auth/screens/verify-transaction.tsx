import { Button, Stack } from '@mantine/core';
import type { TransStatus } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { ApiError } from '../../../lib/api-client';
import { useInvitation } from '../api/invitation';
import { useVerifyTransaction } from '../api/verify-transaction';
import { AcceptInvitation } from '../components/accept-invitation';
import { AuthCard } from '../components/auth-card';

/** What a verification came to. */
export type VerificationOutcome = 'verifying' | 'verified' | 'expired' | 'notFound' | 'pending' | 'failed';

/** The outcome of the verify-then-status calls: their answer, or the failure turned into a state. */
export function verificationOutcome(query: {
  isPending: boolean;
  data?: TransStatus;
  error: unknown;
}): VerificationOutcome {
  if (query.isPending) return 'verifying';
  const { data, error } = query;
  if (data) {
    if (data.userstatus === 'verified') return 'verified';
    return data.transstatus === 'expired' ? 'expired' : 'pending';
  }
  if (error instanceof ApiError) {
    if (error.code === 'transaction_expired' || error.status === 410) return 'expired';
    // 400: not even shaped like a transaction id; 404: no such transaction.
    if (error.status === 404 || error.status === 400) return 'notFound';
  }
  return 'failed';
}

/**
 * `/verify/:id`: the link of an e-mail. An administrator invitation asks for a password; anything else is a
 * sign-up's e-mail verification.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const invitation = useInvitation(id);
  if (invitation.isPending) {
    return (
      <AuthCard title={t('auth.verify.verifyingTitle', 'Verifying your e-mail address')}>
        <LoadingState label={t('auth.verify.verifying', 'Verifying…')} />
      </AuthCard>
    );
  }
  if (invitation.data) {
    return (
      <AcceptInvitation
        transid={id}
        email={invitation.data.email}
        tenantDisplayName={invitation.data.tenantDisplayName}
      />
    );
  }
  if (invitation.error instanceof ApiError && invitation.error.status === 410) {
    return (
      <AuthCard
        title={t('auth.invite.expiredTitle', 'This invitation is no longer valid')}
        description={t(
          'auth.invite.expired',
          'It has expired or was already used. Ask an administrator for a new one.',
        )}
      >
        <Button component={Link} to="/sign-in" fullWidth>
          {t('auth.verify.signIn', 'Sign in')}
        </Button>
      </AuthCard>
    );
  }
  return <EmailVerification id={id} />;
}

/** A sign-up's e-mail verification by its transaction id (the link or code of the e-mail). */
function EmailVerification({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useVerifyTransaction(id);
  const outcome = verificationOutcome(query);

  const signInButton = (
    <Button component={Link} to="/sign-in" fullWidth>
      {t('auth.verify.signIn', 'Sign in')}
    </Button>
  );
  const resendButton = (
    <Button component={Link} to="/email-verification" fullWidth>
      {t('auth.verify.resend', 'Send the verification e-mail again')}
    </Button>
  );

  switch (outcome) {
    case 'verifying':
      return (
        <AuthCard title={t('auth.verify.verifyingTitle', 'Verifying your e-mail address')}>
          <LoadingState label={t('auth.verify.verifying', 'Verifying…')} />
        </AuthCard>
      );
    case 'verified':
      return (
        <AuthCard
          title={t('auth.verify.verifiedTitle', 'E-mail address verified')}
          description={t('auth.verify.verified', 'Your account is ready. You can sign in now.')}
        >
          {signInButton}
        </AuthCard>
      );
    case 'expired':
      return (
        <AuthCard
          title={t('auth.verify.expiredTitle', 'This link has expired')}
          description={t(
            'auth.verify.expired',
            'Verification links are valid for 24 hours. Ask for a new one.',
          )}
        >
          {resendButton}
        </AuthCard>
      );
    case 'notFound':
      return (
        <AuthCard
          title={t('auth.verify.notFoundTitle', 'Verification link not found')}
          description={t(
            'auth.verify.notFound',
            'This link or code is not valid. Check that you copied it completely, or ask for a new one.',
          )}
        >
          <Stack gap="sm">
            <Button component={Link} to="/verify/email-verification" fullWidth>
              {t('auth.verify.enterCode', 'Enter the code again')}
            </Button>
            <Button component={Link} to="/email-verification" variant="default" fullWidth>
              {t('auth.verify.resend', 'Send the verification e-mail again')}
            </Button>
          </Stack>
        </AuthCard>
      );
    case 'pending':
      return (
        <AuthCard
          title={t('auth.verify.pendingTitle', 'Not verified yet')}
          description={t('auth.verify.pending', 'We could not confirm your address yet. Try the link again.')}
        >
          <Button onClick={() => void query.refetch()} fullWidth>
            {t('auth.verify.retry', 'Try again')}
          </Button>
        </AuthCard>
      );
    default:
      return (
        <AuthCard title={t('auth.verify.failedTitle', 'Verification failed')}>
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        </AuthCard>
      );
  }
}
