/** One server-sent event: its type (`message` when the server names none) and its data lines joined. */
export interface StreamEvent {
  event: string;
  data: string;
}

/** The fields of one event block (the lines between two blank lines), as the SSE format reads them. */
function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length > 0 ? { event, data: data.join('\n') } : null;
}

/**
 * Reads a `text/event-stream` body until it ends or `signal` aborts, calling `onEvent` for each complete event
 * (`event:` and `data:` lines, comments and unknown fields skipped, CRLF and CR line ends accepted). Aborting
 * cancels the reader, so the connection is closed rather than left to drain.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  if (signal.aborted) {
    cancel();
    return;
  }
  signal.addEventListener('abort', cancel, { once: true });
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      buffer += decoder.decode(value, { stream: true });
      // A CR at the very end may be the first half of a CRLF: keep it until the next chunk says.
      const keep = buffer.endsWith('\r') ? 1 : 0;
      const text = buffer.slice(0, buffer.length - keep).replace(/\r\n?/g, '\n');
      const parts = text.split('\n\n');
      buffer = (parts.pop() ?? '') + buffer.slice(buffer.length - keep);
      for (const part of parts) {
        const event = parseBlock(part);
        if (event && !signal.aborted) onEvent(event);
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    if (signal.aborted) cancel();
    else reader.releaseLock();
  }
}
