import { sessionEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/**
 * Asks for a new verification e-mail (`POST /api/signup/resend`). The server answers the same whether or not
 * the address has an unverified account, so nobody can probe which addresses exist.
 */
export function resendVerification(email: string) {
  return request(sessionEndpoints.resendVerification, { body: { email } });
}

/** The resend call. Silent: the form shows failures in place. */
export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, meta: { isSilent: true } });
}
