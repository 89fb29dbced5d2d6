import { type SubscriptionEvent, subscriptionEndpoints } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { ListPage } from '../../../lib/list-state';
import { type HistoryListParams, subscriptionKeys } from './subscriptions-keys';

/**
 * One page of the subscription's changes, newest first (`GET /api/tenant/:tenant/subscription/history`). An
 * offset page with an exact total, read as the shared list's page; the previous page stays while the next loads.
 */
export function useSubscriptionHistory(tenant: string, query: HistoryListParams) {
  return useQuery({
    queryKey: subscriptionKeys.history(tenant, query),
    queryFn: async ({ signal }): Promise<ListPage<SubscriptionEvent>> => {
      const page = await request(subscriptionEndpoints.listSubscriptionHistory, {
        params: { tenant },
        query,
        signal,
      });
      return { ...page, totalIsEstimate: false, nextCursor: null };
    },
    enabled: tenant !== '',
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
