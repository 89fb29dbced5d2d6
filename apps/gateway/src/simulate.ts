import { GW_EVENTS_MAX_BATCH, type GwBundle, type GwEvent, Uuid } from '@palisade/contracts';
import {
  type CompiledPolicy,
  compile,
  type EngineInput,
  type RosterEntry,
  TrafficGenerator,
} from '@palisade/policy-engine';
import { sleep } from './client';

/**
 * `--simulate-traffic RATE`: synthetic decision events of the tenant's users and devices, decided by the real
 * engine against the policy of the bundle the gateway holds (`@palisade/policy-engine` traffic.ts), posted to
 * `POST /api/gw/events` in NDJSON batches of at most {@link GW_EVENTS_MAX_BATCH} lines, once a second. The
 * policy is recompiled when the bundle changes. Failures back off and are logged; events that pile up meanwhile
 * beyond a minute's worth are dropped (oldest first). Stops when `signal` aborts.
 */

export interface SimulationOptions {
  /** Events per second. */
  ratePerSecond: number;
  /** The bundle held now; null before the first. */
  bundle: () => GwBundle | null;
  /** Who makes the requests, per bundle (default {@link rosterOf}). */
  roster?: (bundle: GwBundle) => readonly RosterEntry[];
  /** Same seed, same traffic (with the same start); the gateway passes its id. */
  seed: string;
  post: (events: GwEvent[], signal: AbortSignal) => Promise<unknown>;
  signal: AbortSignal;
  /** Back-off after `failures` failures in a row. */
  delay: (failures: number) => number;
  log: (line: string) => void;
  onPosted?: (posted: number) => void;
  onError?: (message: string) => void;
  /** An error after which the gateway stops (its credential was revoked): handed over, and the simulation ends. */
  fatal?: (error: unknown) => boolean;
  onFatal?: (error: unknown) => Promise<void> | void;
  /** Period of generating and posting (default 1 s). */
  tickMs?: number;
  /** An answer that will not change when the batch is sent again (the batch is dropped): default a 4xx. */
  isRefused?: (error: unknown) => boolean;
}

/** Minimal checks of a bundle's engine input: its policies and objects are arrays (the server made it). */
export function engineInputOf(policy: unknown): EngineInput | null {
  if (typeof policy !== 'object' || policy === null) return null;
  const { policies, objects } = policy as Partial<Record<keyof EngineInput, unknown>>;
  if (!Array.isArray(policies) || typeof objects !== 'object' || objects === null) return null;
  const o = objects as Record<string, unknown>;
  const list = (key: string) => (Array.isArray(o[key]) ? (o[key] as never[]) : []);
  return {
    policies: policies as EngineInput['policies'],
    objects: {
      apps: list('apps'),
      categories: list('categories'),
      feeds: list('feeds'),
      locations: list('locations'),
    },
  };
}

/**
 * The roster a bundle carries: its `identities` (`{deviceId, userId, groups}` of the tenant's devices) when it has
 * them, else none (anonymous traffic). Entries whose ids are not UUIDs are left out.
 */
export function rosterOf(bundle: GwBundle): RosterEntry[] {
  const identities = (bundle as { identities?: unknown }).identities;
  if (!Array.isArray(identities)) return [];
  const roster: RosterEntry[] = [];
  for (const item of identities) {
    if (typeof item !== 'object' || item === null) continue;
    const { deviceId, userId, groups, address } = item as Record<string, unknown>;
    if (!Uuid.safeParse(deviceId).success) continue;
    roster.push({
      deviceId: deviceId as string,
      userId: Uuid.safeParse(userId).success ? (userId as string) : null,
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
      address: typeof address === 'string' ? address : null,
    });
  }
  return roster;
}

/** A generated event as posted: its decisions carry `source: 'simulated'` (the console marks and filters them). */
export function simulatedEvent(event: GwEvent): GwEvent {
  return event.kind === 'decision' ? { ...event, data: { ...event.data, source: 'simulated' } } : event;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
    ? (error as { status: number }).status
    : null;

/** Runs until `signal` aborts (or a fatal error, handed to `onFatal`); never throws. */
export async function runSimulation(options: SimulationOptions): Promise<void> {
  const { ratePerSecond: rate, signal, log } = options;
  const tickMs = options.tickMs ?? 1000;
  const rosterFor = options.roster ?? rosterOf;
  const isRefused =
    options.isRefused ??
    ((error: unknown) => {
      const status = statusOf(error);
      return status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    });
  /** What waits for the server: a minute of events, at least a few batches, at most 100 000 events. */
  const maxPending = Math.max(2 * GW_EVENTS_MAX_BATCH, Math.min(Math.ceil(rate * 60), 100_000));
  let generator: TrafficGenerator | null = null;
  let held: GwBundle | null = null;
  let pending: GwEvent[] = [];
  let failures = 0;
  let dropped = 0;
  let isLagging = false;

  while (!signal.aborted) {
    const started = Date.now();
    const bundle = options.bundle();
    if (bundle !== null && bundle !== held) {
      held = bundle;
      generator = follow(generator, bundle);
    }
    if (generator !== null) {
      // After an outage (or when this machine is too slow) a minute of missed traffic at most is made up.
      generator.skipTo(started - 60_000);
      const budget = started + tickMs / 2;
      let made = 0;
      try {
        while (generator.clock <= started) {
          for (const event of generator.next()) pending.push(simulatedEvent(event));
          if (++made % 256 === 0 && Date.now() > budget) break;
        }
      } catch (error) {
        // Not expected of the engine; the gateway goes on without simulated traffic until the next bundle.
        log(`simulated traffic stopped: ${messageOf(error)}`);
        options.onError?.(messageOf(error));
        generator = null;
        continue;
      }
      const isBehind = generator.clock <= started;
      if (isBehind && !isLagging) log(`simulated traffic: this machine makes fewer than ${rate} events/s`);
      isLagging = isBehind;
      if (pending.length > maxPending) {
        dropped += pending.length - maxPending;
        pending = pending.slice(pending.length - maxPending);
      }
    }
    let backoff = 0;
    while (pending.length > 0 && !signal.aborted) {
      const batch = pending.slice(0, GW_EVENTS_MAX_BATCH);
      try {
        await options.post(batch, signal);
        pending = pending.slice(batch.length);
        if (failures > 0 || dropped > 0) {
          log(
            `simulated traffic: posting again${dropped > 0 ? ` (${dropped} events dropped meanwhile)` : ''}`,
          );
        }
        failures = 0;
        dropped = 0;
        options.onPosted?.(batch.length);
      } catch (error) {
        if (signal.aborted) return;
        if (options.fatal?.(error)) {
          await options.onFatal?.(error);
          return;
        }
        failures++;
        const message = messageOf(error);
        options.onError?.(message);
        if (isRefused(error)) {
          // Sent again, it would be refused again.
          pending = pending.slice(batch.length);
          dropped += batch.length;
        }
        backoff = options.delay(failures);
        log(`simulated traffic: ${message}; retrying in ${backoff} ms`);
        break;
      }
    }
    await sleep(Math.max(backoff, tickMs - (Date.now() - started)), signal);
  }

  /** The generator for a new bundle: the same one with the new policy and roster, or the first one. */
  function follow(current: TrafficGenerator | null, bundle: GwBundle): TrafficGenerator | null {
    const input = engineInputOf(bundle.policy);
    let engine: CompiledPolicy;
    try {
      if (input === null) throw new Error('the bundle carries no engine input');
      engine = compile(input);
    } catch (error) {
      log(`simulated traffic: bundle ${bundle.version}: ${messageOf(error)}; keeping the previous policy`);
      return current;
    }
    const roster = rosterFor(bundle);
    if (current === null) {
      log(
        `simulated traffic: ${rate} events/s of ${roster.length === 0 ? 'anonymous users' : `${roster.length} devices`}`,
      );
      return new TrafficGenerator({
        engine,
        roster,
        seed: options.seed,
        start: Date.now(),
        ratePerSecond: rate,
        diurnal: false,
      });
    }
    current.setEngine(engine);
    current.setRoster(roster);
    return current;
  }
}
