import { type Payment, subscriptionEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { ListPage } from '../../../lib/list-state';
import { type PaymentsListParams, subscriptionKeys } from './subscriptions-keys';

/** One page of the tenant's invoices, newest first (`GET /api/tenant/:tenant/payments`). */
export function usePayments(tenant: string, query: PaymentsListParams, isEnabled = true) {
  return useQuery({
    queryKey: subscriptionKeys.payments(tenant, query),
    queryFn: async ({ signal }): Promise<ListPage<Payment>> => {
      const page = await request(subscriptionEndpoints.listPayments, { params: { tenant }, query, signal });
      return { ...page, totalIsEstimate: false, nextCursor: null };
    },
    enabled: tenant !== '' && isEnabled,
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
