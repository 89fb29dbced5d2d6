import { vi } from 'vitest';
import { jsonResponse } from '../../../testing/render';

/** One request the fake API received. */
export interface SentRequest {
  method: string;
  url: URL;
  body: unknown;
}

/** Answers a request, or returns undefined to fall through to the 404 envelope. */
export type Handler = (request: SentRequest) => Response | undefined;

/**
 * Replaces `fetch` with a fake API: `handler` answers by method and URL (a 404 envelope when it returns
 * nothing), and every request is recorded with its parsed body. Undo with `vi.unstubAllGlobals()`.
 */
export function fakeApi(handler: Handler) {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const text = await input.clone().text();
      const request = {
        method: input.method,
        url: new URL(input.url),
        body: text ? JSON.parse(text) : undefined,
      };
      sent.push(request);
      return handler(request) ?? jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return {
    sent,
    /** Requests of one method and path. */
    calls: (method: string, path: string) =>
      sent.filter((s) => s.method === method && s.url.pathname === path),
  };
}
