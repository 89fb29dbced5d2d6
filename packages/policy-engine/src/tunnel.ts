import type { EngineInput, EnginePolicy } from './types';

/** Who a device's tunnel is for: the device, its owner (if any) and the owner's groups. */
export interface TunnelSubject {
  deviceId: string;
  userId: string | null;
  groups: readonly string[];
}

/** Whether a policy applies to a subject, as the engine decides it (null `appliesTo`: everyone). */
export function appliesToSubject(policy: EnginePolicy, subject: TunnelSubject): boolean {
  const to = policy.appliesTo;
  if (to == null) return true;
  if (to.devices.includes(subject.deviceId)) return true;
  if (subject.userId !== null && to.users.includes(subject.userId)) return true;
  return subject.groups.some((group) => to.groups.includes(group));
}

/**
 * Whether a device gets a full tunnel: an enabled policy with `fullTunnel` applies to it (through everyone,
 * its owner, the owner's groups or the device itself). Split tunnel otherwise.
 */
export function fullTunnelFor(input: Pick<EngineInput, 'policies'>, subject: TunnelSubject): boolean {
  return input.policies.some(
    (policy) => policy.enabled && policy.fullTunnel === true && appliesToSubject(policy, subject),
  );
}
