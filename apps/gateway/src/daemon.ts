import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { open, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { LineTail } from './decisions/tail';
import { TOOL_ENV } from './exec';
import { writeFileAtomic } from './files';

/** What a supervised daemon is: its command line, where its pid file lives, and how to tell it is ready. */
export interface DaemonSpec {
  /** Names the pid file (`<dir>/<name>.pid`) and the log lines. */
  name: string;
  command: string;
  args: string[];
  /** The gateway's state directory. */
  dir: string;
  /** Answers true once the daemon serves; polled every 100 ms until `readyTimeoutMs`. */
  ready?: () => Promise<boolean>;
  readyTimeoutMs?: number;
  log: (line: string) => void;
  /** Each line the daemon writes on its standard output or error (read from its output file every 50 ms). */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

const OUTPUT_KEPT = 20_000;
const STOP_GRACE_MS = 5000;

/** The command line of a process (`/proc/<pid>/cmdline`), or null when there is no such process. */
async function commandLineOf(pid: number): Promise<string[] | null> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (raw === null || raw === '') return null;
  return raw.replace(/\0$/, '').split('\0');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function killAndWait(pid: number, timeoutMs = STOP_GRACE_MS): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A daemon the gateway runs in the foreground and supervises: one at a time per name and state directory, even
 * after the gateway itself was killed with SIGKILL. `start()` first ends what an earlier gateway left behind — the
 * process its pid file names, if that process still runs this command, and any process running exactly this
 * command line (the pid file may not have been written yet when the gateway died) — then spawns, writes the pid
 * file and waits for `ready`. `stop()` sends SIGTERM, then SIGKILL after 5 s, and removes the pid file.
 *
 * Its standard output and error go to `<dir>/<name>.out` (truncated at each start), not to pipes: a daemon must
 * outlive the gateway that supervises it — killed, the gateway leaves the data plane enforcing, and a pipe
 * nobody reads any more would break or block the daemon's next write.
 */
export class Daemon {
  private child: ChildProcess | null = null;
  private tail: LineTail | null = null;

  constructor(private readonly spec: DaemonSpec) {}

  get pidFile(): string {
    return join(this.spec.dir, `${this.spec.name}.pid`);
  }

  get running(): boolean {
    const child = this.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  get pid(): number | null {
    return this.running ? (this.child?.pid ?? null) : null;
  }

  get outputFile(): string {
    return join(this.spec.dir, `${this.spec.name}.out`);
  }

  /** The last 20 000 characters the daemon wrote. */
  async output(): Promise<string> {
    const file = await open(this.outputFile, 'r').catch(() => null);
    if (!file) return '';
    try {
      const { size } = await file.stat();
      const length = Math.min(size, OUTPUT_KEPT);
      const { buffer, bytesRead } = await file.read(Buffer.alloc(length), 0, length, size - length);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  }

  /** The processes an earlier run left: named by the pid file or running exactly this command line. */
  async stale(): Promise<number[]> {
    const found = new Set<number>();
    const own = [this.spec.command, ...this.spec.args];
    const pidText = await readFile(this.pidFile, 'utf8').catch(() => '');
    const named = Number.parseInt(pidText.trim(), 10);
    if (Number.isInteger(named) && named > 1 && named !== process.pid) {
      const line = await commandLineOf(named);
      if (line && basename(line[0] ?? '') === basename(this.spec.command)) found.add(named);
    }
    for (const entry of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === process.pid || pid === this.child?.pid) continue;
      const line = await commandLineOf(pid);
      if (
        line &&
        line.length === own.length &&
        basename(line[0] ?? '') === basename(own[0] ?? '') &&
        line.slice(1).every((arg, i) => arg === own[i + 1])
      ) {
        found.add(pid);
      }
    }
    return [...found];
  }

  async start(): Promise<void> {
    if (this.running) return;
    for (const pid of await this.stale()) {
      this.spec.log(`${this.spec.name}: ending the process ${pid} an earlier run left`);
      await killAndWait(pid);
    }
    closeSync(openSync(this.outputFile, 'w', 0o640));
    const onLine = this.spec.onLine;
    if (onLine) {
      this.tail = new LineTail(this.outputFile, (lines) => lines.forEach(onLine), 50);
      await this.tail.start();
    }
    const out = openSync(this.outputFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(this.spec.command, this.spec.args, {
        env: this.spec.env ?? TOOL_ENV,
        stdio: ['ignore', out, out],
      });
    } finally {
      closeSync(out);
    }
    this.child = child;
    let spawnError: Error | null = null;
    child.once('error', (error) => {
      spawnError = error;
    });
    if (child.pid !== undefined) await writeFileAtomic(this.pidFile, `${child.pid}\n`, 0o644);
    const deadline = Date.now() + (this.spec.readyTimeoutMs ?? 15_000);
    for (;;) {
      if (spawnError) throw spawnError;
      if (!this.running) {
        const output = (await this.output()).trim().slice(-2000);
        throw new Error(`${this.spec.name} exited (${child.exitCode ?? child.signalCode}): ${output}`);
      }
      if (!this.spec.ready || (await this.spec.ready().catch(() => false))) return;
      if (Date.now() > deadline) {
        await this.stop();
        const output = (await this.output()).trim().slice(-2000);
        throw new Error(`${this.spec.name} did not start in time: ${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    await this.tail?.stop();
    this.tail = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    await rm(this.pidFile, { force: true });
  }
}
