import { type ApiTokenInput, type CreatedApiToken, tokenEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { tokensKeys } from './tokens-keys';

/** Creates an API token (`POST /api/me/tokens`); the answer carries the secret, this once. */
export function createToken(body: ApiTokenInput) {
  return request(tokenEndpoints.createToken, { body });
}

/** Options of {@link useCreateToken}. */
export interface UseCreateTokenOptions {
  onSuccess?: (token: CreatedApiToken) => void;
  onError?: (error: unknown) => void;
}

/**
 * Creates a token and refreshes the list. The secret is handed to `onSuccess` only: it is never put in the
 * query cache, so it disappears with the dialog that shows it.
 */
export function useCreateToken(tenant: string, { onSuccess, onError }: UseCreateTokenOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: createToken,
    onSuccess: async (token) => {
      onSuccess?.(token);
      await queryClient.invalidateQueries({ queryKey: tokensKeys.all(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
