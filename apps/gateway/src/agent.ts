import { mkdir } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { resolve } from 'node:path';
import { type GwBundle, GwBundle as GwBundleSchema, type GwLan } from '@palisade/contracts';
import type { RosterEntry } from '@palisade/policy-engine';
import { artefactPaths, writeArtefacts } from './artefacts';
import {
  applyBundleDelta,
  enrolWithRetry,
  GatewayRevokedError,
  GwClient,
  type HeartbeatAnswer,
  HttpError,
  sleep,
} from './client';
import { ConnectionTracker, EventOutbox } from './connections';
import { DataPlane } from './dataplane';
import { type DecisionLogPaths, type DiskEventQueue, runDecisionTelemetry } from './decisions';
import { readIfExists } from './files';
import { MetricsSampler, parseWgDumpPeers } from './metrics';
import { readLan } from './neighbours';
import { runSimulation } from './simulate';
import { type AgentState, loadState, saveState, tokenHash } from './state';
import { AGENT_VERSION } from './version';

/**
 * The reference gateway's main loop:
 * 1. state: its WireGuard key pair (made here, x25519) and, once enrolled, its credential, in DIR/state.json (0600);
 * 2. enrol once with the one-time token (again only with a different token, e.g. after a rotation);
 * 3. long-poll the bundle (`If-None-Match: "<enforced version>"`, `?wait=30`); on a new one write the artefacts
 *    to DIR atomically, enforce them with `apply`, and only then report its version as enforced;
 * 4. heartbeat every `heartbeatMs` (at once after each new version) with the version enforced, the load, the
 *    tunnel's peers, the round trip of its previous heartbeat and, with `apply`, the hosts on the networks it
 *    serves (neighbours.ts); a heartbeat naming another current version re-fetches at once;
 * 5. with `apply`, post connection events from the same `wg show` samples (connections.ts: devices connected and
 *    disconnected, tunnels to other gateways up and down, with durations and bytes) after each heartbeat;
 *    what the server did not take waits for the next one (at most {@link CONNECTION_EVENTS_KEPT}, oldest
 *    dropped first);
 * 6. back off and retry on network and server errors; stop on a 401 ({@link GatewayRevokedError}: retired or
 *    rotated) or when `signal` aborts, tearing down what `apply` brought up;
 * 7. with `simulateTraffic` (`--simulate-traffic RATE`), once it holds a bundle, post synthetic decision events
 *    of the bundle's policy at RATE a second (simulate.ts).
 */

export interface AgentOptions {
  /** The console's URL, e.g. `https://palisade.example` (the API is under /api). */
  server: string;
  /** The one-time enrolment token; needed until the gateway is enrolled. */
  token?: string;
  /** Where state and artefacts live. */
  dir: string;
  /** Enforce the artefacts (root, Linux): wireguard-go, nftables, Unbound. */
  apply?: boolean;
  /** The WireGuard interface (default `pal-<first 8 of the gateway id>`). */
  interfaceName?: string;
  /** Where devices reach this gateway's WireGuard port, `host:port`: sent at enrolment, their peer's Endpoint. */
  endpoint?: string;
  /** Unbound's port (default 53). */
  dnsPort?: number;
  /** Extra Unbound configuration to include (e.g. local-data). */
  unboundInclude?: string;
  hostname?: string;
  /** Seconds a bundle long-poll is held (default 30). */
  waitSeconds?: number;
  /** Overrides the heartbeat period the server asks for. */
  heartbeatMs?: number;
  /** Retry delays after failures: doubled from `initialMs` up to `maxMs` (default 500 ms … 30 s). */
  backoff?: { initialMs: number; maxMs: number };
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Told of each step, for tests and dashboards. */
  onEvent?: (event: AgentEvent) => void;
  /** Post synthetic decision events at this rate (events a second, 1–100 000) against the bundle's policy. */
  simulateTraffic?: number;
  /** Whose traffic it simulates (default: the bundle's `identities`, else anonymous users). */
  simulateRoster?: (bundle: GwBundle) => readonly RosterEntry[];
  /**
   * Where heartbeats and connection events read `wg show <interface> dump` (null: not up); default the data
   * plane's interface with `apply`, none without. For tests.
   */
  wgDump?: () => Promise<string | null>;
  /**
   * Real decision telemetry (decisions/): runs with `apply`; with this also without it (tests), reading these
   * logs, and ulogd only if `ulogd` is not false.
   */
  decisionLogs?: { ulogd?: boolean; paths?: Partial<DecisionLogPaths> };
}

export type AgentEvent =
  | { type: 'enrolled'; gatewayId: string; address: string; listenPort: number }
  | { type: 'resumed'; gatewayId: string }
  | { type: 'bundle'; version: string; delta?: boolean }
  /** The bundle kept on disk, enforced at start before the console answered (it may be unreachable). */
  | { type: 'restored'; version: string; applied: boolean; ms: number }
  | { type: 'enforced'; version: string; applied: boolean; ms: number }
  | { type: 'heartbeat'; enforcedVersion: string | null; answer: HeartbeatAnswer }
  | { type: 'simulated'; posted: number }
  | { type: 'decisions'; posted: number }
  | { type: 'connections'; posted: number }
  | {
      type: 'error';
      during: 'enrol' | 'bundle' | 'apply' | 'heartbeat' | 'connections' | 'simulate' | 'decisions';
      message: string;
    };

/**
 * While the console does not answer, heartbeats try again at least this often: the first one answered after
 * an outage names the current version, and a gateway behind it fetches at once (its back-off reset).
 */
export const RECOVERY_PROBE_MS = 1_000;

/** Connection events kept while the server does not take them; beyond, the oldest are dropped. */
export const CONNECTION_EVENTS_KEPT = 10_000;

/** The range of `simulateTraffic`, events a second. */
export const SIMULATE_TRAFFIC_RANGE = { min: 1, max: 100_000 } as const;

export interface AgentResult {
  gatewayId: string;
  enforcedVersion: string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const isTransient = (error: unknown) =>
  !(error instanceof GatewayRevokedError) && (!(error instanceof HttpError) || error.isTransient);

/** Runs the gateway until `signal` aborts (resolves) or it must stop (rejects: revoked, bad token, setup). */
export async function runAgent(options: AgentOptions): Promise<AgentResult> {
  const dir = resolve(options.dir);
  const rate = options.simulateTraffic;
  if (rate !== undefined && !(rate >= SIMULATE_TRAFFIC_RANGE.min && rate <= SIMULATE_TRAFFIC_RANGE.max)) {
    throw new Error(
      `simulateTraffic: ${SIMULATE_TRAFFIC_RANGE.min} to ${SIMULATE_TRAFFIC_RANGE.max} events a second, not ${rate}`,
    );
  }
  const log = options.log ?? ((line: string) => console.error(`${new Date().toISOString()} ${line}`));
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  const delay = (failures: number) => {
    const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures - 1, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };
  const client = new GwClient(options.server);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (options.signal?.aborted) stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let fatal: unknown = null;
  const fail = (error: unknown) => {
    fatal ??= error;
    stop.abort();
  };

  if (options.apply) DataPlane.check();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const state = await loadState(dir);
  let plane: DataPlane | null = null;
  /** Whether the enrolment was made by this start (no bundle on disk is its own then). */
  let justEnrolled = false;
  try {
    const enrolment = await enrolled();
    const isResumed = enrolment !== null && !justEnrolled;
    if (!enrolment) return { gatewayId: state.enrolment?.gatewayId ?? '', enforcedVersion: null };
    if (options.apply) {
      plane = new DataPlane({
        dir,
        interfaceName: options.interfaceName ?? `pal-${enrolment.gatewayId.replaceAll('-', '').slice(0, 8)}`,
        dnsPort: options.dnsPort,
        unboundInclude: options.unboundInclude,
        log,
      });
    }
    const result = await loop(enrolment, plane, isResumed);
    if (fatal) throw fatal;
    return result;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (plane) await plane.stop();
  }

  /** The enrolment of the state, enrolling first when needed; null when stopped meanwhile. */
  async function enrolled(): Promise<NonNullable<AgentState['enrolment']> | null> {
    const known = state.enrolment;
    const server = client.base;
    const isSame =
      known && known.server === server && (!options.token || known.tokenHash === tokenHash(options.token));
    if (known && isSame) {
      log(`resuming as gateway ${known.gatewayId} (enrolled ${known.enrolledAt})`);
      if (options.endpoint) log('--endpoint is sent at enrolment only: enrol again (new token) to change it');
      emit({ type: 'resumed', gatewayId: known.gatewayId });
      return known;
    }
    if (!options.token) {
      throw new Error(
        known
          ? `enrolled with ${known.server}, not ${server}: pass an enrolment token (--token) of this server`
          : 'not enrolled yet: pass the enrolment token the console showed (--token)',
      );
    }
    const hostname = (options.hostname ?? osHostname()).slice(0, 253) || 'gateway';
    const token = options.token;
    const retry = {
      signal: stop.signal,
      delay,
      isTransient,
      onRetry: (message: string, wait: number) => {
        emit({ type: 'error', during: 'enrol', message });
        log(`enrolment failed (${message}); retrying in ${wait} ms`);
      },
    };
    const answer = await enrolWithRetry(
      () =>
        client.enrol(
          {
            token,
            publicKey: state.publicKey,
            hostname,
            version: AGENT_VERSION,
            ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          },
          stop.signal,
        ),
      retry,
    );
    if (!answer) return null;
    state.enrolment = {
      server,
      gatewayId: answer.gatewayId,
      tenant: answer.tenant,
      credential: answer.credential,
      tokenHash: tokenHash(token),
      address: answer.wireguard.address,
      listenPort: answer.wireguard.listenPort,
      heartbeatMs: answer.heartbeatMs,
      enrolledAt: new Date().toISOString(),
    };
    await saveState(dir, state);
    justEnrolled = true;
    log(
      `enrolled as gateway ${answer.gatewayId}: tunnel ${answer.wireguard.address}, port ${answer.wireguard.listenPort}`,
    );
    emit({
      type: 'enrolled',
      gatewayId: answer.gatewayId,
      address: answer.wireguard.address,
      listenPort: answer.wireguard.listenPort,
    });
    return state.enrolment;
  }

  async function loop(
    enrolment: NonNullable<AgentState['enrolment']>,
    plane: DataPlane | null,
    isResumed: boolean,
  ): Promise<AgentResult> {
    const credential = enrolment.credential;
    const heartbeatMs = options.heartbeatMs ?? enrolment.heartbeatMs;
    const waitSeconds = options.waitSeconds ?? 30;
    const metrics = new MetricsSampler();
    const connections = new ConnectionTracker();
    const outbox = new EventOutbox({ max: CONNECTION_EVENTS_KEPT, log });
    let enforced: string | null = null;
    /** The bundle enforced last (the simulated traffic is decided against its policy). */
    let held: GwBundle | null = null;
    /** The decision events' disk queue (with `apply`), once open: heartbeats report what it dropped. */
    let decisionQueue: DiskEventQueue | null = null;
    /** The bundle being applied, until it is enforced or refused. */
    let applying: GwBundle | null = null;
    let isApplying = false;
    /** Aborts the long-poll in flight (a heartbeat said it is behind). */
    let poll: AbortController | null = null;
    let isPollWaiting = false;
    let isRefetchDue = false;
    /** Wakes the heartbeat loop early (a new version is enforced). */
    let beatNow = new AbortController();
    /** Ends the bundle loop's back-off early (a heartbeat was answered: the console is back). */
    let retryNow = new AbortController();
    let isBackingOff = false;
    /** The next fetch takes the full bundle (a delta did not apply). */
    let isFullDue = false;

    /**
     * The bundle of the last run, from disk, enforced before anything is asked of the console (which may be
     * unreachable): a restart keeps enforcing what it enforced. Only a resumed enrolment's; a bundle that does
     * not read or apply is left to the first fetch.
     */
    async function restore() {
      const started = Date.now();
      try {
        const text = await readIfExists(artefactPaths(dir).bundle);
        if (text === null) return;
        const stored = JSON.parse(text) as GwBundle;
        const parsed = GwBundleSchema.safeParse(stored);
        if (!parsed.success)
          throw new Error(`bundle.json is not a bundle: ${parsed.error.message.slice(0, 200)}`);
        connections.setBundle(stored);
        const { paths, wireguard } = await writeArtefacts(dir, stored, state.privateKey);
        if (plane) await plane.apply(paths, wireguard);
        enforced = stored.version;
        held = stored;
        const ms = Date.now() - started;
        log(
          `enforcing the stored bundle ${stored.version}${plane ? ' (applied)' : ' (written)'} in ${ms} ms`,
        );
        emit({ type: 'restored', version: stored.version, applied: plane !== null, ms });
      } catch (error) {
        if (stop.signal.aborted) return;
        log(`the stored bundle was not enforced: ${messageOf(error)}; waiting for the console's`);
      }
    }

    const revoked = async (error: GatewayRevokedError) => {
      // The credential is of no further use: a new start needs a new token.
      if (state.enrolment?.credential === credential) {
        delete state.enrolment;
        await saveState(dir, state).catch(() => {});
      }
      fail(error);
    };

    async function bundles() {
      let failures = 0;
      while (!stop.signal.aborted) {
        const immediate = isRefetchDue || isFullDue || enforced === null;
        const isDeltaTaken = !isFullDue;
        isRefetchDue = false;
        isFullDue = false;
        poll = new AbortController();
        isPollWaiting = !immediate;
        let bundle: GwBundle;
        try {
          const answer = await client.bundle(
            credential,
            enforced,
            immediate ? 0 : waitSeconds,
            AbortSignal.any([stop.signal, poll.signal]),
            { delta: isDeltaTaken && held !== null },
          );
          failures = 0;
          if (answer.status === 304) continue;
          if (answer.status === 226) {
            try {
              bundle = applyBundleDelta(held as GwBundle, answer.delta);
            } catch (error) {
              // Never applied half-made: the full bundle instead, at once.
              log(
                `bundle delta to ${answer.delta.version} not taken (${messageOf(error)}); fetching it whole`,
              );
              isFullDue = true;
              continue;
            }
            log(`bundle ${bundle.version}: a delta from ${answer.delta.from} (${answer.bytes ?? '?'} bytes)`);
          } else bundle = answer.bundle;
        } catch (error) {
          if (stop.signal.aborted) return;
          if (error instanceof GatewayRevokedError) return revoked(error);
          if (poll.signal.aborted) continue; // re-fetch at once
          failures++;
          const wait = delay(failures);
          emit({ type: 'error', during: 'bundle', message: messageOf(error) });
          log(`bundle: ${messageOf(error)}; retrying in ${wait} ms`);
          isBackingOff = true;
          await sleep(wait, stop.signal, retryNow.signal);
          isBackingOff = false;
          if (retryNow.signal.aborted) {
            retryNow = new AbortController();
            failures = 0;
          }
          continue;
        } finally {
          poll = null;
          isPollWaiting = false;
        }

        const started = Date.now();
        isApplying = true;
        applying = bundle;
        // Who is behind the peers the interface is about to have (a sample may come before the apply ends).
        connections.setBundle(bundle);
        try {
          emit({ type: 'bundle', version: bundle.version });
          const { paths, wireguard } = await writeArtefacts(dir, bundle, state.privateKey);
          if (plane) await plane.apply(paths, wireguard);
          enforced = bundle.version;
          held = bundle;
          const ms = Date.now() - started;
          log(`enforced bundle ${bundle.version}${plane ? ' (applied)' : ' (written)'} in ${ms} ms`);
          emit({ type: 'enforced', version: bundle.version, applied: plane !== null, ms });
          beatNow.abort();
        } catch (error) {
          if (stop.signal.aborted) return;
          failures++;
          const wait = Math.max(delay(failures), 2000);
          emit({ type: 'error', during: 'apply', message: messageOf(error) });
          log(`bundle ${bundle.version} NOT enforced: ${messageOf(error)}; retrying in ${wait} ms`);
          await sleep(wait, stop.signal);
        } finally {
          isApplying = false;
          applying = null;
        }
      }
    }

    let isLanFailing = false;
    /** The hosts on the networks it serves (the server keeps them for a site gateway); none when unreadable. */
    async function lanOf(dataPlane: DataPlane): Promise<GwLan | undefined> {
      try {
        const lan = await readLan(dataPlane.interfaceName);
        isLanFailing = false;
        return lan;
      } catch (error) {
        if (!isLanFailing) log(`neighbours: ${messageOf(error)}; heartbeats go without them`);
        isLanFailing = true;
        return undefined;
      }
    }

    async function heartbeats() {
      let failures = 0;
      let upgradeSeen: string | null = null;
      // The round trip of the previous heartbeat: the site's latency to the console.
      let latencyMs: number | undefined;
      while (!stop.signal.aborted) {
        const signal = beatNow.signal;
        let wait = heartbeatMs;
        try {
          const sent = enforced;
          const dump = options.wgDump ? await options.wgDump() : plane ? await plane.wgDump() : null;
          const { metrics: load, peers } = metrics.sample(dump);
          // No dump (not up yet, or `wg show` failed) says nothing about the peers: no events from it.
          if (dump !== null) outbox.push(connections.observe(parseWgDumpPeers(dump)));
          const lan = plane ? await lanOf(plane) : undefined;
          const started = performance.now();
          const answer = await client.heartbeat(
            credential,
            {
              version: AGENT_VERSION,
              enforcedVersion: sent,
              metrics: decisionQueue ? { ...load, decisionEventsDropped: decisionQueue.dropped } : load,
              peers,
              ...(lan ? { lan } : {}),
              ...(latencyMs === undefined ? {} : { latencyMs }),
            },
            stop.signal,
          );
          latencyMs = Math.round((performance.now() - started) * 10) / 10;
          failures = 0;
          emit({ type: 'heartbeat', enforcedVersion: sent, answer });
          if (answer.currentVersion !== null && answer.currentVersion !== enforced && !isApplying) {
            // Behind: a long-poll in flight is stale (or lost); fetch again now.
            isRefetchDue = true;
            if (isPollWaiting) poll?.abort();
          }
          // Backing off after failures (the console was away): it is back, so ask again now.
          if (isBackingOff) retryNow.abort();
          if (answer.upgrade && answer.upgrade.targetVersion !== upgradeSeen) {
            upgradeSeen = answer.upgrade.targetVersion;
            log(`upgrade to ${upgradeSeen} requested: the reference gateway does not upgrade itself`);
          }
        } catch (error) {
          if (stop.signal.aborted) return;
          if (error instanceof GatewayRevokedError) return revoked(error);
          failures++;
          wait = Math.min(heartbeatMs, delay(failures), RECOVERY_PROBE_MS);
          emit({ type: 'error', during: 'heartbeat', message: messageOf(error) });
          log(`heartbeat: ${messageOf(error)}; retrying in ${wait} ms`);
        }
        if (outbox.size > 0 && (await connectionEvents()) === 'revoked') return;
        if (signal.aborted) beatNow = new AbortController();
        else await sleep(wait, stop.signal, signal);
        if (beatNow.signal.aborted) beatNow = new AbortController();
      }
    }

    let isEventsFailing = false;
    /** Posts the connection events waiting; a failure keeps them for the next heartbeat. */
    async function connectionEvents(): Promise<'posted' | 'kept' | 'revoked'> {
      try {
        const posted = await outbox.flush((events) => client.events(credential, events, stop.signal));
        if (isEventsFailing) log('connection events: posting again');
        isEventsFailing = false;
        emit({ type: 'connections', posted });
        return 'posted';
      } catch (error) {
        if (stop.signal.aborted) return 'kept';
        if (error instanceof GatewayRevokedError) {
          await revoked(error);
          return 'revoked';
        }
        emit({ type: 'error', during: 'connections', message: messageOf(error) });
        if (!isEventsFailing) {
          log(`connection events: ${messageOf(error)}; ${outbox.size} kept, posted with the next heartbeats`);
        }
        isEventsFailing = true;
        return 'kept';
      }
    }

    /** Synthetic decision events of the held bundle's policy, `rate` a second. */
    async function simulated(ratePerSecond: number) {
      await runSimulation({
        ratePerSecond,
        bundle: () => held,
        roster: options.simulateRoster,
        seed: enrolment.gatewayId,
        post: (events, signal) => client.events(credential, events, signal),
        signal: stop.signal,
        delay,
        log,
        onPosted: (posted) => emit({ type: 'simulated', posted }),
        onError: (message) => emit({ type: 'error', during: 'simulate', message }),
        fatal: (error) => error instanceof GatewayRevokedError,
        onFatal: (error) => revoked(error as GatewayRevokedError),
      });
    }

    if (isResumed) await restore();
    /** With `apply`: the decisions Unbound, nftables (NFLOG) and squid saw, through the disk queue (decisions/). */
    async function decisions() {
      await runDecisionTelemetry({
        dir,
        // The bundle being applied as soon as it is (its zones answer from Unbound's reload on).
        bundle: () => applying ?? held,
        onQueue: (queue) => {
          decisionQueue = queue;
        },
        post: (events, signal) => client.events(credential, events, signal),
        signal: stop.signal,
        delay,
        log,
        ulogd: options.decisionLogs?.ulogd,
        paths: options.decisionLogs?.paths,
        onPosted: (posted) => emit({ type: 'decisions', posted }),
        onError: (message) => emit({ type: 'error', during: 'decisions', message }),
        fatal: (error) => error instanceof GatewayRevokedError,
        onFatal: (error) => revoked(error as GatewayRevokedError),
      }).catch((error) => log(`decision telemetry stopped: ${messageOf(error)}`));
    }

    await Promise.all([
      bundles(),
      heartbeats(),
      ...(rate === undefined ? [] : [simulated(rate)]),
      ...(plane || options.decisionLogs ? [decisions()] : []),
    ]);
    return { gatewayId: enrolment.gatewayId, enforcedVersion: enforced };
  }
}
