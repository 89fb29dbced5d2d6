import { roleEndpoints } from '@palisade/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type AssignmentsQuery, rolesKeys } from './roles-keys';

/** One page of the tenant's administrators with their roles (`GET /api/roles/:tenant/assignments`). */
export function getAssignments(tenant: string, query: AssignmentsQuery, signal?: AbortSignal) {
  return request(roleEndpoints.listAssignments, { params: { tenant }, query, signal });
}

/** Query options of an assignments page; the previous page stays on screen while the next one loads. */
export function assignmentsQueryOptions(tenant: string, query: AssignmentsQuery) {
  return queryOptions({
    queryKey: rolesKeys.assignmentPage(tenant, query),
    queryFn: ({ signal }) => getAssignments(tenant, query, signal),
    placeholderData: keepPreviousData,
    meta: { isSilent: true },
  });
}

/** A page of administrators with their roles, and the total. */
export function useAssignments(tenant: string, query: AssignmentsQuery) {
  return useQuery(assignmentsQueryOptions(tenant, query));
}
