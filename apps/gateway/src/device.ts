import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { join, resolve } from 'node:path';
import {
  DEVICE_OS,
  type DeviceOs,
  type DeviceState as DeviceStateName,
  type PostureReport,
} from '@palisade/contracts';
import { generateKeyPair } from '@palisade/gateway-config/keys';
import { withPrivateKey } from './artefacts';
import {
  type CheckinAnswer,
  DeviceClient,
  DeviceRevokedError,
  enrolWithRetry,
  HttpError,
  sleep,
} from './client';
import { run, which } from './exec';
import { writeFileAtomic } from './files';
import { type DeviceState, loadKeyedState, saveState, tokenHash } from './state';
import { AGENT_VERSION } from './version';
import { isInterfaceName, WIREGUARD_TOOLS, WireguardInterface } from './wg-interface';

/**
 * `--device`: the reference gateway run as an endpoint, the way the Palisade client would (docs/devices.md):
 * 1. state: its own WireGuard key pair (made here, x25519; the private key is never sent) and, once enrolled, the
 *    device credential and id, in DIR/state.json (0600);
 * 2. enrol once (`POST /api/enrol` with an enrolment token — a user link or a deployment key — and the public
 *    key); later starts reuse the credential (a different token enrols again, with a new key pair);
 * 3. check in (`POST /api/device/checkin`) every `checkinSeconds` of the answer with the agent version, the
 *    version of the configuration it enforces (a hash of the server's text and its public key; null before one)
 *    and the posture it can honestly tell ({@link linuxPosture});
 * 4. state `active`: when the answer's `wireguard.config` changes, write DIR/device.conf (wg-quick, its private key
 *    filled in, 0600) and with `apply` bring it up as wg-quick would (wg-interface.ts: wireguard-go, `wg setconf`,
 *    addresses, MTU, a route per AllowedIPs; the DNS line is left to the operator), then check in again at once
 *    to report it. `pending`/`disabled`: the tunnel down (no interface, no device.conf), checking in on.
 *    `expired`: a new key pair, `POST /api/device/rotate` with its public key, kept, and the answer applied;
 * 5. back off and retry on network and server errors; stop on a 401 ({@link DeviceRevokedError}: the device was
 *    deleted or its owner deleted or disabled) or when `signal` aborts, tearing down the interface.
 */

export interface DeviceOptions {
  /** The console's URL, e.g. `https://palisade.example` (the API is under /api). */
  server: string;
  /** The enrolment token (`pal_enr_…`: a user link or a deployment key); needed until the device is enrolled. */
  token?: string;
  /** The device's name in the console (default this host's name). */
  name?: string;
  /** Its OS type (default this platform's). */
  os?: DeviceOs;
  /** Where state and device.conf live. */
  dir: string;
  /** Bring the tunnel up (root, Linux): wireguard-go, addresses, routes. */
  apply?: boolean;
  /** The WireGuard interface (default `pald-<first 8 of the device id>`). */
  interfaceName?: string;
  /** Overrides the check-in period the server asks for. */
  checkinMs?: number;
  /** Retry delays after failures: doubled from `initialMs` up to `maxMs` (default 500 ms … 30 s). */
  backoff?: { initialMs: number; maxMs: number };
  /** What the check-ins report as posture (default {@link linuxPosture}). */
  posture?: () => Promise<PostureReport>;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Told of each step, for tests. */
  onEvent?: (event: DeviceEvent) => void;
}

export type DeviceEvent =
  | { type: 'enrolled'; deviceId: string; address: string | null }
  | { type: 'resumed'; deviceId: string }
  | { type: 'checkin'; enforcedVersion: string | null; answer: CheckinAnswer }
  | { type: 'rotated'; publicKey: string }
  | { type: 'configured'; version: string; applied: boolean }
  | { type: 'down'; state: DeviceStateName }
  | { type: 'error'; during: 'enrol' | 'checkin' | 'rotate' | 'apply'; message: string };

export interface DeviceResult {
  deviceId: string;
  enforcedVersion: string | null;
}

/** The files of DIR besides state.json. */
export const DEVICE_FILES = {
  /** The wg-quick configuration with the private key (0600). */
  config: 'device.conf',
  /** What `wg setconf` reads (0600; with --apply). */
  setconf: 'device.setconf',
} as const;

/** The OS types an endpoint enrols with (site gateways enrol as gateways; `chrome` is agentless). */
export const ENDPOINT_OS = DEVICE_OS.filter((os) => !['cgw', 'cgwr', 'lgw', 'chrome'].includes(os));

/** This platform's OS type. */
export function platformOs(): DeviceOs {
  switch (process.platform) {
    case 'linux':
      return 'linux';
    case 'darwin':
      return 'mac';
    case 'win32':
      return 'windows';
    case 'android':
      return 'android';
    default:
      return 'none';
  }
}

/**
 * The configuration's version as check-ins report it: a hash of the server's wg-quick text and the device's
 * public key (a new key is a new configuration to apply; the private key goes into no hash sent anywhere).
 */
export const configVersion = (config: string, publicKey: string) =>
  createHash('sha256').update(`${publicKey}\n${config}`).digest('hex').slice(0, 16);

/**
 * What this device can honestly tell (nothing it would have to guess): on Linux with nftables readable (root),
 * `firewall` — whether `nft list ruleset` shows any table. Disk encryption, screen lock, antivirus and updates
 * are left out.
 */
export async function linuxPosture(): Promise<PostureReport> {
  if (process.platform !== 'linux' || !which('nft')) return {};
  try {
    const ruleset = await run('nft', ['list', 'ruleset'], { timeoutMs: 5000 });
    return { firewall: /^table\s/m.test(ruleset) };
  } catch {
    return {};
  }
}

/** Fails when a tool is missing or this is not root on Linux. */
export function checkDeviceApply(): void {
  if (process.platform !== 'linux') throw new Error('--apply needs Linux');
  if (process.getuid?.() !== 0) throw new Error('--apply needs root (a WireGuard interface and routes)');
  const missing = WIREGUARD_TOOLS.filter((tool) => !which(tool));
  if (missing.length > 0) {
    throw new Error(
      `--apply needs ${missing.join(', ')} (Debian: iproute2 wireguard-tools wireguard-go; scripts/net-tools.sh)`,
    );
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const isTransient = (error: unknown) =>
  !(error instanceof DeviceRevokedError) && (!(error instanceof HttpError) || error.isTransient);

const WHY_DOWN: Record<Exclude<DeviceStateName, 'active'>, string> = {
  pending: "waiting for an administrator's approval",
  disabled: 'disabled by an administrator',
  expired: 'its key expired',
};

/** Runs the device until `signal` aborts (resolves) or it must stop (rejects: revoked, bad token, setup). */
export async function runDevice(options: DeviceOptions): Promise<DeviceResult> {
  const dir = resolve(options.dir);
  const log = options.log ?? ((line: string) => console.error(`${new Date().toISOString()} ${line}`));
  const emit = (event: DeviceEvent) => options.onEvent?.(event);
  const posture = options.posture ?? linuxPosture;
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  const delay = (failures: number) => {
    const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures - 1, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  };
  const client = new DeviceClient(options.server);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (options.signal?.aborted) stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const configPath = join(dir, DEVICE_FILES.config);

  if (options.apply) checkDeviceApply();
  if (options.interfaceName !== undefined && !isInterfaceName(options.interfaceName)) {
    throw new Error(`--interface "${options.interfaceName}": 1-15 of [A-Za-z0-9_.=-]`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const state = await loadKeyedState<DeviceState>(dir);
  if ('enrolment' in state) {
    throw new Error(
      `${join(dir, 'state.json')} is a gateway's state: give the device a directory of its own (--dir)`,
    );
  }
  let tunnel: WireguardInterface | null = null;
  try {
    const device = await enrolled();
    if (!device) return { deviceId: state.device?.deviceId ?? '', enforcedVersion: null };
    if (options.apply) {
      tunnel = new WireguardInterface({
        name: options.interfaceName ?? `pald-${device.deviceId.replaceAll('-', '').slice(0, 8)}`,
        setconfPath: join(dir, DEVICE_FILES.setconf),
        log,
      });
    }
    return await loop(device, tunnel);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (tunnel) await tunnel.down().catch((error) => log(`wireguard: tearing down: ${messageOf(error)}`));
  }

  /** The enrolment of the state, enrolling first when needed; null when stopped meanwhile. */
  async function enrolled(): Promise<NonNullable<DeviceState['device']> | null> {
    const known = state.device;
    const server = client.base;
    const isSame =
      known && known.server === server && (!options.token || known.tokenHash === tokenHash(options.token));
    if (known && isSame) {
      log(`resuming as device ${known.deviceId} "${known.name}" (enrolled ${known.enrolledAt})`);
      emit({ type: 'resumed', deviceId: known.deviceId });
      return known;
    }
    if (!options.token) {
      throw new Error(
        known
          ? `enrolled with ${known.server}, not ${server}: pass an enrolment token (--token) of this server`
          : 'not enrolled yet: pass an enrolment token (--token pal_enr_…: a user link or a deployment key)',
      );
    }
    if (known) {
      // Enrolling again (another token): the old device may still hold the old key, so a new one.
      Object.assign(state, generateKeyPair());
      delete state.device;
      delete state.rotating;
      await saveState(dir, state);
    }
    const name = (options.name ?? osHostname()).trim().slice(0, 100) || 'device';
    const os = options.os ?? platformOs();
    const token = options.token;
    const answer = await enrolWithRetry(
      () => client.enrol({ token, device: { name, os }, publicKey: state.publicKey }, stop.signal),
      {
        signal: stop.signal,
        delay,
        isTransient,
        onRetry: (message, wait) => {
          emit({ type: 'error', during: 'enrol', message });
          log(`enrolment failed (${message}); retrying in ${wait} ms`);
        },
      },
    );
    if (!answer) return null;
    state.device = {
      server,
      deviceId: answer.deviceId,
      tenant: answer.tenant,
      userId: answer.userId,
      credential: answer.deviceToken,
      tokenHash: tokenHash(token),
      name,
      os,
      enrolledAt: new Date().toISOString(),
    };
    await saveState(dir, state);
    log(
      `enrolled as device ${answer.deviceId} "${name}" of ${answer.tenant}` +
        (answer.wireguard ? `: tunnel ${answer.wireguard.address}` : ': no tunnel yet'),
    );
    emit({ type: 'enrolled', deviceId: answer.deviceId, address: answer.wireguard?.address ?? null });
    return state.device;
  }

  async function loop(
    device: NonNullable<DeviceState['device']>,
    tunnel: WireguardInterface | null,
  ): Promise<DeviceResult> {
    const credential = device.credential;
    /** The version of the configuration written (and with `apply` brought up); null while there is none. */
    let enforced: string | null = null;
    let shownState: DeviceStateName | null = null;
    let periodMs = options.checkinMs ?? 60_000;
    let failures = 0;

    /** Sends the key pair of a rotation in progress; on the server's answer it becomes the device's key. */
    async function rotate(): Promise<CheckinAnswer> {
      const next = state.rotating;
      if (!next) throw new Error('no rotation in progress');
      let answer: CheckinAnswer;
      try {
        answer = await client.rotate(credential, next.publicKey, stop.signal);
      } catch (error) {
        if (error instanceof HttpError && !error.isTransient) {
          // Refused (not revoked): the next attempt makes another key.
          delete state.rotating;
          await saveState(dir, state);
        }
        throw error;
      }
      state.privateKey = next.privateKey;
      state.publicKey = next.publicKey;
      delete state.rotating;
      await saveState(dir, state);
      log(
        `key rotated: new public key ${next.publicKey} (the private key stays in ${join(dir, 'state.json')})`,
      );
      emit({ type: 'rotated', publicKey: next.publicKey });
      return answer;
    }

    /** The tunnel down: no interface, no device.conf. */
    async function down(name: DeviceStateName) {
      if (tunnel?.isUp) await tunnel.down();
      await rm(configPath, { force: true });
      await rm(join(dir, DEVICE_FILES.setconf), { force: true });
      enforced = null;
      if (shownState !== name) {
        const why = name === 'active' ? 'active without a tunnel' : `${name}: ${WHY_DOWN[name]}`;
        log(`device ${why}; tunnel down, checking in every ${Math.round(periodMs / 1000)} s`);
        emit({ type: 'down', state: name });
      }
      shownState = name;
    }

    /** Follows an answer: the tunnel as it says. True when a new configuration was enforced. */
    async function follow(answer: CheckinAnswer): Promise<boolean> {
      const wireguard = answer.wireguard;
      if (answer.state !== 'active' || wireguard === null) {
        await down(answer.state);
        return false;
      }
      if (shownState !== null && shownState !== 'active') log('device active: bringing the tunnel up');
      shownState = 'active';
      const version = configVersion(wireguard.config, state.publicKey);
      if (version === enforced) return false;
      const keyed = withPrivateKey(wireguard.config, state.privateKey);
      await writeFileAtomic(configPath, keyed, 0o600);
      if (tunnel) await tunnel.apply(keyed);
      enforced = version;
      log(
        `configuration ${version} (tunnel ${wireguard.address}, ${wireguard.peers.length} gateway(s)) ` +
          (tunnel ? `written to ${configPath} and applied on ${tunnel.name}` : `written to ${configPath}`),
      );
      emit({ type: 'configured', version, applied: tunnel !== null });
      return true;
    }

    while (!stop.signal.aborted) {
      let wait: number;
      let during: 'checkin' | 'rotate' | 'apply' = 'checkin';
      try {
        let answer: CheckinAnswer;
        if (state.rotating) {
          // A rotation cut short is finished first (the server may hold the new key already).
          during = 'rotate';
          answer = await rotate();
        } else {
          const sent = enforced;
          answer = await client.checkin(
            credential,
            { agentVersion: AGENT_VERSION, enforcedVersion: sent, posture: await posture() },
            stop.signal,
          );
          emit({ type: 'checkin', enforcedVersion: sent, answer });
          if (answer.state === 'expired') {
            log('device key expired: rotating it (a new key pair made here)');
            state.rotating = generateKeyPair();
            await saveState(dir, state);
            during = 'rotate';
            answer = await rotate();
          }
        }
        periodMs = options.checkinMs ?? Math.max(1, answer.checkinSeconds) * 1000;
        during = 'apply';
        // A new configuration is reported at once.
        wait = (await follow(answer)) ? 0 : periodMs;
        failures = 0;
      } catch (error) {
        if (stop.signal.aborted) break;
        if (error instanceof DeviceRevokedError) {
          // The credential is of no further use, nor the key the server held for it: a new start enrols afresh.
          if (state.device?.credential === credential) {
            Object.assign(state, generateKeyPair());
            delete state.device;
            delete state.rotating;
            await saveState(dir, state).catch(() => {});
          }
          throw error;
        }
        failures++;
        // A failed apply is retried no sooner than 2 s (the next check-in would find the same configuration).
        wait = Math.min(periodMs, during === 'apply' ? Math.max(delay(failures), 2000) : delay(failures));
        emit({ type: 'error', during, message: messageOf(error) });
        const what = { checkin: 'check-in', rotate: 'key rotation', apply: 'configuration NOT applied' }[
          during
        ];
        log(`${what}: ${messageOf(error)}; retrying in ${wait} ms`);
      }
      await sleep(wait, stop.signal);
    }
    return { deviceId: device.deviceId, enforcedVersion: enforced };
  }
}
