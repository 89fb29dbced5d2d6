import { enrolmentEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { devicesKeys } from './devices-keys';

/** The tenant's deployment keys (`GET /api/enrolment/:tenant/keys`); tokens are never listed. */
export function getDeploymentKeys(tenant: string, signal?: AbortSignal) {
  return request(enrolmentEndpoints.listDeploymentKeys, { params: { tenant }, signal });
}

/** Query options of the deployment keys; silent, the screen shows a failure in place. */
export function deploymentKeysQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: devicesKeys.deploymentKeys(tenant),
    queryFn: ({ signal }) => getDeploymentKeys(tenant, signal),
    meta: { isSilent: true },
  });
}

export function useDeploymentKeys(tenant: string) {
  return useQuery(deploymentKeysQueryOptions(tenant));
}
