import { type SiteConfigInput, type SiteConfigView, siteConfigEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { sitesKeys } from './sites-keys';

/**
 * Replaces a site gateway's configuration (`PUT /api/devices/:tenant/:id/site-config`); the gateway receives it
 * with its next bundle.
 */
export function putSiteConfig(tenant: string, gatewayId: string, body: SiteConfigInput) {
  return request(siteConfigEndpoints.putSiteConfig, { params: { tenant, id: gatewayId }, body });
}

/** What {@link useSaveSiteConfig} sends: the gateway and its whole new configuration. */
export interface SaveSiteConfigInput {
  gatewayId: string;
  config: SiteConfigInput;
}

/** Options of {@link useSaveSiteConfig}. */
export interface UseSaveSiteConfigOptions {
  onSuccess?: (view: SiteConfigView) => void;
  /** The caller puts field details on its fields and toasts the rest. */
  onError?: (error: unknown) => void;
}

/** Saves a site gateway's configuration and puts the answer into that gateway's cache. */
export function useSaveSiteConfig(tenant: string, { onSuccess, onError }: UseSaveSiteConfigOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: ({ gatewayId, config }: SaveSiteConfigInput) => putSiteConfig(tenant, gatewayId, config),
    onSuccess: (view) => {
      queryClient.setQueryData(sitesKeys.config(tenant, view.gatewayId), view);
      onSuccess?.(view);
    },
    onError: (error) => onError?.(error),
  });
}
