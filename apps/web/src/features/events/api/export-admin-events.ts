import { type AdminEventExportQuery, ErrorEnvelope } from '@palisade/contracts';
import { ApiError, credentialHeaders } from '../../../lib/api-client';

/** Export filters as the screen sends them; defaults may be left out. */
export type AdminEventsExportParams = Partial<AdminEventExportQuery>;

/** The address of the CSV export of the filtered log (`GET /api/events/admin/:tenant/export`). */
export function exportUrl(tenant: string, query: AdminEventsExportParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const base = import.meta.env.VITE_API_BASE ?? '/api';
  const qs = search.toString();
  return `${base}/events/admin/${encodeURIComponent(tenant)}/export${qs ? `?${qs}` : ''}`;
}

/** The file name the server suggests in `Content-Disposition`, else a fallback. */
function fileName(response: Response, tenant: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `admin-events-${tenant}.csv`;
}

/**
 * Downloads the filtered log as CSV. A file download cannot go through the JSON API client, so this fetches with
 * the session header itself and saves the answer through an object URL. Rejects with an `ApiError` on an error
 * answer.
 */
export async function downloadAdminEvents(tenant: string, query: AdminEventsExportParams): Promise<void> {
  const response = await fetch(exportUrl(tenant, query), { headers: credentialHeaders() });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    const envelope = ErrorEnvelope.safeParse(body);
    throw new ApiError(
      response.status,
      envelope.success
        ? envelope.data
        : { errcode: 7, code: 'internal_error', message: `Export failed (${response.status})` },
    );
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName(response, tenant);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
