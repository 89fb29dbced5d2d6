import type { DeploymentKey } from '@palisade/contracts';

/** Where a deployment key stands now. */
export type KeyStatus = 'active' | 'expired' | 'exhausted' | 'revoked';

/** Revoked first, then expired, then used up (as many uses as allowed); otherwise active. */
export function keyStatus(key: DeploymentKey, now = Date.now()): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
  if (key.maxUses !== null && key.uses >= key.maxUses) return 'exhausted';
  return 'active';
}
