import { type BundlePreviewInput, bundleEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

/**
 * What saving a policy would push to the gateways (`POST /api/cybernodes/:tenant/preview`): the save runs with all
 * its checks and is rolled back. A mutation: its answer belongs to the draft it was asked for.
 */
export function previewGateways(tenant: string, body: BundlePreviewInput) {
  return request(bundleEndpoints.previewBundle, { params: { tenant }, body });
}

/** Previews a save; failures are shown by the caller (on the form's fields where they belong). */
export function usePreviewGateways(tenant: string) {
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: BundlePreviewInput) => previewGateways(tenant, body),
  });
}
