import { subscriptionEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api-client';
import { subscriptionKeys } from './subscriptions-keys';

/** A tenant's subscription with its live seat use (`GET /api/tenant/:tenant/subscription`). */
export function getSubscription(tenant: string, signal?: AbortSignal) {
  return request(subscriptionEndpoints.getSubscription, { params: { tenant }, signal });
}

/**
 * Query options of the subscription. Silent: the screen shows a failure in place, and a 404 there means the
 * tenant has no subscription (internal and legacy tenants), which is not a failure.
 */
export function subscriptionQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: subscriptionKeys.detail(tenant),
    queryFn: ({ signal }) => getSubscription(tenant, signal),
    enabled: tenant !== '',
    meta: { isSilent: true },
  });
}

/** The subscription of `tenant`. */
export function useSubscription(tenant: string) {
  return useQuery(subscriptionQueryOptions(tenant));
}

/** Whether a failed subscription query means "this tenant has no subscription". */
export function isNoSubscription(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
