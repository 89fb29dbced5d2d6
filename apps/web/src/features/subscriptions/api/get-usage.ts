import { type PartnerUsage, subscriptionEndpoints, type UsageQuery } from '@palisade/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import type { ListPage } from '../../../lib/list-state';
import { type PartnerUsageParams, subscriptionKeys } from './subscriptions-keys';

/** Daily end users, devices and seats of a tenant (`GET /api/tenant/:tenant/subscription/usage`). */
export function useSubscriptionUsage(tenant: string, query: UsageQuery, isEnabled = true) {
  return useQuery({
    queryKey: subscriptionKeys.usage(tenant, query),
    queryFn: ({ signal }) =>
      request(subscriptionEndpoints.getSubscriptionUsage, { params: { tenant }, query, signal }),
    enabled: tenant !== '' && isEnabled,
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A row of the partner's rollup, keyed by the tenant's name (the shared list keys rows by `id`). */
export type PartnerUsageListRow = PartnerUsage['items'][number] & { id: string };

/** A page of the partner's rollup as the shared list reads it, with the totals over every managed tenant. */
export type PartnerUsagePage = ListPage<PartnerUsageListRow> & { totals: PartnerUsage['totals'] };

/**
 * Plan, status, seats and use of every tenant the console manages (`GET /api/partner/:tenant/subscriptions/usage`),
 * `tenant` being the console's own (the partner's or the platform's). Server-paged; only partner and platform
 * admins ask.
 */
export function usePartnerUsage(tenant: string, query: PartnerUsageParams, isEnabled: boolean) {
  return useQuery({
    queryKey: subscriptionKeys.partnerUsage(tenant, query),
    queryFn: async ({ signal }): Promise<PartnerUsagePage> => {
      const page = await request(subscriptionEndpoints.getPartnerUsage, {
        params: { tenant },
        query,
        signal,
      });
      return {
        ...page,
        items: page.items.map((row) => ({ ...row, id: row.tenant })),
        totalIsEstimate: false,
        nextCursor: null,
      };
    },
    enabled: tenant !== '' && isEnabled,
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}
