import { type EventRetention, type EventRetentionInput, eventEndpoints } from '@palisade/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { eventsKeys } from './events-keys';

/**
 * Changes how many days admin events are kept (`PUT /api/events/admin/:tenant/retention`); more than the
 * subscription's `maxDays` answers 400 `body.days`.
 */
export function updateEventRetention(tenant: string, body: EventRetentionInput) {
  return request(eventEndpoints.updateEventRetention, { params: { tenant }, body });
}

/** Options of {@link useUpdateEventRetention}. */
export interface UseUpdateEventRetentionOptions {
  onSuccess?: (retention: EventRetention) => void;
  onError?: (error: unknown) => void;
}

/** Saves the retention, stores the answer and refreshes the log (the change is itself an event). */
export function useUpdateEventRetention(
  tenant: string,
  { onSuccess, onError }: UseUpdateEventRetentionOptions = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: EventRetentionInput) => updateEventRetention(tenant, body),
    onSuccess: async (retention) => {
      queryClient.setQueryData(eventsKeys.retention(tenant), retention);
      onSuccess?.(retention);
      await queryClient.invalidateQueries({ queryKey: eventsKeys.all(tenant) });
    },
    onError,
  });
}
