import { tokenEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { tokensKeys } from './tokens-keys';

/** Revokes one of my API tokens (`DELETE /api/me/tokens/:id`). */
export function revokeToken(id: string) {
  return request(tokenEndpoints.revokeToken, { params: { id } });
}

/** Revokes a token and refreshes the list; failures get the default toast. */
export function useRevokeToken(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: revokeToken,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: tokensKeys.all(tenant) });
      onSuccess?.();
    },
    onError: (error) => showMutationError(t, error),
  });
}
