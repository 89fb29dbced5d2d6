import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GwEvent } from '@palisade/contracts';
import { writeFileAtomic } from '../files';

/**
 * The gateway's decision events on disk until the console takes them (issue 23): JSON lines in numbered
 * segments (`<dir>/<seq>.ndjson`, a new one every {@link DiskQueueOptions.segmentEvents} events), the events
 * already sent of the oldest segment counted in `<dir>/state.json`. Bounded: beyond `maxEvents` the oldest are
 * dropped — counted (`dropped`, also kept in state.json across restarts) and logged. A gateway stopped cleanly,
 * killed, or cut off from the console sends what is here after its next start.
 */
export interface DiskQueueOptions {
  dir: string;
  /** The most events kept (default 100 000); beyond, the oldest are dropped. */
  maxEvents?: number;
  /** Events per segment file (default 5 000). */
  segmentEvents?: number;
  log?: (line: string) => void;
}

interface Segment {
  seq: number;
  events: GwEvent[];
}

interface QueueState {
  /** The first segment's events already sent (or dropped). */
  head: number;
  /** Events dropped since the queue was made, for ever. */
  dropped: number;
}

const SEGMENT = /^(\d{10})\.ndjson$/;
const name = (seq: number) => `${String(seq).padStart(10, '0')}.ndjson`;

export class DiskEventQueue {
  private segments: Segment[] = [];
  private head = 0;
  /** The position of the oldest event waiting, counted from this run's start (peek's `end`, ack's argument). */
  private base = 0;
  private droppedTotal = 0;
  private readonly maxEvents: number;
  private readonly segmentEvents: number;
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: DiskQueueOptions) {
    this.maxEvents = options.maxEvents ?? 100_000;
    this.segmentEvents = options.segmentEvents ?? 5_000;
  }

  /** The queue of `dir`, with what an earlier run left there. */
  static async open(options: DiskQueueOptions): Promise<DiskEventQueue> {
    const queue = new DiskEventQueue(options);
    await queue.load();
    return queue;
  }

  /** Events waiting. */
  get size(): number {
    return this.segments.reduce((n, s) => n + s.events.length, 0) - this.head;
  }

  /** Events dropped because the queue was full, since it was first made. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Appends events (written before it resolves), dropping the oldest beyond the bound. */
  append(events: readonly GwEvent[]): Promise<void> {
    if (events.length === 0) return this.writing.then(() => {});
    const run = this.writing.then(async () => {
      let rest = [...events];
      while (rest.length > 0) {
        let last = this.segments.at(-1);
        if (!last || last.events.length >= this.segmentEvents) {
          last = { seq: (last?.seq ?? 0) + 1, events: [] };
          this.segments.push(last);
        }
        const room = this.segmentEvents - last.events.length;
        const part = rest.slice(0, room);
        rest = rest.slice(room);
        await appendFile(
          join(this.options.dir, name(last.seq)),
          `${part.map((e) => JSON.stringify(e)).join('\n')}\n`,
        );
        last.events.push(...part);
      }
      const over = this.size - this.maxEvents;
      if (over > 0) {
        this.droppedTotal += over;
        this.options.log?.(
          `decision events: the queue holds at most ${this.maxEvents}; ${over} oldest dropped (${this.droppedTotal} in all)`,
        );
        await this.advance(over);
      }
    });
    this.writing = run.catch(() => {});
    return run;
  }

  /** The oldest `max` events waiting, and the position after them: they stay until {@link ack} of `end`. */
  peek(max: number): { events: GwEvent[]; end: number } {
    const out: GwEvent[] = [];
    let skip = this.head;
    for (const segment of this.segments) {
      for (let i = skip; i < segment.events.length && out.length < max; i++) out.push(segment.events[i]);
      skip = 0;
      if (out.length >= max) break;
    }
    return { events: out, end: this.base + out.length };
  }

  /**
   * The events before position `end` (of {@link peek}) were taken: forgets them — those dropped meanwhile are
   * not counted twice — and removes the segment files wholly taken.
   */
  ack(end: number): Promise<void> {
    const run = this.writing.then(() => (end > this.base ? this.advance(end - this.base) : undefined));
    this.writing = run.catch(() => {});
    return run;
  }

  private async advance(count: number) {
    this.base += count;
    let left = count;
    while (left > 0 && this.segments.length > 0) {
      const first = this.segments[0];
      const here = first.events.length - this.head;
      if (left < here) {
        this.head += left;
        left = 0;
        break;
      }
      left -= here;
      this.segments.shift();
      this.head = 0;
      await rm(join(this.options.dir, name(first.seq)), { force: true });
    }
    await this.saveState();
  }

  private async saveState() {
    const state: QueueState = { head: this.head, dropped: this.droppedTotal };
    await writeFileAtomic(join(this.options.dir, 'state.json'), `${JSON.stringify(state)}\n`, 0o600);
  }

  private async load() {
    await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    const state = await readFile(join(this.options.dir, 'state.json'), 'utf8')
      .then((text) => JSON.parse(text) as Partial<QueueState>)
      .catch(() => ({}) as Partial<QueueState>);
    this.droppedTotal = Number.isInteger(state.dropped) ? (state.dropped as number) : 0;
    const files = (await readdir(this.options.dir))
      .map((file) => SEGMENT.exec(file))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const seq of files) {
      const text = await readFile(join(this.options.dir, name(seq)), 'utf8');
      const events: GwEvent[] = [];
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        try {
          events.push(JSON.parse(line) as GwEvent);
        } catch {
          // A line cut short by a crash mid-write: the rest of the segment is still good.
        }
      }
      this.segments.push({ seq, events });
    }
    const first = this.segments[0];
    this.head =
      first && Number.isInteger(state.head) ? Math.min(state.head as number, first.events.length) : 0;
  }
}
