import { type DeploymentKeyInput, enrolmentEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys } from './devices-keys';

/** Creates a deployment key (`POST /api/enrolment/:tenant/keys`); the answer carries the token, this once. */
export function createDeploymentKey(tenant: string, body: DeploymentKeyInput) {
  return request(enrolmentEndpoints.createDeploymentKey, { params: { tenant }, body });
}

/** What the create call answers: the key as listed and its token. */
export type CreatedKey = Awaited<ReturnType<typeof createDeploymentKey>>;

/** Options of {@link useCreateDeploymentKey}. */
export interface UseCreateDeploymentKeyOptions {
  onSuccess?: (created: CreatedKey) => void;
  onError?: (error: unknown) => void;
}

/**
 * Creates a key and refreshes the list. The token is handed to `onSuccess` only, never to the query cache, so
 * it is gone once the screen forgets it.
 */
export function useCreateDeploymentKey(
  tenant: string,
  { onSuccess, onError }: UseCreateDeploymentKeyOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: DeploymentKeyInput) => createDeploymentKey(tenant, body),
    onSuccess: async (created) => {
      onSuccess?.(created);
      await queryClient.invalidateQueries({ queryKey: devicesKeys.deploymentKeys(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}
