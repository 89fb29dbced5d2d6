import { type MutationFunction, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showMutationError } from '../../../lib/mutation-toast';
import { gatewaysCacheKey } from './private-access-keys';

/** Options of an entry write ({@link useEntryMutation}). */
export interface EntryMutationOptions<TResult, TVars> {
  onSuccess?: (result: TResult, variables: TVars) => void;
  /** Replaces the default error toast (a form puts the details on its fields). */
  onError?: (error: unknown, variables: TVars) => void;
}

/**
 * A write to a private service or a ZTNA rule. On success it refreshes the entry's list and the gateways (the
 * policy version they enforce moved); errors toast unless the caller handles them.
 */
export function useEntryMutation<TResult, TVars>(
  tenant: string,
  listKey: QueryKey,
  mutationFn: MutationFunction<TResult, TVars>,
  { onSuccess, onError }: EntryMutationOptions<TResult, TVars> = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn,
    onSuccess: async (result, variables) => {
      await queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: gatewaysCacheKey(tenant) });
      onSuccess?.(result, variables);
    },
    onError: (error, variables) => (onError ? onError(error, variables) : showMutationError(t, error)),
  });
}
