import { SITE_PERFORMANCE_RANGES, type SitePerformanceRange, Uuid } from '@palisade/contracts';
import type { SitePerformanceParams } from '../api/site-performance-keys';

/** The range shown when the address names none (the contract's default). */
export const DEFAULT_RANGE: SitePerformanceRange = '24h';

/** What the address holds: `?range=1h|24h|7d&gateway=<id>`. */
export interface SitePerformanceAddress {
  range: SitePerformanceRange;
  /** The one site shown, or '' for all of them. */
  gateway: string;
}

/** Reads the address; an unknown range is the default one, a gateway that is no id is all sites. */
export function parseAddress(params: URLSearchParams): SitePerformanceAddress {
  const range = params.get('range');
  const gateway = params.get('gateway') ?? '';
  return {
    range: (SITE_PERFORMANCE_RANGES as readonly string[]).includes(range ?? '')
      ? (range as SitePerformanceRange)
      : DEFAULT_RANGE,
    gateway: Uuid.safeParse(gateway).success ? gateway : '',
  };
}

/** Writes the address, keeping whatever else it holds. */
export function toSearchParams(current: URLSearchParams, state: SitePerformanceAddress): URLSearchParams {
  const next = new URLSearchParams(current);
  next.set('range', state.range);
  if (state.gateway) next.set('gateway', state.gateway);
  else next.delete('gateway');
  return next;
}

/** The request of an address. */
export function toParams(state: SitePerformanceAddress): SitePerformanceParams {
  return state.gateway ? { range: state.range, gatewayId: state.gateway } : { range: state.range };
}
