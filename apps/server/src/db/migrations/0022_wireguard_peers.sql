-- WireGuard between devices and gateways (issue 10): a device that enrols with its own WireGuard public key (its
-- private key never leaves it) gets a tunnel address — host number wg_host of the tenant's 100.64.0.0/16 — and
-- becomes a peer of every enrolled gateway of its tenant; a gateway names the endpoint devices reach it at.
ALTER TABLE devices ADD COLUMN wg_public_key text;
ALTER TABLE devices ADD COLUMN wg_host integer CHECK (wg_host BETWEEN 2 AND 65534);
CREATE UNIQUE INDEX devices_wg_public_key ON devices (tenant_id, wg_public_key) WHERE wg_public_key IS NOT NULL;
CREATE UNIQUE INDEX devices_wg_host ON devices (tenant_id, wg_host) WHERE wg_host IS NOT NULL;

ALTER TABLE gateways ADD COLUMN endpoint text;
