import { type PartnerSettings, type PartnerSettingsUpdate, partnerEndpoints } from '@palisade/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { fileRequest } from '../../../lib/file-request';
import { partnersKeys } from './partners-keys';

const settingsKey = (tenant: string) => [...partnersKeys.all(tenant), 'settings'] as const;

/** A partner's settings (`GET /api/partner/:tenant/settings`). */
export function partnerSettingsQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: settingsKey(tenant),
    queryFn: ({ signal }) => request(partnerEndpoints.getPartnerSettings, { params: { tenant }, signal }),
  });
}

export function usePartnerSettings(tenant: string, enabled = true) {
  return useQuery({ ...partnerSettingsQueryOptions(tenant), enabled: enabled && tenant !== '' });
}

/** Keeps the answer of a change as the settings, and lets the branding and partner info read anew. */
function useStoreSettings(tenant: string) {
  const queryClient = useQueryClient();
  return async (settings: PartnerSettings) => {
    queryClient.setQueryData(settingsKey(tenant), settings);
    await queryClient.invalidateQueries({ queryKey: ['partner'] });
    await queryClient.invalidateQueries({ queryKey: ['partner-info'] });
  };
}

/** Saves the display name, colours and support contact (`PUT /api/partner/:tenant/settings`). */
export function useUpdatePartnerSettings(tenant: string) {
  const store = useStoreSettings(tenant);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: PartnerSettingsUpdate) =>
      request(partnerEndpoints.updatePartnerSettings, { params: { tenant }, body }),
    onSuccess: store,
  });
}

/** Uploads a logo file as the raw body with its type (`PUT /api/partner/:tenant/logo`). */
export async function uploadPartnerLogo(tenant: string, file: File, onLostSession: () => void) {
  const path = partnerEndpoints.uploadPartnerLogo.path.replace(':tenant', encodeURIComponent(tenant));
  const response = await fileRequest(path, {
    method: 'PUT',
    body: file,
    contentType: file.type,
    onLostSession,
  });
  return (await response.json()) as PartnerSettings;
}

export function useUploadPartnerLogo(tenant: string, onLostSession: () => void) {
  const store = useStoreSettings(tenant);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (file: File) => uploadPartnerLogo(tenant, file, onLostSession),
    onSuccess: store,
  });
}

/** Removes the logo (`DELETE /api/partner/:tenant/logo`). */
export function useDeletePartnerLogo(tenant: string) {
  const store = useStoreSettings(tenant);
  return useMutation({
    meta: { isSilent: true },
    mutationFn: () => request(partnerEndpoints.deletePartnerLogo, { params: { tenant } }),
    onSuccess: store,
  });
}
