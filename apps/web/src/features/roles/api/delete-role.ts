import { roleEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { rolesKeys } from './roles-keys';

/** Deletes a custom role nobody holds (`DELETE /api/roles/:tenant/:id`; 409 `validation.roleInUse` otherwise). */
export function deleteRole(tenant: string, id: string) {
  return request(roleEndpoints.deleteRole, { params: { tenant, id } });
}

/** Deletes a custom role and refreshes the roles; a refusal is toasted with its reason. */
export function useDeleteRole(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => deleteRole(tenant, id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: rolesKeys.list(tenant) });
      onSuccess?.();
    },
    onError: (error) => {
      showMutationError(t, error, { title: t('roles.delete.failed', 'The role was not deleted') });
      // Someone may have been given the role meanwhile: show the current holder counts.
      void queryClient.invalidateQueries({ queryKey: rolesKeys.list(tenant) });
    },
  });
}
