import { open, stat, truncate } from 'node:fs/promises';

/**
 * Follows a log file a daemon appends to, line by line, by polling (inotify is not worth it at a few reads a
 * second, and a poll also sees a file that is made, truncated or replaced later). A file there at the start is
 * read from its end — its earlier lines were an earlier run's; a file made later, or replaced (another inode) or
 * truncated, from its beginning. A partial last line waits for its newline. Once read past `maxBytes` the file
 * is emptied (the daemons append with O_APPEND, so they go on at its new start): the log never fills the disk,
 * and what was read is in the event queue.
 */
export class LineTail {
  private offset = -1;
  private inode = -1;
  private rest = '';
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;

  constructor(
    readonly path: string,
    private readonly onLines: (lines: string[]) => void,
    private readonly periodMs = 250,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** Starts following (the first read marks where the file ends now). */
  async start(): Promise<void> {
    const info = await stat(this.path).catch(() => null);
    this.inode = info?.ino ?? -1;
    this.offset = info?.size ?? 0;
    this.timer = setInterval(() => void this.poll(), this.periodMs);
    this.timer.unref();
  }

  /** Reads what was appended since the last read (also called on a timer). */
  poll(): Promise<void> {
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** Stops following, after reading what is there now. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.poll();
  }

  private async read(): Promise<void> {
    const info = await stat(this.path).catch(() => null);
    if (info === null) return;
    if (info.ino !== this.inode || info.size < this.offset) {
      // Made, replaced or truncated since: all of it is new.
      this.inode = info.ino;
      this.offset = 0;
      this.rest = '';
    }
    if (info.size === this.offset) return;
    const file = await open(this.path, 'r');
    try {
      const length = info.size - this.offset;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, this.offset);
      this.offset += bytesRead;
      const text = this.rest + buffer.subarray(0, bytesRead).toString('utf8');
      const lines = text.split('\n');
      this.rest = lines.pop() ?? '';
      const complete = lines.filter((line) => line.length > 0);
      if (complete.length > 0) this.onLines(complete);
    } finally {
      await file.close();
    }
    if (this.offset >= this.maxBytes && this.rest === '') {
      await truncate(this.path, 0).catch(() => {});
      this.offset = 0;
    }
  }
}
