import { type SignUpInput, sessionEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/** Creates a workspace and its owner (`POST /api/signup`); a verification e-mail goes out. */
export function signUp(body: SignUpInput) {
  return request(sessionEndpoints.signUp, { body });
}

/** The sign-up call. Silent: the form shows failures on its fields or in place. */
export function useSignUp() {
  return useMutation({ mutationFn: signUp, meta: { isSilent: true } });
}
