import type { AdminEventListQuery } from '@palisade/contracts';

/** List query as the screen sends it: every field of the contract's query may be left to its default. */
export type AdminEventsParams = Partial<AdminEventListQuery>;

/** Query keys of the admin event log, all under `['tenant', tenant, 'events']`. */
export const eventsKeys = {
  all: (tenant: string) => ['tenant', tenant, 'events'] as const,
  lists: (tenant: string) => ['tenant', tenant, 'events', 'list'] as const,
  list: (tenant: string, query: AdminEventsParams) => ['tenant', tenant, 'events', 'list', query] as const,
  detail: (tenant: string, id: string) => ['tenant', tenant, 'events', 'detail', id] as const,
  facets: (tenant: string) => ['tenant', tenant, 'events', 'facets'] as const,
  retention: (tenant: string) => ['tenant', tenant, 'events', 'retention'] as const,
  /** Names of the objects events refer to by id (`kind` as in the event view; `id` for one-by-one lookups). */
  names: (tenant: string, kind: string, id = '') => ['tenant', tenant, 'events', 'names', kind, id] as const,
};
