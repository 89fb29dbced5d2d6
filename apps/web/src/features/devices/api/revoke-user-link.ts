import { enrolmentEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { devicesKeys } from './devices-keys';

/** Revokes a user's pending enrolment link (`DELETE /api/enrolment/:tenant/users/:id/link`). */
export function revokeUserLink(tenant: string, userId: string) {
  return request(enrolmentEndpoints.revokeUserLink, { params: { tenant, id: userId } });
}

/** Revokes a user's link and refreshes the user lists; failures toast. */
export function useRevokeUserLink(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (userId: string) => revokeUserLink(tenant, userId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: devicesKeys.userLists(tenant) });
      onSuccess?.();
    },
    onError: (error) => showMutationError(t, error),
  });
}
