import { type LintBody, policyEndpoints, type SimulateBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/**
 * Decides a request against the live policy, or against an unsaved draft (`POST /api/policy/simulate/:tenant`).
 * A mutation, not a query: it runs when the form is sent and its answer belongs to that one request.
 */
export function simulate(tenant: string, body: SimulateBody) {
  return request(policyEndpoints.simulate, { params: { tenant }, body });
}

/** Runs a simulation; failures are shown by the simulator itself. */
export function useSimulate(tenant: string) {
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: SimulateBody) => simulate(tenant, body),
  });
}

/** Lints the live policy or a draft (`POST /api/policy/lint/:tenant`). */
export function lintPolicies(tenant: string, body: LintBody) {
  return request(policyEndpoints.lint, { params: { tenant }, body });
}

/** Runs the linter; failures are shown by the caller. */
export function useLint(tenant: string) {
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: LintBody) => lintPolicies(tenant, body),
  });
}
