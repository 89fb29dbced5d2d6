-- The device inventory (issue 11). An endpoint waits for approval when its tenant requires it, can be disabled,
-- and its WireGuard key expires after the tenant's key lifetime: only an active endpoint with an unexpired key
-- is a gateway peer. The client checks in with its device credential: its agent version, the policy version it
-- enforces and its posture checks are kept, and each stretch it was online is a session.
ALTER TABLE devices ADD COLUMN state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'pending', 'disabled', 'expired'));
ALTER TABLE devices ADD COLUMN key_expires_at timestamptz;
ALTER TABLE devices ADD COLUMN agent_version text;
ALTER TABLE devices ADD COLUMN enforced_version text;
ALTER TABLE devices ADD COLUMN posture jsonb NOT NULL DEFAULT '{}';
ALTER TABLE devices ADD COLUMN last_ip text;

-- The list's orders (name, last seen, OS, enrolment), each ending in the id for keyset paging.
CREATE INDEX devices_list_name ON devices (tenant_id, lower(name), id);
CREATE INDEX devices_list_seen ON devices (tenant_id, (coalesce(last_seen_at, 'epoch'::timestamptz)), id);
CREATE INDEX devices_list_os ON devices (tenant_id, os, lower(name), id);
CREATE INDEX devices_list_enrolled ON devices (tenant_id, enrolled_at, id);
-- The search on device names.
CREATE INDEX devices_search ON devices USING gin (lower(name) gin_trgm_ops);

CREATE TABLE device_settings (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  require_approval boolean NOT NULL DEFAULT false,
  key_expiry_days integer CHECK (key_expiry_days IS NULL OR key_expiry_days > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE device_sessions (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  device_id uuid NOT NULL,
  started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  ip text,
  agent_version text,
  PRIMARY KEY (tenant_id, device_id, started_at),
  FOREIGN KEY (tenant_id, device_id) REFERENCES devices (tenant_id, id) ON DELETE CASCADE
);

GRANT SELECT, INSERT, UPDATE, DELETE ON device_settings, device_sessions TO palisade_app;
ALTER TABLE device_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE device_settings FORCE ROW LEVEL SECURITY;
ALTER TABLE device_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE device_sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON device_settings USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON device_sessions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- The sweep that expires keys whose lifetime ended looks only at active endpoints with a lifetime.
CREATE INDEX devices_key_expiry ON devices (key_expires_at) WHERE state = 'active' AND key_expires_at IS NOT NULL;
