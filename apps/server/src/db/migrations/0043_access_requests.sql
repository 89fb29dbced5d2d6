-- The block page's "Request access" (issue 23 §3). An end user who hit a block writes a reason; administrators
-- approve (a time-boxed allow of the host for the user behind the request's tunnel address, which policy-core
-- compiles as a system policy until expires_at) or decline it.
--
-- access_requests: one row per request. source_key is what the public form is rate-limited by (the tunnel
-- address the gateway named, or the caller's address); user_id / device_id are who was behind the tunnel
-- address when the request was made (null when nobody was). status moves pending → approved | declined, and an
-- approval past expires_at → expired (the minutely sweep).
CREATE TABLE access_requests (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  reference text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined', 'expired')),
  block_type text NOT NULL,
  rule_id text NOT NULL,
  rule_kind text,
  host text NOT NULL,
  url text,
  client text,
  source_key text NOT NULL,
  user_id uuid,
  device_id uuid,
  reason text NOT NULL,
  decided_at timestamptz,
  decided_by text,
  expires_at timestamptz,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX access_requests_list ON access_requests (tenant_id, status, created_at DESC);
CREATE INDEX access_requests_source ON access_requests (tenant_id, source_key, created_at);
CREATE INDEX access_requests_active ON access_requests (expires_at) WHERE status = 'approved';

GRANT SELECT, INSERT, UPDATE, DELETE ON access_requests TO palisade_app;
ALTER TABLE access_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE access_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON access_requests USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
