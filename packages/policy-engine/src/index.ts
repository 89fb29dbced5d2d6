/**
 * # @palisade/policy-engine
 *
 * Compiles a tenant's policies into an immutable structure and decides requests against it. Pure: no I/O.
 *
 * ```ts
 * const compiled = compile({ policies, objects }, { lookupCountry });
 * decide(compiled, { userId, groups, host: 'a.example.com', path: '/x', ip: '1.2.3.4', port: 443 });
 * explain(compiled, request); // the same decision with a step per rule
 * lint({ policies, objects });
 * parseDestination('https://Host.example.com:8443/a/b?x'); // { host, path: '/a/b?x', ip: null, port: 8443 }
 * ```
 *
 * ## Order
 * Fixed layer order **DNS → network → HTTP**, then **QoS** classification. Inside a layer the first matching
 * rule decides: policies ordered by `precedence` ascending (ties by id), rules by their position in the
 * policy. Only enabled policies and enabled rules count. Rules of `qos` policies (and rules whose action is
 * `qos`) are evaluated only in the QoS layer, where they match on every layer their type belongs to; the
 * first match sets `qos = target` (the action is not enforced there), default `DEFAULT_SESSION_QOS`.
 * Rules of other policies are evaluated in the layers of `RULE_LAYERS[type]` (`app`: DNS and network).
 *
 * ## Who
 * A policy applies when `appliesTo` is null (everyone), or the request's user is in `users`, one of its
 * groups in `groups`, or its device in `devices`.
 *
 * ## Conditions of a rule
 * - `locations` non-empty: the source address lies in one of those locations' networks (unknown → no match).
 * - `ports` non-empty: the destination port is in the list (`80,443,8000-8080`; unknown port → no match).
 * - `schedule`: the request time (UTC; now when absent) falls on one of the days and in `[from, to)`; a window
 *   with `from > to` wraps midnight (`22:00–06:00`), counted on the weekday of the request time.
 *
 * ## Matchers (items from `splitMatcher(url)`, lower-cased)
 * - `dmn`, `SQUID_DMN`, `DNS_REWRITE`: domains by LABEL SUFFIX (`example.com` matches `example.com` and
 *   `a.example.com`, not `badexample.com` or `example.com.evil.net`); `*` is any host; `*.x` and `.x` are `x`.
 *   `dmn` and `SQUID_DMN` also match the domains of the rule's `categories` and `feeds`. No host → no match.
 *   Hosts are lower-cased and lose a trailing dot; an IPv4 host is treated as the destination address.
 * - `app`: app ids; DNS layer: the apps' domains (label suffix); network layer: the apps' IPs/CIDRs.
 * - `ROUTE`: IPs or CIDRs on the destination address, plus the `feeds`' IPs; `*` or `0.0.0.0/0` is any
 *   destination (also one whose address is unknown).
 * - `GEO`: ISO country codes (any case) or `*`, on `destinationCountry ?? lookupCountry(ip)`; an unknown
 *   country matches only `*`.
 * - `url`: `host[/path-prefix]` (scheme stripped): host by label suffix and the path starts with the prefix
 *   (case-sensitive). The HTTP layer runs only when the request has a path.
 * - `SQUID_KEYWORD`: case-insensitive substring of the path including the query.
 * - `SQUID_FILEEXT`: extension of the last path segment before `?`/`#` (`exe` or `.exe`; `tar.gz` works).
 *
 * ## Actions
 * - DNS: `block` ends everything (decision block); `allow` decides the layer and evaluation continues;
 *   `rewrite` sets `rewrite = target` and, when the target is an IPv4 address, the destination address (and
 *   so its country) for the later layers; `route` (an app rule) sets the gateway.
 * - Network: `block` ends; `route` sets `gateway = target` and counts as allow; `allow` continues.
 * - HTTP: `block` ends; `allow`.
 * - The result's `rule` is the blocking rule, else the last allow/route/rewrite rule matched (HTTP, then
 *   network, then DNS), else null with layer null (the default: allow). A blocked request has no rewrite,
 *   gateway or QoS class (`DEFAULT_SESSION_QOS`); the QoS layer is not reached.
 *
 * ## Explain
 * One {@link TraceStep} per rule and layer it belongs to, in evaluation order: `matched` (values: `item`,
 * `action`, `target`), `no-match` (why: host, address, country, URL, keyword, extension, location, port,
 * schedule), `skipped` (policy or rule disabled, not for this subject, decided by an earlier rule, layer not
 * reached after a block, HTTP layer without a path), and a `default` step for each reached layer nothing
 * matched in. Reasons are translation keys (`TRACE_REASONS`, `policy.trace.*`). `categories` and `apps` are
 * the names of the categories and apps whose domains cover the host; countries are upper-case ISO codes.
 *
 * ## Destinations
 * {@link parseDestination} reads what an operator types: a URL (`http` → port 80, `https` → 443, path with
 * query, at least `/`), `domain`, `domain:port`, `a.b.c.d`, `a.b.c.d:port`; a scheme-less `host/path` is an
 * `http://` URL; a bare domain has no path (not HTTP). Hosts are lower-cased (punycode for IDNs), lose a
 * trailing dot; an IPv4 host is returned as `ip` with `host` null. Unusable input gives all nulls.
 *
 * ## Performance
 * Every rule gets an ordinal (its position in evaluation order); a layer's answer is the smallest ordinal
 * whose matcher hits and whose subject and conditions pass. `compile` indexes instead of scanning:
 * - domains of domain, category, feed and app rules and the hosts of URL rules, for all layers, in one
 *   open-addressing table (host-index.ts) probed by all label suffixes of the host in a single right-to-left
 *   pass (no substrings); each slot record carries, per layer, the first rule filed under the domain and
 *   whether it decides on the hit alone (everyone, no conditions) — the common case touches no rule object;
 * - CIDRs per prefix length (masked address → ordinals), countries, file extensions in Maps;
 * - what cannot be indexed (`*`, keywords, dotted extensions) in short per-layer scan lists.
 * `decide` allocates only its result; `explain` walks every rule and is for the simulator, not the data path.
 *
 * ## Lint
 * See {@link lint}: shadowed / conflict / redundant rules, missing and unused objects, empty matchers.
 *
 * ## Synthetic traffic
 * {@link synthesiseDecisions} (traffic.ts): seeded, plausible requests of a roster of devices (DNS then HTTP(S)
 * for web names, raw flows, a diurnal rhythm, habits per user), each decided by {@link explain} and made into a
 * `decision` event of the gateway protocol; {@link synthesiseConnections} makes their `connection` events. The
 * reference gateway's `--simulate-traffic` and the demo seed's history use them.
 */
export type { Layer, LintFinding, RuleRef, TraceStep } from '@palisade/contracts';
export type {
  CompiledPolicy,
  CompiledPolicyEntry,
  CompiledRule,
  LayerIndex,
  Schedule,
  UrlItem,
} from './compile';
export { compile, LAYER_ORDER, layerOf, matchLayersOf, parsePorts, parseUrlItem } from './compile';
export { decide } from './decide';
export { type Destination, parseDestination } from './destination';
export { labelSuffixMatch, normalizeDomainItem, normalizeHost } from './domain';
export { explain, TRACE_REASONS } from './explain';
export { formatIp, type Net, parseIp, parseNet } from './ip';
export { LINT_MESSAGES, lint } from './lint';
export {
  diurnalShape,
  hashSeed,
  meanShape,
  mulberry32,
  type RosterEntry,
  type SyntheticConnection,
  type SyntheticDecision,
  synthesiseConnections,
  synthesiseDecisions,
  TRAFFIC_SEGMENTS,
  type TrafficConnectionOptions,
  TrafficGenerator,
  type TrafficGeneratorOptions,
  type TrafficOptions,
  type TrafficSegment,
} from './traffic';
export { appliesToSubject, fullTunnelFor, type TunnelSubject } from './tunnel';
export type * from './types';
