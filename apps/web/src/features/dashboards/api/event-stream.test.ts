import { describe, expect, it } from 'vitest';
import { readEventStream, type StreamEvent } from './event-stream';

/** A stream that sends `chunks` as they are (cut anywhere), then ends. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  await readEventStream(streamOf(chunks), (event) => events.push(event), new AbortController().signal);
  return events;
}

describe('readEventStream', () => {
  it('reads events cut anywhere across chunks, with their type and data', async () => {
    expect(await read(['event: ti', 'ck\ndata: {"a"', ':1}\n', '\nevent: tick\ndata: 2\n\n'])).toEqual([
      { event: 'tick', data: '{"a":1}' },
      { event: 'tick', data: '2' },
    ]);
  });

  it('skips comments and empty events, joins data lines and accepts CRLF and CR line ends', async () => {
    expect(
      await read([
        ': keep-alive\r\n\r\n',
        'data: one\r',
        '\ndata: two\r\n\r',
        '\nevent: x\rdata:three\r\r',
        'id: 4\n\n',
      ]),
    ).toEqual([
      { event: 'message', data: 'one\ntwo' },
      { event: 'x', data: 'three' },
    ]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    expect(await read(['event: tick\ndata: 1\n\nevent: tick\ndata: 2\n'])).toEqual([
      { event: 'tick', data: '1' },
    ]);
  });

  it('stops and cancels the stream when aborted', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const stream = new ReadableStream<Uint8Array>({
      start(source) {
        source.enqueue(encoder.encode('data: first\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const done = readEventStream(
      stream,
      (event) => {
        events.push(event);
        controller.abort();
      },
      controller.signal,
    );
    await done;
    expect(events).toEqual([{ event: 'message', data: 'first' }]);
    expect(cancelled).toBe(true);
  });
});
