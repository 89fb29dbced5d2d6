import type {
  PartnerUsageQuery,
  PaymentListQuery,
  SubscriptionHistoryQuery,
  UsageQuery,
} from '@palisade/contracts';

/** The history query as the screen sends it: every field may be left to the contract's default. */
export type HistoryListParams = Partial<SubscriptionHistoryQuery>;
/** The payments query as the screen sends it. */
export type PaymentsListParams = Partial<PaymentListQuery>;
/** The partner rollup query as the screen sends it. */
export type PartnerUsageParams = Partial<PartnerUsageQuery>;

/**
 * Query keys of the subscription area, all under `['tenant', tenant, 'subscription']` so a tenant switch never
 * shows another tenant's cache, and one invalidation after a change refreshes the plan, its history, its
 * invoices and its usage together. The partner rollup sits under the console's own tenant (the partner's or the
 * platform's), whichever tenant is open.
 */
export const subscriptionKeys = {
  all: (tenant: string) => ['tenant', tenant, 'subscription'] as const,
  detail: (tenant: string) => ['tenant', tenant, 'subscription', 'detail'] as const,
  history: (tenant: string, query: HistoryListParams) =>
    ['tenant', tenant, 'subscription', 'history', query] as const,
  payments: (tenant: string, query: PaymentsListParams) =>
    ['tenant', tenant, 'subscription', 'payments', query] as const,
  usage: (tenant: string, query: UsageQuery) => ['tenant', tenant, 'subscription', 'usage', query] as const,
  partnerUsage: (tenant: string, query: PartnerUsageParams) =>
    ['tenant', tenant, 'subscription', 'partner-usage', query] as const,
};
