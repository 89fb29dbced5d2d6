import { type Subscription, type SubscriptionUpdateInput, subscriptionEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { subscriptionKeys } from './subscriptions-keys';

/** Changes plan, cycle, seats or add-ons (`PUT /api/tenant/:tenant/subscription`). */
export function updateSubscription(tenant: string, body: SubscriptionUpdateInput) {
  return request(subscriptionEndpoints.updateSubscription, { params: { tenant }, body });
}

/** Replaces the card on file with a provider token (`PUT /api/tenant/:tenant/subscription/payment-method`). */
export function setPaymentMethod(tenant: string, token: string) {
  return request(subscriptionEndpoints.setPaymentMethod, { params: { tenant }, body: { token } });
}

/** Cancels at the end of the period (`POST /api/tenant/:tenant/subscription/cancel`). */
export function cancelSubscription(tenant: string) {
  return request(subscriptionEndpoints.cancelSubscription, { params: { tenant } });
}

/** Undoes a cancellation before the period ends (`POST /api/tenant/:tenant/subscription/resume`). */
export function resumeSubscription(tenant: string) {
  return request(subscriptionEndpoints.resumeSubscription, { params: { tenant } });
}

/** Options of the subscription's change hooks: each screen tells the outcome itself. */
export interface SubscriptionChangeOptions {
  onSuccess?: (subscription: Subscription) => void;
  onError?: (error: unknown) => void;
}

/**
 * A change of the subscription: the answer replaces the cached subscription at once, then everything of the
 * subscription (its history, invoices and usage) is read again. Silent for the global toast: the caller says
 * how it went.
 */
function useSubscriptionChange<V>(
  tenant: string,
  change: (variables: V) => Promise<Subscription>,
  { onSuccess, onError }: SubscriptionChangeOptions,
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: change,
    onSuccess: async (subscription) => {
      queryClient.setQueryData(subscriptionKeys.detail(tenant), subscription);
      onSuccess?.(subscription);
      await queryClient.invalidateQueries({
        queryKey: subscriptionKeys.all(tenant),
        predicate: (query) => query.queryKey[3] !== 'detail',
      });
    },
    onError: (error) => onError?.(error),
  });
}

export function useUpdateSubscription(tenant: string, options: SubscriptionChangeOptions = {}) {
  return useSubscriptionChange(
    tenant,
    (body: SubscriptionUpdateInput) => updateSubscription(tenant, body),
    options,
  );
}

export function useSetPaymentMethod(tenant: string, options: SubscriptionChangeOptions = {}) {
  return useSubscriptionChange(tenant, (token: string) => setPaymentMethod(tenant, token), options);
}

export function useCancelSubscription(tenant: string, options: SubscriptionChangeOptions = {}) {
  return useSubscriptionChange<void>(tenant, () => cancelSubscription(tenant), options);
}

export function useResumeSubscription(tenant: string, options: SubscriptionChangeOptions = {}) {
  return useSubscriptionChange<void>(tenant, () => resumeSubscription(tenant), options);
}
