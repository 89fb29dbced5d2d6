import { userBulkEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError, showSuccess } from '../../../lib/mutation-toast';
import { usersKeys } from './users-keys';

/**
 * Undoes a completed bulk change (`POST /api/subscriber/user/:tenant/bulk/:id/undo`): the opposite change on
 * exactly the users it changed. Refreshes the users and confirms with how many were restored.
 */
export function useUndoBulk(tenant: string) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (jobId: string) => request(userBulkEndpoints.undoBulkJob, { params: { tenant, id: jobId } }),
    onSuccess: async (job) => {
      await queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
      void queryClient.invalidateQueries({ queryKey: usersKeys.details(tenant), refetchType: 'none' });
      showSuccess(
        t('users.bulk.undone', {
          count: job.changed,
          defaultValue_one: 'Change undone for 1 user.',
          defaultValue_other: 'Change undone for {{count, number}} users.',
        }),
      );
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('users.bulk.undoFailed', 'The change was not undone') }),
  });
}
