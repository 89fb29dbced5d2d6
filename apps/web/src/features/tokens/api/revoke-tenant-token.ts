import { type TenantApiToken, tokenEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { tokensKeys } from './tokens-keys';

/** Revokes any administrator's API token of a tenant (`DELETE /api/tokens/:tenant/:id`). */
export function revokeTenantToken(tenant: string, id: string) {
  return request(tokenEndpoints.revokeTenantToken, { params: { tenant, id } });
}

/**
 * Revokes a token of the tenant; failures get the default toast. The revoked row is updated in place from the
 * answer and stays on screen, marked revoked, even when the list shows active tokens only — the administrator
 * sees what happened; the next page or filter change reloads. Lists of one's own tokens are reloaded at once.
 */
export function useRevokeTenantToken(
  tenant: string,
  { onSuccess }: { onSuccess?: (token: TenantApiToken) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => revokeTenantToken(tenant, id),
    onSuccess: async (token) => {
      queryClient.setQueriesData<{ items: TenantApiToken[]; total: number }>(
        { queryKey: tokensKeys.tenantLists(tenant) },
        (page) => page && { ...page, items: page.items.map((item) => (item.id === token.id ? token : item)) },
      );
      onSuccess?.(token);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tokensKeys.tenantLists(tenant), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: tokensKeys.lists(tenant) }),
      ]);
    },
    onError: (error) => showMutationError(t, error),
  });
}
