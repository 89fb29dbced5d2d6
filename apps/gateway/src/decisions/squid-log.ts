import type { DecisionEventData } from '@palisade/contracts';
import { squidDecisionOf } from '@palisade/gateway-config';
import type { Attribution } from './attribution';
import { isLoopback } from './unbound-log';

/**
 * HTTP decisions from squid's access log in the `palisade` format (gateway-config squid.ts `SQUID_LOGFORMAT`,
 * parsed by `squidDecisionOf`: the rule's annotation, the client's tunnel address, the host or TLS server name).
 */
export function squidDecisions(
  lines: readonly string[],
  attribution: Attribution,
): ({ at: number } & DecisionEventData)[] {
  const out: ({ at: number } & DecisionEventData)[] = [];
  for (const line of lines) {
    const d = squidDecisionOf(line);
    if (
      d === null ||
      d.host === '' ||
      d.host.length > 253 ||
      isLoopback(d.client) ||
      attribution.isOwn(d.client)
    )
      continue;
    const port = /^https?:\/\/[^/]*:(\d+)/.exec(d.url)?.[1] ?? (d.method === 'CONNECT' ? '443' : '80');
    out.push({
      at: d.at,
      layer: 'http',
      decision: d.action,
      destination: d.host,
      port: Number(port) >= 1 && Number(port) <= 65535 ? Number(port) : null,
      protocol: 'tcp',
      ...attribution.who(d.client),
      ruleId: d.ruleId,
      ruleName: attribution.ruleNameOf(d.ruleId),
      bytes: d.bytes,
      source: 'gateway',
    });
  }
  return out;
}
