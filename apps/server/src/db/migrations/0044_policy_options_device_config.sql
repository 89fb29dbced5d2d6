-- Issue 23: two options per policy, and what a device's downloaded WireGuard configuration was.
-- `block_page`: a block of the policy shows the block page (DNS: the gateway's block-page address instead of
-- NXDOMAIN; HTTP: a redirect to /blockaccess/…). On by default, as for web categories and URL rules; the
-- threat-intelligence system policy is not stored here and keeps NXDOMAIN.
-- `full_tunnel`: the devices the policy applies to send all their traffic through the gateway
-- (AllowedIPs = 0.0.0.0/0, ::/0 with the gateway as their resolver) instead of only the routed networks.
ALTER TABLE policies ADD COLUMN block_page boolean NOT NULL DEFAULT true;
ALTER TABLE policies ADD COLUMN full_tunnel boolean NOT NULL DEFAULT false;

-- The SHA-256 of the configuration last handed out for the device (its `wg-quick` text, which never holds the
-- private key) and when: compared with the current configuration's, it says a downloaded one is outdated.
ALTER TABLE devices ADD COLUMN wg_config_fingerprint text;
ALTER TABLE devices ADD COLUMN wg_config_downloaded_at timestamptz;
