import { type AccessRequestInput, blockPageEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

export interface AccessRequestCall {
  type: string;
  id: string;
  body: AccessRequestInput;
}

/** Asks the administrators for access (`POST /api/blockaccess/:type/:id/request`, public, rate-limited). */
export function requestAccess({ type, id, body }: AccessRequestCall) {
  return request(blockPageEndpoints.requestAccess, { params: { type, id }, body, silent: true });
}

/** The form's one write; the page shows every outcome itself (sent, already asked, too many, failed). */
export function useRequestAccess() {
  return useMutation({ mutationFn: requestAccess, meta: { isSilent: true } });
}
