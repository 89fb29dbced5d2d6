import { type DeviceBulkInput, deviceEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/api-client';
import { showMutationError } from '../../../lib/mutation-toast';
import { devicesKeys } from './devices-keys';
import { inventoryKeys } from './inventory-keys';

/**
 * Approves, disables, enables, deletes or moves endpoints to a policy group (`POST /api/devices/:tenant/bulk`);
 * answers how many it changed (site gateways and endpoints not in a state the action applies to are skipped).
 */
export function bulkDevices(tenant: string, body: DeviceBulkInput) {
  return request(deviceEndpoints.bulkDevices, { params: { tenant }, body });
}

/** Options of {@link useBulkDevices}. */
export interface UseBulkDevicesOptions {
  onSuccess?: (result: { affected: number }, input: DeviceBulkInput) => void;
}

/**
 * Runs a bulk action and refreshes the devices area (the inventory and the users-and-devices lists) and, after a
 * move, the policy groups; a failure toasts.
 */
export function useBulkDevices(tenant: string, { onSuccess }: UseBulkDevicesOptions = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (input: DeviceBulkInput) => bulkDevices(tenant, input),
    onSuccess: async (result, input) => {
      onSuccess?.(result, input);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: devicesKeys.all(tenant) }),
        input.action === 'move'
          ? queryClient.invalidateQueries({ queryKey: inventoryKeys.policyGroups(tenant) })
          : null,
      ]);
    },
    onError: (error) =>
      showMutationError(t, error, { title: t('devices.bulk.failed', 'The devices were not changed') }),
  });
}
