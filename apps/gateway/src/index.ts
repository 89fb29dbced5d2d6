/**
 * # @palisade/gateway — the reference gateway
 *
 * What a customer runs on a Linux box (`npm run gateway -- --server URL --token T [--dir DIR] [--apply]`), and
 * the way the tests drive the data plane. {@link runAgent} is the whole program as a library: enrol with a
 * one-time token and a WireGuard key made here, long-poll the policy bundle, write (and with `apply` enforce)
 * its artefacts, heartbeat. See agent.ts for the loop and dataplane.ts for what `--apply` does. {@link runDevice}
 * is `--device`: an endpoint as the Palisade client runs one (device.ts); wg-interface.ts is the WireGuard
 * interface both bring up.
 */

export { generateKeyPair, type KeyPair, publicKeyOf } from '@palisade/gateway-config/keys';
export { type AgentEvent, type AgentOptions, type AgentResult, runAgent } from './agent';
export { ARTEFACT_FILES, artefactPaths, stripWgQuick, withPrivateKey, writeArtefacts } from './artefacts';
export { DeviceClient, DeviceRevokedError, GatewayRevokedError, GwClient, HttpError } from './client';
export { ConnectionTracker, EventOutbox, type PeerRole } from './connections';
export { DataPlane, REQUIRED_TOOLS } from './dataplane';
export {
  configVersion,
  DEVICE_FILES,
  type DeviceEvent,
  type DeviceOptions,
  type DeviceResult,
  linuxPosture,
  runDevice,
} from './device';
export { NAT_TABLE, natRuleset, peerAllowedIps, routeDiff, wantedRoutes } from './forwarding';
export { type DumpPeer, MetricsSampler, parseWgDump, parseWgDumpPeers } from './metrics';
export { type AgentState, type DeviceState, loadState, STATE_FILE } from './state';
export { AGENT_VERSION } from './version';
export { WIREGUARD_TOOLS, WireguardInterface } from './wg-interface';
