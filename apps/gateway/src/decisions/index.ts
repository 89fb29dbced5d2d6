import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type DecisionEventData,
  GW_EVENTS_MAX_BATCH,
  type GwBundle,
  type GwEvent,
} from '@palisade/contracts';
import { sleep } from '../client';
import { Daemon } from '../daemon';
import { writeFileAtomic } from '../files';
import { squidAccessLogPath } from '../squid-daemon';
import { Attribution } from './attribution';
import { DiskEventQueue } from './queue';
import { squidDecisions } from './squid-log';
import { LineTail } from './tail';
import { nflogDecisions, ulogdConfText } from './ulogd';
import { UnboundDecisions, unboundLogPath } from './unbound-log';

export { Attribution } from './attribution';
export { DiskEventQueue } from './queue';
export { LineTail } from './tail';
export { DECISION_NFLOG_GROUP, parseUlogdLine, ulogdConfText } from './ulogd';
export {
  parseUnboundLine,
  rpzLogLines,
  UnboundDecisions,
  unboundLogLines,
  unboundLogPath,
} from './unbound-log';

/**
 * Real decision telemetry (issue 23): what the gateway's own tools saw, as decision events with `source:
 * 'gateway'` — DNS answers from Unbound's log, new flows from NFLOG group 7 through ulogd2 (run here under
 * supervision), HTTP requests from squid's access log — each named with the device and user behind its tunnel
 * address (the bundle's `identities`) and the rule that decided. Events go to the disk queue first
 * (`<dir>/decisions/queue`, bounded) and from there to `POST /api/gw/events`, so an outage delays them and a
 * clean stop loses none (what could not be sent is sent after the next start).
 */
export interface DecisionTelemetryOptions {
  /** The gateway's state directory. */
  dir: string;
  /** The bundle enforced now (who is behind each address, the rules' names). */
  bundle: () => GwBundle | null;
  post: (events: GwEvent[], signal: AbortSignal) => Promise<unknown>;
  signal: AbortSignal;
  /** Back-off after `failures` failures in a row. */
  delay: (failures: number) => number;
  log: (line: string) => void;
  /** Run ulogd2 for the network layer (default true); off where NFLOG cannot be read. */
  ulogd?: boolean;
  /** Told the disk queue once it is open (the agent reports its `dropped` count in heartbeats). */
  onQueue?: (queue: DiskEventQueue) => void;
  /** The most events the disk queue keeps (default 100 000). */
  maxQueued?: number;
  /** How often logs are read and events posted (default 1 s). */
  tickMs?: number;
  /** The logs read (defaults: the state directory's). */
  paths?: Partial<DecisionLogPaths>;
  onPosted?: (posted: number) => void;
  onError?: (message: string) => void;
  /** An error after which the gateway stops (its credential was revoked). */
  fatal?: (error: unknown) => boolean;
  onFatal?: (error: unknown) => Promise<void> | void;
  /** An answer that will not change when sent again (the batch is dropped): default a 4xx but 408/429. */
  isRefused?: (error: unknown) => boolean;
  /** How long a clean stop keeps trying to send what is queued (default 5 s). */
  flushMs?: number;
}

export interface DecisionLogPaths {
  unbound: string;
  squid: string;
  nflog: string;
}

export const decisionsDir = (dir: string) => join(dir, 'decisions');
export const decisionLogPaths = (dir: string): DecisionLogPaths => ({
  unbound: unboundLogPath(dir),
  squid: squidAccessLogPath(dir),
  nflog: join(decisionsDir(dir), 'nflog.json'),
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
    ? (error as { status: number }).status
    : null;

/** Runs until `signal` aborts, then flushes (bounded by `flushMs`); never throws. */
export async function runDecisionTelemetry(options: DecisionTelemetryOptions): Promise<void> {
  const { signal, log } = options;
  const tickMs = options.tickMs ?? 1000;
  const paths = { ...decisionLogPaths(options.dir), ...options.paths };
  const isRefused =
    options.isRefused ??
    ((error: unknown) => {
      const status = statusOf(error);
      return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    });
  const home = decisionsDir(options.dir);
  await mkdir(home, { recursive: true, mode: 0o700 });
  const queue = await DiskEventQueue.open({ dir: join(home, 'queue'), maxEvents: options.maxQueued, log });
  if (queue.size > 0) log(`decision events: ${queue.size} queued from before, sending them`);
  options.onQueue?.(queue);

  let held: GwBundle | null | undefined;
  let attribution = new Attribution(null);
  const current = () => {
    const bundle = options.bundle();
    if (bundle !== held) {
      held = bundle;
      const before = attribution;
      before.forgetPrevious();
      attribution = new Attribution(bundle, before.bundle ? before : null);
    }
    return attribution;
  };
  const started = Date.now().toString(36);
  let sequence = 0;
  let pending: GwEvent[] = [];
  const add = (decisions: ({ at: number } & DecisionEventData)[]) => {
    for (const { at, ...data } of decisions) {
      pending.push({
        id: `d-${started}-${(sequence++).toString(36)}`,
        at: new Date(at).toISOString(),
        kind: 'decision',
        data,
      });
    }
  };
  const dns = new UnboundDecisions(current);
  const tails = [
    new LineTail(paths.unbound, (lines) => add(dns.take(lines))),
    new LineTail(paths.squid, (lines) => add(squidDecisions(lines, current()))),
    new LineTail(paths.nflog, (lines) => add(nflogDecisions(lines, current()))),
  ];
  for (const tail of tails) await tail.start();

  let ulogd: Daemon | null = null;
  if (options.ulogd !== false) {
    const conf = join(home, 'ulogd.conf');
    await writeFileAtomic(conf, ulogdConfText({ jsonPath: paths.nflog, logPath: join(home, 'ulogd.log') }));
    ulogd = new Daemon({
      name: 'ulogd',
      command: '/usr/sbin/ulogd',
      args: ['-c', conf],
      dir: options.dir,
      ready: async () => existsSync(paths.nflog),
      readyTimeoutMs: 5000,
      log,
    });
    try {
      await ulogd.start();
      log(`decision telemetry: ulogd reads NFLOG group 7 into ${paths.nflog}`);
    } catch (error) {
      log(`decision telemetry: ulogd did not start (${messageOf(error)}); no network decisions`);
      options.onError?.(messageOf(error));
    }
  }

  let failures = 0;
  let fatal = false;
  /** Posts what is queued, batch after batch; false when a post failed (it waits for the next tick). */
  const send = async (sendSignal: AbortSignal): Promise<boolean> => {
    while (queue.size > 0) {
      const { events, end } = queue.peek(GW_EVENTS_MAX_BATCH);
      try {
        await options.post(events, sendSignal);
        await queue.ack(end);
        if (failures > 0) log('decision events: posting again');
        failures = 0;
        options.onPosted?.(events.length);
      } catch (error) {
        if (options.fatal?.(error)) {
          fatal = true;
          await options.onFatal?.(error);
          return false;
        }
        if (sendSignal.aborted) return false;
        options.onError?.(messageOf(error));
        if (isRefused(error)) {
          // Sent again, it would be refused again.
          log(`decision events: ${events.length} refused (${messageOf(error)}); dropped`);
          await queue.ack(end);
          continue;
        }
        failures++;
        return false;
      }
    }
    return true;
  };

  try {
    while (!signal.aborted && !fatal) {
      const tick = Date.now();
      for (const tail of tails) await tail.poll().catch((error) => log(`decision logs: ${messageOf(error)}`));
      if (pending.length > 0) {
        const batch = pending;
        pending = [];
        await queue.append(batch);
      }
      let wait = tickMs - (Date.now() - tick);
      if (!(await send(signal)) && !signal.aborted && !fatal) {
        wait = Math.max(wait, options.delay(failures));
        if (failures === 1) log(`decision events: posting failed; ${queue.size} queued on disk, retrying`);
      }
      await sleep(Math.max(0, wait), signal);
    }
  } finally {
    // A clean stop: what the logs hold now goes to the queue, and the queue to the console while it answers.
    for (const tail of tails) await tail.stop().catch(() => {});
    if (pending.length > 0) await queue.append(pending).catch(() => {});
    pending = [];
    if (!fatal && queue.size > 0) await send(AbortSignal.timeout(options.flushMs ?? 5000)).catch(() => false);
    if (queue.size > 0) log(`decision events: ${queue.size} stay queued on disk for the next start`);
    await ulogd?.stop().catch(() => {});
  }
}
