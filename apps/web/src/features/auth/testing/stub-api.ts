import { vi } from 'vitest';
import { jsonResponse } from '../../../testing/render';

/** One request the fake API received. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Replaces `fetch` with a fake API that answers by `"METHOD /path"` (404 envelope otherwise) and records every
 * request, body included. Undo with `vi.unstubAllGlobals()`.
 */
export function stubApi(answers: Record<string, () => Response>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const path = new URL(input.url).pathname;
      const text = await input.clone().text();
      sent.push({ method: input.method, path, body: text ? JSON.parse(text) : undefined });
      const answer = answers[`${input.method} ${path}`];
      return answer ? answer() : jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return sent;
}

/** Puts text into a field in one input event, as a paste would: much faster than typing key by key. */
export async function fillIn(
  user: { click(element: Element): Promise<void>; paste(text: string): Promise<void> },
  field: HTMLElement,
  text: string,
): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
