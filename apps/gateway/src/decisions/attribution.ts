import { type DecisionEventData, type GwBundle, parseIp, parseIpOrCidr } from '@palisade/contracts';
import { type CompiledPolicy, compile, decide } from '@palisade/policy-engine';
import { engineInputOf, rosterOf } from '../simulate';

/** An address as the maps hold it: normalised (the contracts' helper), a block's address without its prefix. */
const addressKey = (text: string) => {
  const t = text.trim();
  return parseIp(t) ?? parseIpOrCidr(t)?.host ?? t;
};

/** Who is behind a tunnel address, as the bundle names them. */
export interface Identity {
  deviceId: string;
  userId: string | null;
  groups: readonly string[];
}

/**
 * What the held bundle says about a request the gateway saw: who is behind its source address (the bundle's
 * `identities`), the names of its rules, and — for a DNS answer, whose log line names the zone but not the
 * rule — the rule the engine (the same one that compiled the zone) decides the name by for that person.
 */
export class Attribution {
  private readonly byAddress = new Map<string, Identity>();
  private readonly ruleNames = new Map<string, string>();
  /** The gateway's own tunnel addresses (`Address =` of its WireGuard artefact). */
  private readonly own = new Set<string>();
  private readonly engine: CompiledPolicy | null;

  /**
   * `previous`: the attribution of the bundle enforced before. While a bundle is applied, Unbound may answer a
   * line by either zone (the old until its reload, the new after), and a line is read up to a tick later: a DNS
   * answer the new bundle's engine does not explain is checked against the previous one before it is left
   * without a rule.
   */
  constructor(
    readonly bundle: GwBundle | null,
    private previous: Attribution | null = null,
  ) {
    if (bundle === null) {
      this.engine = null;
      return;
    }
    for (const entry of rosterOf(bundle)) {
      if (entry.address) {
        this.byAddress.set(addressKey(entry.address), {
          deviceId: entry.deviceId,
          userId: entry.userId,
          groups: entry.groups,
        });
      }
    }
    const wireguard = (bundle.artefacts as { wireguard?: unknown } | undefined)?.wireguard;
    if (typeof wireguard === 'string') {
      for (const m of wireguard.matchAll(/^\s*Address\s*=\s*(.+)$/gm)) {
        for (const part of m[1].split(',')) this.own.add(addressKey(part));
      }
    }
    const input = engineInputOf(bundle.policy);
    for (const policy of input?.policies ?? []) {
      for (const rule of policy.rules ?? []) {
        if (typeof rule.id === 'string' && typeof rule.name === 'string')
          this.ruleNames.set(rule.id, rule.name);
      }
    }
    let engine: CompiledPolicy | null = null;
    try {
      engine = input ? compile(input) : null;
    } catch {
      engine = null;
    }
    this.engine = engine;
  }

  /** Forgets the bundle before this one (one bundle back is what a reload overlaps). */
  forgetPrevious(): void {
    this.previous = null;
  }

  /** One of the gateway's own addresses: its own lookups and connections are not a device's decisions. */
  isOwn(address: string): boolean {
    return this.own.has(addressKey(address));
  }

  /** The device and user behind `address` (null: no device of the bundle has it). */
  identityOf(address: string): Identity | null {
    return this.byAddress.get(addressKey(address)) ?? null;
  }

  /** The rule's name (100 characters at most, as the event takes it), null when the bundle has no such rule. */
  ruleNameOf(ruleId: string | null): string | null {
    if (ruleId === null) return null;
    const name = this.ruleNames.get(ruleId)?.trim();
    return name ? name.slice(0, 100) : (this.previous?.ruleNameOf(ruleId) ?? null);
  }

  /**
   * The DNS rule that decides `host` for the person behind `address` the way the resolver did (`verdict`): the
   * engine's DNS-layer rule when its verdict is the same (this bundle's, else the previous one's), else null
   * (the zone and the engine disagree — the event still says what the resolver did).
   */
  dnsRuleOf(host: string, address: string, verdict: 'allow' | 'block'): string | null {
    return (
      this.ownDnsRuleOf(host, address, verdict) ?? this.previous?.ownDnsRuleOf(host, address, verdict) ?? null
    );
  }

  private ownDnsRuleOf(host: string, address: string, verdict: 'allow' | 'block'): string | null {
    if (this.engine === null) return null;
    const who = this.identityOf(address);
    try {
      const decision = decide(this.engine, {
        host,
        userId: who?.userId ?? null,
        deviceId: who?.deviceId ?? null,
        groups: who?.groups ?? [],
        sourceIp: address,
      });
      if (decision.layer !== 'dns' || decision.rule === null) return null;
      const engineVerdict = decision.decision === 'block' ? 'block' : 'allow';
      return engineVerdict === verdict ? decision.rule.ruleId : null;
    } catch {
      return null;
    }
  }

  /** The identity fields of an event from `address`. */
  who(address: string): Pick<DecisionEventData, 'userId' | 'deviceId'> {
    const identity = this.identityOf(address);
    return { userId: identity?.userId ?? null, deviceId: identity?.deviceId ?? null };
  }
}
