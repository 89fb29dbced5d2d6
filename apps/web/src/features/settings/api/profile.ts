import {
  type PasswordChangeInput,
  type ProfileInput,
  type Session,
  sessionEndpoints,
} from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { SESSION_QUERY_KEY, useSession } from '../../../lib/auth';

/** The profile fields of a session, ready to send back with some of them changed. */
export function profileOf(session: Session): ProfileInput {
  return {
    firstname: session.firstname,
    lastname: session.lastname,
    language: session.language,
    theme: session.theme,
    palette: session.palette,
  };
}

/**
 * `PUT /api/me` with the current profile plus `patch`. The session shows the change at once (so a new theme
 * applies before the answer) and goes back if the call fails.
 */
export function useUpdateProfile(options: { isSilent?: boolean } = {}) {
  const queryClient = useQueryClient();
  const { session } = useSession();
  return useMutation({
    mutationFn: (patch: Partial<ProfileInput>) => {
      if (!session) throw new Error('Not signed in');
      return request(sessionEndpoints.updateProfile, { body: { ...profileOf(session), ...patch } });
    },
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY });
      const previous = queryClient.getQueryData<Session | null>(SESSION_QUERY_KEY);
      if (previous) queryClient.setQueryData<Session | null>(SESSION_QUERY_KEY, { ...previous, ...patch });
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(SESSION_QUERY_KEY, context.previous);
    },
    onSuccess: (next) => {
      const { sessid: _sessid, ...rest } = next;
      queryClient.setQueryData<Session | null>(SESSION_QUERY_KEY, rest);
    },
    meta: { isSilent: options.isSilent ?? false },
  });
}

/**
 * `PUT /api/me/password`: ends the account's other sessions and, when asked, revokes its API tokens. Failures are
 * shown on the form. Revoked tokens refresh the tokens area (a key, not an import: features stay islands).
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  const { session } = useSession();
  return useMutation({
    mutationFn: (body: PasswordChangeInput) => request(sessionEndpoints.changePassword, { body }),
    onSuccess: async (result) => {
      if (result.revokedTokens > 0 && session) {
        await queryClient.invalidateQueries({ queryKey: ['tenant', session.tenant, 'tokens'] });
      }
    },
    meta: { isSilent: true },
  });
}

/** `POST /api/me/totp`: a new secret and its QR code, not active until confirmed. */
export function useStartTotp() {
  return useMutation({ mutationFn: () => request(sessionEndpoints.startTotp) });
}

/** `POST /api/me/totp/verify`: turns TOTP on with a code from the new secret. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => request(sessionEndpoints.confirmTotp, { body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    meta: { isSilent: true },
  });
}

/** `DELETE /api/me/totp`: turns TOTP off, proven with a current code. */
export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => request(sessionEndpoints.disableTotp, { body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
    meta: { isSilent: true },
  });
}
