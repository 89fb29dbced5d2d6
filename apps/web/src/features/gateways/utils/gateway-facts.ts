import type { Gateway, GatewayKind } from '@palisade/contracts';
import { SITE_GATEWAY_KINDS } from '@palisade/contracts';

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

/** An uptime in its two largest units, e.g. `{days: 3, hours: 4}`; under a minute gives `{seconds}`. */
export function uptimeParts(
  totalSeconds: number,
): Array<{ unit: 'day' | 'hour' | 'minute' | 'second'; value: number }> {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const parts = [
    { unit: 'day' as const, value: Math.floor(seconds / 86_400) },
    { unit: 'hour' as const, value: Math.floor((seconds % 86_400) / 3_600) },
    { unit: 'minute' as const, value: Math.floor((seconds % 3_600) / 60) },
  ];
  const first = parts.findIndex((part) => part.value > 0);
  if (first === -1) return [{ unit: 'second', value: seconds }];
  return parts.slice(first, first + 2).filter((part, index) => index === 0 || part.value > 0);
}

/** An uptime as readable text in `locale`: "3 days, 4 hours", "12 minutes", "40 seconds". */
export function formatUptime(totalSeconds: number, locale: string): string {
  const units = uptimeParts(totalSeconds).map(({ unit, value }) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value),
  );
  return new Intl.ListFormat(locale, { style: 'short', type: 'unit' }).format(units);
}

/** The command that installs and enrols a gateway with its one-time token, against this console's server. */
export function installCommand(token: string, origin: string = window.location.origin): string {
  return `npm run gateway -- --server ${origin} --token ${token}`;
}
