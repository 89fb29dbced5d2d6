import {
  type PolicyTemplate,
  type PolicyTemplateInput,
  policyTemplateEndpoints,
  type TemplateApplyResult,
  type TemplatePreview,
} from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { policyTemplatesKeys } from './policy-templates-keys';

/** Creates a template from policies of a tenant (`POST /api/partner/:tenant/policy-templates`). */
export function createPolicyTemplate(tenant: string, body: PolicyTemplateInput) {
  return request(policyTemplateEndpoints.createPolicyTemplate, { params: { tenant }, body });
}

export function useCreatePolicyTemplate(
  tenant: string,
  options: { onSuccess?: (created: PolicyTemplate) => void; onError?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: PolicyTemplateInput) => createPolicyTemplate(tenant, body),
    onSuccess: async (created) => {
      options.onSuccess?.(created);
      await queryClient.invalidateQueries({ queryKey: policyTemplatesKeys.lists(tenant) });
    },
    onError: (error) => options.onError?.(error),
  });
}

/** Deletes a template (`DELETE …/policy-templates/:id`). */
export function useDeletePolicyTemplate(
  tenant: string,
  options: { onSuccess?: () => void; onError?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) =>
      request(policyTemplateEndpoints.deletePolicyTemplate, { params: { tenant, id } }),
    onSuccess: async () => {
      options.onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: policyTemplatesKeys.lists(tenant) });
    },
    onError: (error) => options.onError?.(error),
  });
}

/** What applying would change in each tenant, nothing saved (`POST …/policy-templates/:id/preview`). */
export function usePreviewPolicyTemplate(
  tenant: string,
  id: string,
  options: { onSuccess?: (tenants: TemplatePreview[]) => void; onError?: (error: unknown) => void } = {},
) {
  return useMutation({
    meta: { isSilent: true },
    mutationFn: async (tenants: string[]) =>
      (
        await request(policyTemplateEndpoints.previewPolicyTemplate, {
          params: { tenant, id },
          body: { tenants },
        })
      ).tenants,
    onSuccess: (tenants) => options.onSuccess?.(tenants),
    onError: (error) => options.onError?.(error),
  });
}

/** Applies the template to each tenant (`POST …/policy-templates/:id/apply`), then refreshes the states. */
export function useApplyPolicyTemplate(
  tenant: string,
  id: string,
  options: { onSuccess?: (tenants: TemplateApplyResult[]) => void; onError?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: async (tenants: string[]) =>
      (
        await request(policyTemplateEndpoints.applyPolicyTemplate, {
          params: { tenant, id },
          body: { tenants },
        })
      ).tenants,
    onSuccess: async (tenants) => {
      options.onSuccess?.(tenants);
      await queryClient.invalidateQueries({ queryKey: policyTemplatesKeys.detail(tenant, id) });
    },
    onError: (error) => options.onError?.(error),
  });
}

/** Takes the template's policies again from its source tenant (`PUT …/policy-templates/:id`); the version rises. */
export function useUpdatePolicyTemplate(
  tenant: string,
  id: string,
  options: { onSuccess?: (updated: PolicyTemplate) => void; onError?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: PolicyTemplateInput) =>
      request(policyTemplateEndpoints.updatePolicyTemplate, { params: { tenant, id }, body }),
    onSuccess: async (updated) => {
      options.onSuccess?.(updated);
      await queryClient.invalidateQueries({ queryKey: policyTemplatesKeys.all(tenant) });
    },
    onError: (error) => options.onError?.(error),
  });
}
