import { type SignInInput, sessionEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** Signs in (`POST /api/session`): a session, or `{otpRequired, transid}` when a second factor is due. */
export function signIn(body: SignInInput) {
  return request(sessionEndpoints.signIn, { body });
}

/** The sign-in call. Silent: the screen explains failures (wrong password, locked, not verified) in place. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn, meta: { isSilent: true } });
}
