import { sessionEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** Finishes a sign-in with the TOTP code (`POST /api/session/otp`). */
export function signInOtp(body: { transid: string; code: string }) {
  return request(sessionEndpoints.signInOtp, { body });
}

/** The second sign-in step. Silent: the screen shows failures in place. */
export function useSignInOtp() {
  return useMutation({ mutationFn: signInOtp, meta: { isSilent: true } });
}
