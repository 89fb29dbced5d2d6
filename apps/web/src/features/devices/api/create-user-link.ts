import { type CreatedLink, enrolmentEndpoints, type UserLinkInput } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys } from './devices-keys';

/** Creates a one-off enrolment link for a user (`POST /api/enrolment/:tenant/users/:id/link`). */
export function createUserLink(tenant: string, userId: string, body: UserLinkInput) {
  return request(enrolmentEndpoints.createUserLink, { params: { tenant, id: userId }, body });
}

/** Options of {@link useCreateUserLink}. */
export interface UseCreateUserLinkOptions {
  onSuccess?: (link: CreatedLink) => void;
  onError?: (error: unknown) => void;
}

/**
 * Creates a link and refreshes the user lists (the user is now pending). The token is handed to `onSuccess`
 * only: it never enters the query cache, so it disappears with the dialog that shows it.
 */
export function useCreateUserLink(tenant: string, { onSuccess, onError }: UseCreateUserLinkOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ userId, body }: { userId: string; body: UserLinkInput }) =>
      createUserLink(tenant, userId, body),
    onSuccess: async (link) => {
      onSuccess?.(link);
      await queryClient.invalidateQueries({ queryKey: devicesKeys.userLists(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
