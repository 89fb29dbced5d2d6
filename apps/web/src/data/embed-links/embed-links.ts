import {
  type CreatedEmbedLink,
  type EmbedLinkInput,
  type EmbedLinkListQuery,
  embedLinkEndpoints,
} from '@palisade/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../lib/api-client';
import { showMutationError } from '../../lib/mutation-toast';

/**
 * The embed links of a tenant (the credentials of embedded dashboards' links), as a resource: its query keys
 * under `['tenant', tenant, 'embed-links']`, its list and its writes. Whatever shows or makes links — the
 * settings page, a dashboard's Embed dialog, a user's page — goes through here, so a link made or revoked in one
 * place is current in every other.
 */
export const embedLinkKeys = {
  all: (tenant: string) => ['tenant', tenant, 'embed-links'] as const,
  list: (tenant: string, query: Partial<EmbedLinkListQuery>) =>
    ['tenant', tenant, 'embed-links', 'list', query] as const,
};

/** One page of the tenant's links, newest first (`GET /api/embed-links/:tenant`). */
export function embedLinksQuery(tenant: string, query: Partial<EmbedLinkListQuery>) {
  return queryOptions({
    queryKey: embedLinkKeys.list(tenant, query),
    queryFn: ({ signal }) =>
      request(embedLinkEndpoints.listEmbedLinks, { params: { tenant }, query, signal }),
    placeholderData: keepPreviousData,
    enabled: tenant !== '',
    meta: { isSilent: true },
  });
}

export function useEmbedLinks(tenant: string, query: Partial<EmbedLinkListQuery>) {
  return useQuery(embedLinksQuery(tenant, query));
}

/** Options of {@link useCreateEmbedLink}. */
export interface UseCreateEmbedLinkOptions {
  onSuccess?: (link: CreatedEmbedLink) => void;
  onError?: (error: unknown) => void;
}

/**
 * Makes a link (`POST /api/embed-links/:tenant`). Its token goes to `onSuccess` only, never into the cache, so it
 * is gone with the dialog that shows it.
 */
export function useCreateEmbedLink(tenant: string, { onSuccess, onError }: UseCreateEmbedLinkOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (body: EmbedLinkInput) =>
      request(embedLinkEndpoints.createEmbedLink, { params: { tenant }, body }),
    onSuccess: async (link) => {
      onSuccess?.(link);
      await queryClient.invalidateQueries({ queryKey: embedLinkKeys.all(tenant) });
    },
    onError: (error) => onError?.(error),
  });
}

/** Revokes a link (`DELETE /api/embed-links/:tenant/:id`); a failure gets the default toast. */
export function useRevokeEmbedLink(tenant: string, { onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (id: string) => request(embedLinkEndpoints.revokeEmbedLink, { params: { tenant, id } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: embedLinkKeys.all(tenant) });
      onSuccess?.();
    },
    onError: (error) => showMutationError(t, error),
  });
}
