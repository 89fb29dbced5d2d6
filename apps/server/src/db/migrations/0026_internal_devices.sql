-- Internal devices (issue 11): the hosts a site gateway sees on the networks it serves, from its DHCP leases and
-- ARP table as its heartbeats report them — one row per gateway and MAC address, with when it was first and last
-- seen. They go away with their gateway.
CREATE TABLE internal_devices (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  gateway_id uuid NOT NULL,
  mac text NOT NULL CHECK (mac ~ '^[0-9a-f]{2}(:[0-9a-f]{2}){5}$'),
  ip inet NOT NULL,
  hostname text,
  vendor text,
  source text NOT NULL CHECK (source IN ('dhcp', 'arp')),
  interface text,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);
-- One row per host and gateway: what a heartbeat upserts (and what finds a gateway's stale hosts).
CREATE UNIQUE INDEX internal_devices_host ON internal_devices (tenant_id, gateway_id, mac);

-- The list's orders (last seen, host name with unnamed hosts last, address), each ending in the id for keyset
-- paging.
CREATE INDEX internal_devices_list_seen ON internal_devices (tenant_id, last_seen_at, id);
CREATE INDEX internal_devices_list_name ON internal_devices
  (tenant_id, ((hostname IS NULL)::int), (lower(coalesce(hostname, ''))), id);
CREATE INDEX internal_devices_list_ip ON internal_devices (tenant_id, ip, id);
-- The search over host name, address, MAC and vendor.
CREATE INDEX internal_devices_search ON internal_devices USING gin
  ((lower(coalesce(hostname, '') || ' ' || host(ip) || ' ' || mac || ' ' || coalesce(vendor, ''))) gin_trgm_ops);

GRANT SELECT, INSERT, UPDATE, DELETE ON internal_devices TO palisade_app;
ALTER TABLE internal_devices ENABLE ROW LEVEL SECURITY;
ALTER TABLE internal_devices FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON internal_devices USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
