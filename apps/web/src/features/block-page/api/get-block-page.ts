import { blockPageEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type BlockPageAddress, blockPageKeys } from './block-page-keys';

/** What the block page shows (`GET /api/blockaccess/:type[/:id]`, public): the generic page for anything unknown. */
export function getBlockPage(address: BlockPageAddress, signal?: AbortSignal) {
  const { type, id, query } = address;
  return id === null
    ? request(blockPageEndpoints.blockPage, { params: { type }, query, signal })
    : request(blockPageEndpoints.blockPageRule, { params: { type, id }, query, signal });
}

export function blockPageQueryOptions(address: BlockPageAddress) {
  return queryOptions({
    queryKey: blockPageKeys.page(address),
    queryFn: ({ signal }) => getBlockPage(address, signal),
    // The page shows the time of the block and a reference: one answer per visit.
    staleTime: Number.POSITIVE_INFINITY,
    meta: { isSilent: true },
  });
}

export function useBlockPage(address: BlockPageAddress) {
  return useQuery(blockPageQueryOptions(address));
}
