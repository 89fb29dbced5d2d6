import { privateAccessEndpoints, type ZtnaRuleInput } from '@palisade/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { type EntryMutationOptions, useEntryMutation } from './entry-mutation';
import { privateAccessKeys } from './private-access-keys';

/** The ZTNA firewall rules of a tenant (`GET /api/devices/:tenant/ztna-firewall`). */
export function getZtnaRules(tenant: string, signal?: AbortSignal) {
  return request(privateAccessEndpoints.listZtnaRules, { params: { tenant }, signal });
}

/** Query options of the rule list; silent, the screen shows a failure in place with a retry. */
export function ztnaRulesQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: privateAccessKeys.ztnaRules(tenant),
    queryFn: ({ signal }) => getZtnaRules(tenant, signal),
    meta: { isSilent: true },
  });
}

export function useZtnaRules(tenant: string) {
  return useQuery(ztnaRulesQueryOptions(tenant));
}

/** What a save sends: the rule's id (none for a new one) and the whole rule. */
export interface SaveRuleVars {
  id?: string;
  body: ZtnaRuleInput;
}

/** Adds a rule (`POST`), or replaces the one with `id` (`PUT …/:id`). */
export function saveZtnaRule(tenant: string, { id, body }: SaveRuleVars) {
  return id
    ? request(privateAccessEndpoints.updateZtnaRule, { params: { tenant, id }, body })
    : request(privateAccessEndpoints.createZtnaRule, { params: { tenant }, body });
}

export function useSaveZtnaRule(tenant: string, options?: EntryMutationOptions<unknown, SaveRuleVars>) {
  return useEntryMutation(
    tenant,
    privateAccessKeys.ztnaRules(tenant),
    (vars: SaveRuleVars) => saveZtnaRule(tenant, vars),
    options,
  );
}

/** Deletes a rule (`DELETE …/:id`). */
export function useDeleteZtnaRule(tenant: string, options?: EntryMutationOptions<unknown, string>) {
  return useEntryMutation(
    tenant,
    privateAccessKeys.ztnaRules(tenant),
    (id: string) => request(privateAccessEndpoints.deleteZtnaRule, { params: { tenant, id } }),
    options,
  );
}
