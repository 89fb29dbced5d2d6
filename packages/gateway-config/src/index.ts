/**
 * # @palisade/gateway-config
 *
 * Compiles a tenant's policy — the {@link EngineInput} of `@palisade/policy-engine` — into the configuration
 * the Linux tools of a gateway enforce, for the policy bundle a gateway downloads:
 * `{ version: bundleVersion(artefacts), artefacts: { wireguard, nftables, rpz, squid }, policy }`.
 * Pure: no I/O (node:crypto hashes the version). Every generator is deterministic (sets, lists and records
 * sorted where order does not matter; rules in evaluation order where it does) and names in a comment the
 * policy and rule ids behind each line.
 *
 * ```ts
 * wireguardConfig({ address: '10.64.0.1/16', listenPort: 51820, peers });              // wg-quick text
 * nftablesRuleset(input, { subjectAddresses, lookupCountryRanges, gatewayId });       // { text, skipped }
 * rpzZone(input, { serial, origin: 'rpz.palisade.', ttl: 60 });                       // { text, skipped }
 * squidAcl(input, { subjectAddresses });                                              // { text, skipped }
 * bundleVersion({ wireguard, nftables: n.text, rpz: z.text, squid: s.text });         // 'a1b2c3d4e5f60718'
 * siteArtefacts(siteConfig, { gatewayId, wanInterface: 'wan0' });                     // { nftables, interfaces }
 * ```
 *
 * ## Agreement with the engine
 * Each layer runs on the tool that sees it — DNS on the resolver (RPZ), network on the firewall (nftables),
 * HTTP on the proxy (squid) — and gives the engine's decision for what that tool sees: the rules of the layer
 * (`RULE_LAYERS`; `app` is DNS and network) are read from the engine's own `compile`, in its order (policy
 * precedence ascending, ties by id, then rule position), enabled policies and rules only, and the first match
 * decides in each artefact as in the engine. QoS rules (qos policies, qos actions) classify and are not
 * enforced by these artefacts.
 * - RPZ: block → NXDOMAIN, rewrite → `A` (IPv4 target) or `CNAME` (host target), allow → passthru where it
 *   overrides a parent's block. The resolver matches the most specific name, the engine the first rule: each
 *   listed domain gets the engine's decision for it and its subdomains (see rpz.ts), so both agree.
 * - nftables: block → reject/drop, allow → accept, route → accept (with `routeMarks[target]` as fwmark),
 *   nothing → accept; decided on a connection's first packet.
 * - squid: block → deny, anything else → allow, nothing → allow.
 *
 * ## What each tool cannot see (left out, reported in `skipped`)
 * - RPZ: a resolver knows neither the port nor the location of the client, nor who it is: rules with ports or
 *   locations are left out; rules of policies for some subjects are left out unless `subject` asks for the
 *   zone as one subject sees it (one zone per subject, mapped to its clients by views or unbound tags);
 *   scheduled rules are left out unless `at` gives the time the zone is built for (rebuild at the next
 *   boundary).
 * - nftables: sees addresses only: subjects through `subjectAddresses` (their tunnel addresses), GEO through
 *   `lookupCountryRanges` (a rule naming countries without ranges is reported and matches nothing), IPv6
 *   destinations not at all (the engine decides IPv4 only). Schedules use `meta day` / `meta hour`: load with
 *   TZ=UTC.
 * - squid: without SSL bumping only the host of HTTPS requests; `time` ACLs follow squid's clock (TZ=UTC).
 *
 * ## Safety
 * Everything from users is checked before it is written: domains are the engine's normalised form
 * (`normalizeDomainItem`, `normalizeHost`) and must be plain DNS names; addresses are parsed and printed back
 * canonically; paths, keywords and extensions must be RFC 3986 characters and are escaped as regex literals;
 * comments keep only `[A-Za-z0-9._:@/+=-]`. What fails is reported as `{ policyId, ruleId, item, reason }` in
 * `skipped` (see {@link SkipReason}) and never reaches the text. Bad options (keys, addresses, ports, serial,
 * zone name) throw {@link GatewayConfigError}.
 *
 * ## Server integration
 * Provide: `subjectAddresses` (tunnel addresses of each user's, group members' and device's devices), the
 * country ranges matching the engine's `lookupCountry`, an RPZ `serial` that grows with every change, and
 * the peers of the gateway. Install the artefacts with `wg-quick`/`wg syncconf`, `TZ=UTC nft -f`, the
 * resolver's RPZ (`rpz.palisade.`, reload on serial change), and a squid `include` after the proxy's own
 * access rules.
 */
export type { EngineInput } from '@palisade/policy-engine';
export {
  audiencesText,
  EVERYONE_TAG,
  parseAudiences,
  type RpzAudience,
  rpzAudiences,
  subjectAddressesOf,
  type TunnelIdentity,
} from './audiences';
export {
  GatewayConfigError,
  type Generated,
  type Skipped,
  type SkipReason,
  type Subject,
} from './common';
export { generateKeyPair, type KeyPair, publicKeyOf } from './keys';
export {
  NFLOG_GROUP,
  type NftablesOptions,
  nflogRuleId,
  nftablesRuleset,
  type SubjectAddresses,
  WEB_PORTS,
} from './nftables';
export { type RpzOptions, rpzZone } from './rpz';
export { SITE_FLOW_MARKS, type SiteArtefacts, type SiteOptions, siteArtefacts } from './site';
export {
  SQUID_LOGFORMAT,
  SQUID_NOTE,
  SQUID_PAGE_PORT_NAME,
  type SquidDecision,
  type SquidOptions,
  squidAcl,
  squidDecisionOf,
  squidLogging,
} from './squid';
export { SQUID_PORTS, STEERING_TABLE, type SteeringOptions, steeringRuleset } from './steering';
export { bundleVersion } from './version';
export {
  PRIVATE_KEY_PLACEHOLDER,
  type WireguardOptions,
  type WireguardPeer,
  wireguardConfig,
} from './wireguard';
export { ZTNA_PROTOCOLS, type ZtnaEntry, type ZtnaOptions, ztnaRuleset } from './ztna';
