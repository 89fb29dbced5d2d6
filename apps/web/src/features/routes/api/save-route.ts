import { type PolicySaved, policyEndpoints, type RouteEntry } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { request } from '../../../lib/api-client';
import { newRoutePolicy, type RouteFormValues, replaceRouteRule } from '../utils/route-policy';
import { policiesCacheKey, routesKeys } from './routes-keys';

/** The route's rule is no longer in its policy (deleted or moved meanwhile), or it is a system rule. */
export class RouteGoneError extends Error {
  constructor() {
    super('The route is no longer in its policy.');
    this.name = 'RouteGoneError';
  }
}

/** What a route save answers: the saved policy and the id of the route's rule in it. */
export interface RouteSaved {
  saved: PolicySaved;
  ruleId: string;
}

/** Options of the route mutations: the screens show success, field errors, failing tests and the rest. */
export interface RouteMutationOptions {
  onSuccess?: (result: RouteSaved) => void;
  onError?: (error: unknown) => void;
}

function useRefreshRoutes(tenant: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: routesKeys.all(tenant) }),
      queryClient.invalidateQueries({ queryKey: policiesCacheKey(tenant) }),
    ]);
}

/**
 * Adds a route: a new route-type policy holding its ROUTE rule (`POST /api/policy/:tenant`). Answers the id of
 * the new rule, the route's id.
 */
export function useCreateRoute(tenant: string, { onSuccess, onError }: RouteMutationOptions = {}) {
  const refresh = useRefreshRoutes(tenant);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: async (values: RouteFormValues): Promise<RouteSaved> => {
      const saved = await request(policyEndpoints.createPolicy, {
        params: { tenant },
        body: newRoutePolicy(values),
      });
      const rule = saved.policy.rules.find((r) => r.type === 'ROUTE' && !r.issysgen) ?? saved.policy.rules[0];
      return { saved, ruleId: rule?.id ?? '' };
    },
    onSuccess: async (result) => {
      await refresh();
      onSuccess?.(result);
    },
    onError: (error) => onError?.(error),
  });
}

/**
 * Edits a route: loads its parent policy afresh (`GET /api/policy/:tenant/:id`), replaces that one rule's name,
 * networks, gateway and switch, and saves the policy (`PUT /api/policy/:tenant/:id`). `ruleIndex()` is where the
 * rule went in the rules last sent, for the server's field details (`body.rules.<i>.url`); -1 before a save.
 */
export function useUpdateRoute(
  tenant: string,
  route: Pick<RouteEntry, 'policyId' | 'ruleId'>,
  { onSuccess, onError }: RouteMutationOptions = {},
) {
  const refresh = useRefreshRoutes(tenant);
  const ruleIndex = useRef(-1);
  const mutation = useMutation({
    meta: { isSilent: true },
    mutationFn: async (values: RouteFormValues): Promise<RouteSaved> => {
      const policy = await request(policyEndpoints.getPolicy, {
        params: { tenant, id: route.policyId },
      });
      const replaced = replaceRouteRule(policy, route.ruleId, values);
      if (!replaced) throw new RouteGoneError();
      ruleIndex.current = replaced.index;
      const saved = await request(policyEndpoints.updatePolicy, {
        params: { tenant, id: route.policyId },
        body: replaced.body,
      });
      return { saved, ruleId: route.ruleId };
    },
    onSuccess: async (result) => {
      await refresh();
      onSuccess?.(result);
    },
    onError: (error) => onError?.(error),
  });
  return { mutation, ruleIndex: () => ruleIndex.current };
}
