import {
  PAYMENT_STATUSES,
  type PaymentStatus,
  SUBSCRIPTION_EVENT_KINDS,
  SUBSCRIPTION_STATUSES,
  type SubscriptionEventKind,
  type SubscriptionStatus,
} from '@palisade/contracts';
import { PAGE_SIZES, type PageSize } from '../../../lib/list-state';
import type { HistoryListParams, PartnerUsageParams, PaymentsListParams } from '../api/subscriptions-keys';

/** Where a paged list is: page (1-based) and size. */
export interface PagingState {
  page: number;
  pageSize: PageSize;
  /** Search text; empty for none (lists without a search keep it empty). */
  q: string;
}

const DEFAULT_PAGING: PagingState = { page: 1, pageSize: 25, q: '' };

function oneOf<T extends string>(options: readonly T[], value: string | null): T | null {
  return (options as readonly (string | null)[]).includes(value) ? (value as T) : null;
}

/** Paging read from the address (`page`, `size`, `q`), with the defaults for anything missing or malformed. */
function parsePaging(params: URLSearchParams): PagingState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_PAGING.page,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : DEFAULT_PAGING.pageSize,
    q: params.get('q') ?? '',
  };
}

/** Paging written to the address, defaults left out. */
function pagingParams(state: PagingState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.page !== DEFAULT_PAGING.page) params.set('page', String(state.page));
  if (state.pageSize !== DEFAULT_PAGING.pageSize) params.set('size', String(state.pageSize));
  return params;
}

/** `limit`/`offset` of a paging state. */
function pageQuery(state: PagingState) {
  return { limit: state.pageSize, offset: (state.page - 1) * state.pageSize };
}

// ─── The invoices of the subscription screen ────────────────────────────────────────────────────────────────

export interface PaymentsListState extends PagingState {
  status: 'all' | PaymentStatus;
}

export const paymentsListCodec = {
  parse(params: URLSearchParams): PaymentsListState {
    return { ...parsePaging(params), status: oneOf(PAYMENT_STATUSES, params.get('status')) ?? 'all' };
  },
  toSearchParams(state: PaymentsListState): URLSearchParams {
    const params = pagingParams(state);
    if (state.status !== 'all') params.set('status', state.status);
    return params;
  },
};

export function toPaymentsQuery(state: PaymentsListState): PaymentsListParams {
  return { ...pageQuery(state), ...(state.status !== 'all' ? { status: state.status } : {}) };
}

// ─── The history ─────────────────────────────────────────────────────────────────────────────────────────────

export interface HistoryListState extends PagingState {
  kind: 'all' | SubscriptionEventKind;
}

export const historyListCodec = {
  parse(params: URLSearchParams): HistoryListState {
    return { ...parsePaging(params), kind: oneOf(SUBSCRIPTION_EVENT_KINDS, params.get('kind')) ?? 'all' };
  },
  toSearchParams(state: HistoryListState): URLSearchParams {
    const params = pagingParams(state);
    if (state.kind !== 'all') params.set('kind', state.kind);
    return params;
  },
};

/** Newest first, the server's default. */
export function toHistoryQuery(state: HistoryListState): HistoryListParams {
  return { ...pageQuery(state), ...(state.kind !== 'all' ? { kind: state.kind } : {}) };
}

// ─── The usage screen: its range and the partner's rollup ────────────────────────────────────────────────────

export const USAGE_RANGES = [30, 90] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];

export interface UsageScreenState extends PagingState {
  days: UsageRange;
  status: 'all' | SubscriptionStatus;
}

export const usageScreenCodec = {
  parse(params: URLSearchParams): UsageScreenState {
    const days = Number(params.get('days'));
    return {
      ...parsePaging(params),
      days: (USAGE_RANGES as readonly number[]).includes(days) ? (days as UsageRange) : 30,
      status: oneOf(SUBSCRIPTION_STATUSES, params.get('status')) ?? 'all',
    };
  },
  toSearchParams(state: UsageScreenState): URLSearchParams {
    const params = pagingParams(state);
    if (state.days !== 30) params.set('days', String(state.days));
    if (state.status !== 'all') params.set('status', state.status);
    return params;
  },
};

export function toPartnerUsageQuery(state: UsageScreenState): PartnerUsageParams {
  const q = state.q.trim();
  return {
    ...pageQuery(state),
    ...(q ? { q } : {}),
    ...(state.status !== 'all' ? { status: state.status } : {}),
  };
}
