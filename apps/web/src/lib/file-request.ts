import { ErrorEnvelope, type PublicConfig } from '@palisade/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, credentialHeaders } from './api-client';
import { publicConfigQuery, signOutPath } from './auth';
import { activeEmbedToken, markEmbedTokenLost } from './embed-credential';
import { clearSession, getStoredPartner } from './session-store';

/** Options of {@link fileRequest}. */
export interface FileRequestOptions {
  method?: 'GET' | 'POST' | 'PUT';
  /** Query string; undefined and empty values are dropped. */
  query?: Record<string, string | undefined>;
  /** Raw body (a CSV file's text, an image file), sent with `contentType`. */
  body?: string | Blob;
  contentType?: string;
  signal?: AbortSignal;
  /** Called when the server no longer knows the session (401); see {@link useLostSession}. */
  onLostSession: () => void;
}

/**
 * A call whose body or answer is a file rather than JSON (CSV export and import), which the JSON API client
 * does not send. It carries the session the same way (`X-Auth-Token`), and turns an error answer into the same
 * `ApiError`, so the usual error toasts apply. Answers the raw `Response` of a 2xx.
 */
export async function fileRequest(path: string, options: FileRequestOptions): Promise<Response> {
  const base = import.meta.env.VITE_API_BASE ?? '/api';
  const url = new URL(`${base}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, value);
  }
  const headers = new Headers(credentialHeaders());
  if (options.contentType) headers.set('content-type', options.contentType);
  const response = await fetch(
    new Request(url, {
      method: options.method ?? 'GET',
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  );
  if (response.ok) return response;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const envelope = ErrorEnvelope.safeParse(body);
  const failure = new ApiError(
    response.status,
    envelope.success
      ? envelope.data
      : { errcode: 7, code: 'internal_error', message: response.statusText || 'Request failed' },
  );
  if (failure.status === 401 || failure.errcode === 1) options.onLostSession();
  throw failure;
}

/**
 * What the API client does when a session is lost (spec §8), for {@link fileRequest}: forget the session and go
 * to the sign-out page of listed partners, the partner's sign-in page, or `/sign-in`.
 */
export function useLostSession(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    // An embedded view's link ended: the view says so, the console's session is not touched.
    if (activeEmbedToken()) {
      markEmbedTokenLost();
      return;
    }
    const partner = getStoredPartner();
    const config = queryClient.getQueryData<PublicConfig>(publicConfigQuery.queryKey);
    clearSession();
    void navigate(signOutPath(partner, config?.signOutPartners ?? []));
  }, [navigate, queryClient]);
}

/** The file name the server proposes in an answer's `content-disposition`, if any. */
export function attachmentName(response: Response): string | null {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? null;
}
