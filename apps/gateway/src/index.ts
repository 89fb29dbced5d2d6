/**
 * # @palisade/gateway — the reference gateway
 *
 * What a customer runs on a Linux box (`npm run gateway -- --server URL --token T [--dir DIR] [--apply]`), and
 * the way the tests drive the data plane. {@link runAgent} is the whole program as a library: enrol with a
 * one-time token and a WireGuard key made here, long-poll the policy bundle, write (and with `apply` enforce)
 * its artefacts, heartbeat. See agent.ts for the loop and dataplane.ts for what `--apply` does.
 */

export { generateKeyPair, type KeyPair, publicKeyOf } from '@palisade/gateway-config/keys';
export { type AgentEvent, type AgentOptions, type AgentResult, runAgent } from './agent';
export { ARTEFACT_FILES, artefactPaths, stripWgQuick, withPrivateKey, writeArtefacts } from './artefacts';
export { GatewayRevokedError, GwClient, HttpError } from './client';
export { DataPlane, REQUIRED_TOOLS } from './dataplane';
export { NAT_TABLE, natRuleset, peerAllowedIps, routeDiff, wantedRoutes } from './forwarding';
export { MetricsSampler, parseWgDump } from './metrics';
export { type AgentState, loadState, STATE_FILE } from './state';
export { AGENT_VERSION } from './version';
