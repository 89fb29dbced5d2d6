import { type CategoryAction, type CategoryInput, policyObjectEndpoints } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type ObjectMutationOptions, useObjectMutation } from './mutation';
import { policyObjectsKeys } from './policy-objects-keys';

/** Shipped and custom web categories with the tenant's action of each. */
export function categoriesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: policyObjectsKeys.categories(tenant),
    queryFn: ({ signal }) => request(policyObjectEndpoints.listCategories, { params: { tenant }, signal }),
    meta: { isSilent: true },
  });
}

export function useCategories(tenant: string) {
  return useQuery(categoriesQueryOptions(tenant));
}

/** Which categories and apps a domain belongs to; asked only once a domain is given. */
export function useCategoryLookup(tenant: string, domain: string) {
  return useQuery({
    queryKey: policyObjectsKeys.categoryLookup(tenant, domain),
    queryFn: ({ signal }) =>
      request(policyObjectEndpoints.lookupDomain, { params: { tenant }, query: { domain }, signal }),
    enabled: domain !== '',
    meta: { isSilent: true },
  });
}

/** Allows, blocks or leaves a category to the policies; refused (409) when a policy test would fail. */
export function useSetCategoryAction(
  tenant: string,
  options?: ObjectMutationOptions<unknown, { id: string; action: CategoryAction }>,
) {
  return useObjectMutation(
    tenant,
    ({ id, action }: { id: string; action: CategoryAction }) =>
      request(policyObjectEndpoints.setCategoryAction, { params: { tenant, id }, body: { action } }),
    options,
  );
}

/** Creates a custom category, or replaces the one with `id`. */
export function useSaveCategory(
  tenant: string,
  options?: ObjectMutationOptions<unknown, { id?: string; body: CategoryInput }>,
) {
  return useObjectMutation(
    tenant,
    ({ id, body }: { id?: string; body: CategoryInput }) =>
      id
        ? request(policyObjectEndpoints.updateCategory, { params: { tenant, id }, body })
        : request(policyObjectEndpoints.createCategory, { params: { tenant }, body }),
    options,
  );
}

/** Deletes custom categories; rules lose them. */
export function useDeleteCategories(tenant: string, options?: ObjectMutationOptions<unknown, string[]>) {
  return useObjectMutation(
    tenant,
    (ids: string[]) => request(policyObjectEndpoints.deleteCategories, { params: { tenant }, body: { ids } }),
    options,
  );
}
