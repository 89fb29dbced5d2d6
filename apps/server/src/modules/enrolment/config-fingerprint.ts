import { createHash } from 'node:crypto';

/**
 * The fingerprint of a device's WireGuard configuration: SHA-256 (hex) of its `wg-quick` text, which never holds
 * the private key (a placeholder stands there), so it names the address, resolver, peers, endpoints and routes
 * the device was given. The one stored per device (migration 0044) against the current one says "outdated".
 */
export const configFingerprint = (config: string) => createHash('sha256').update(config).digest('hex');
