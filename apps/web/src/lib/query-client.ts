import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { reportLoadFailure } from './api-client';

/** What our queries and mutations may say about themselves. */
export interface AppQueryMeta extends Record<string, unknown> {
  /** No error toast on failure: the caller shows the failure itself (or it is a background check). */
  isSilent?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}

/**
 * The app's query client. The API client already retries (spec §8), so TanStack Query does not; failures get
 * the error toast of spec §8 here, once, unless the query or mutation is marked `isSilent`.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.isSilent) reportLoadFailure(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.isSilent) reportLoadFailure(error);
      },
    }),
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
