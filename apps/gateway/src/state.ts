import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPair, type KeyPair, publicKeyOf } from '@palisade/gateway-config/keys';
import { readIfExists, writeFileAtomic } from './files';

/**
 * What the gateway keeps between runs in its directory, in `state.json` (mode 0600: it holds the private key and
 * the credential): a restart reuses both and does not enrol again.
 */
export interface AgentState {
  privateKey: string;
  publicKey: string;
  /** Set once enrolled. */
  enrolment?: {
    server: string;
    gatewayId: string;
    tenant: string;
    credential: string;
    /** sha256 of the token it enrolled with: a different token (after a rotation) enrols again. */
    tokenHash: string;
    address: string;
    listenPort: number;
    heartbeatMs: number;
    enrolledAt: string;
  };
}

/**
 * What `--device` keeps in its directory's `state.json` (0600): its key pair and, once enrolled, the device
 * credential (`POST /api/enrol` shows it once).
 */
export interface DeviceState extends KeyPair {
  /** Set once enrolled. */
  device?: {
    server: string;
    deviceId: string;
    tenant: string;
    userId: string | null;
    credential: string;
    /** sha256 of the token it enrolled with: a different token enrols again (with a new key pair). */
    tokenHash: string;
    name: string;
    os: string;
    enrolledAt: string;
  };
  /**
   * A key pair made to replace an expired one, kept until the server confirms the rotation (a rotation cut
   * short is sent again with the same key, so the key the server holds is always one this device has).
   */
  rotating?: KeyPair;
}

export const STATE_FILE = 'state.json';

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function saveState(dir: string, state: AgentState | DeviceState): Promise<void> {
  await writeFileAtomic(join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

/**
 * The gateway's state: read from DIR, or made with a new key pair (and saved before anything is sent, so an
 * enrolment that fails half-way is retried with the same key). Refuses a state file others may read.
 */
export function loadState(dir: string): Promise<AgentState> {
  return loadKeyedState<AgentState>(dir);
}

/** {@link loadState} for any state with a key pair (the gateway's, a device's). */
export async function loadKeyedState<T extends AgentState | DeviceState>(dir: string): Promise<T> {
  const path = join(dir, STATE_FILE);
  const text = await readIfExists(path);
  if (text === null) {
    const state = generateKeyPair() as T;
    await saveState(dir, state);
    return state;
  }
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(`${path} is readable by others (mode ${mode.toString(8)}): chmod 600 it first`);
  }
  const state = JSON.parse(text) as T;
  if (typeof state.privateKey !== 'string' || publicKeyOf(state.privateKey) !== state.publicKey) {
    throw new Error(`${path}: the private key is missing or does not match the public key`);
  }
  return state;
}
