import type { Gateway, GatewayKind } from '@palisade/contracts';
import { SITE_GATEWAY_KINDS } from '@palisade/contracts';
import { formatDuration } from '../../../lib/format-time';

/** Whether a kind is a site gateway (a device at a customer site) rather than a cybernode. */
export function isSiteKind(kind: GatewayKind): boolean {
  return (SITE_GATEWAY_KINDS as readonly GatewayKind[]).includes(kind);
}

/**
 * Where a gateway stands with the tenant's policy:
 * - `current`: it enforces the current version;
 * - `behind`: it enforces an older one (or none yet) and has not had the time to catch up;
 * - `drifting`: behind for longer than a long-poll plus a heartbeat (the server's `isDrifting`);
 * - `none`: nothing to compare — retired, not enrolled yet, or the tenant has no policy bundle yet.
 */
export type PolicyState = 'current' | 'behind' | 'drifting' | 'none';

export function policyStateOf(
  gateway: Pick<Gateway, 'status' | 'enrolledAt' | 'enforcedVersion' | 'currentVersion' | 'isDrifting'>,
): PolicyState {
  if (gateway.status === 'retired') return 'none';
  if (gateway.isDrifting) return 'drifting';
  if (gateway.currentVersion === null || gateway.enrolledAt === null) return 'none';
  return gateway.enforcedVersion === gateway.currentVersion ? 'current' : 'behind';
}

/**
 * An uptime as readable text in `locale`, in its two largest adjacent units and no seconds once it is a minute:
 * "3 days, 4 hours", "3 days", "12 minutes", "40 seconds".
 */
export function formatUptime(totalSeconds: number, locale: string): string {
  return formatDuration(totalSeconds * 1000, locale, { style: 'long', maxUnits: 2, smallestUnit: 'minutes' });
}

/** The command that installs and enrols a gateway with its one-time token, against this console's server. */
export function installCommand(token: string, origin: string = window.location.origin): string {
  return `npm run gateway -- --server ${origin} --token ${token}`;
}
