import { type BundleSummary, bundleEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { gatewaysKeys } from './gateways-keys';

/**
 * Pushes a kept bundle back to every gateway (rollback, `POST …/cybernodes/:tenant/bundles/:version/push`); it
 * stays current until the policy changes again.
 */
export function pushBundle(tenant: string, version: string) {
  return request(bundleEndpoints.pushBundle, { params: { tenant, version } });
}

/**
 * Pushes a kept bundle back and refreshes every gateway query of the tenant (the bundle list, the lists, the
 * details and the map: each gateway's current version changes). Failures get the default toast.
 */
export function usePushBundle(
  tenant: string,
  { onSuccess }: { onSuccess?: (bundle: BundleSummary) => void } = {},
) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (version: string) => pushBundle(tenant, version),
    onSuccess: async (bundle) => {
      onSuccess?.(bundle);
      await queryClient.invalidateQueries({ queryKey: gatewaysKeys.all(tenant) });
    },
    onError: (error) =>
      showMutationError(t, error, {
        title: t('gateways.bundles.pushFailed', 'The bundle was not pushed back'),
      }),
  });
}
