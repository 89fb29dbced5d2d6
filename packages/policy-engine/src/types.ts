import type {
  Decision,
  Layer,
  LintFinding,
  PolicyRule,
  PolicyType,
  RuleRef,
  TraceStep,
} from '@palisade/contracts';

/**
 * What the engine compiles: a tenant's policies with their rules, who each applies to, and the objects the
 * rules refer to. The server builds it from the database; nothing here touches I/O.
 */
export interface EnginePolicy {
  id: string;
  name: string;
  type: PolicyType;
  enabled: boolean;
  /** Lower decides first. System policies use very low or very high numbers (see the server's builder). */
  precedence: number;
  /** True for the policies the server derives from the object screens (feeds, categories, geo, blocked apps). */
  system?: boolean;
  rules: readonly PolicyRule[];
  /** Who the policy applies to, from its policy groups; null = everyone in the tenant. */
  appliesTo: { users: readonly string[]; groups: readonly string[]; devices: readonly string[] } | null;
  /**
   * Whether a block of this policy shows the block page (DNS: the gateway's block-page address instead of
   * NXDOMAIN; HTTP: a redirect to the console's `/blockaccess/…`). Default true; the threat-intelligence system
   * policy sets false (NXDOMAIN is safer for malware). Decisions do not depend on it.
   */
  blockPage?: boolean;
  /**
   * Whether the devices this policy applies to use a full tunnel (`AllowedIPs = 0.0.0.0/0, ::/0`, the gateway as
   * resolver) instead of a split one. Default false; decisions do not depend on it.
   */
  fullTunnel?: boolean;
}

export interface EngineObjects {
  apps: readonly { appid: string; appname: string; domains: readonly string[]; ips: readonly string[] }[];
  categories: readonly { id: string; name: string; domains: readonly string[]; custom?: boolean }[];
  feeds: readonly { id: string; name: string; domains: readonly string[]; ips: readonly string[] }[];
  locations: readonly { id: string; name: string; networks: readonly string[] }[];
}

export interface EngineInput {
  policies: readonly EnginePolicy[];
  objects: EngineObjects;
}

export interface CompileOptions {
  /** Country (ISO alpha-2) of an IPv4 address, for GEO rules; null when unknown. */
  lookupCountry?: (ip: string) => string | null;
}

/**
 * A request to decide. Host names are matched case-insensitively; `path` is the URL path with its query
 * (`/download/setup.exe?x=1`), present only for HTTP(S) requests.
 */
export interface EngineRequest {
  userId?: string | null;
  groups?: readonly string[];
  deviceId?: string | null;
  host?: string | null;
  path?: string | null;
  ip?: string | null;
  port?: number | null;
  protocol?: 'tcp' | 'udp';
  sourceIp?: string | null;
  /** Epoch milliseconds; schedules are evaluated in UTC. Now when absent. */
  time?: number;
  /** Overrides for the GeoIP lookup (tests, or a caller that already knows). */
  sourceCountry?: string | null;
  destinationCountry?: string | null;
}

export interface EngineDecision {
  decision: Decision;
  /** The rule that decided: the blocking rule, else the last allowing rule (HTTP, then network, then DNS). */
  rule: RuleRef | null;
  layer: Layer | null;
  rewrite: string | null;
  gateway: string | null;
  /** The QoS class: the target of the first matching rule of a qos policy, else DEFAULT_SESSION_QOS. */
  qos: string;
}

export interface Explanation extends EngineDecision {
  /** Categories and apps the destination host belongs to, and what countries the addresses resolved to. */
  categories: string[];
  apps: string[];
  sourceCountry: string | null;
  destinationCountry: string | null;
  trace: TraceStep[];
}

export type { LintFinding };
