-- End-user devices and how they enrol (issue 3). A device joins a tenant by presenting an enrolment token:
-- a one-off user link (kind link or agentless, per user, expiring) or a reusable deployment key (kind rmm,
-- tenant-wide, for RMM/MDM roll-outs). Tokens and device credentials are stored as SHA-256 only; `prefix` lets an
-- administrator recognise a token in lists. Revoked and used tokens stay for the audit.

CREATE TABLE enrolment_tokens (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('link', 'agentless', 'rmm')),
  -- The user a link enrols for; deployment keys have none.
  user_id uuid,
  name text NOT NULL DEFAULT '',
  token_hash text NOT NULL,
  prefix text NOT NULL,
  -- Groups a deployment key adds the matched user to. Group ids, not a foreign key: a deleted group is skipped.
  auto_group_ids uuid[] NOT NULL DEFAULT '{}',
  expires_at timestamptz,
  max_uses integer CHECK (max_uses IS NULL OR max_uses > 0),
  uses integer NOT NULL DEFAULT 0,
  used_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  -- The administrator who created it; may belong to a partner or the platform, so no foreign key.
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  CHECK ((kind = 'rmm') = (user_id IS NULL)),
  CHECK (kind = 'rmm' OR expires_at IS NOT NULL)
);
CREATE UNIQUE INDEX enrolment_tokens_hash ON enrolment_tokens (token_hash);
CREATE INDEX enrolment_tokens_user ON enrolment_tokens (tenant_id, user_id, created_at DESC) WHERE user_id IS NOT NULL;
CREATE INDEX enrolment_tokens_keys ON enrolment_tokens (tenant_id, created_at DESC) WHERE kind = 'rmm';

CREATE TABLE devices (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id uuid,
  name text NOT NULL,
  os text NOT NULL CHECK (os IN ('windows', 'none', 'linux', 'ios', 'android', 'mac', 'cgw', 'cgwr', 'lgw', 'chrome')),
  connstatus text NOT NULL DEFAULT 'never' CHECK (connstatus IN ('connected', 'disconnected', 'never')),
  enrolled_via text NOT NULL CHECK (enrolled_via IN ('link', 'rmm', 'agentless')),
  -- The link or key it enrolled with.
  enrolment_id uuid,
  -- The device's own credential for check-ins.
  token_hash text NOT NULL,
  enrolled_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  -- A deleted user's devices stay, unassigned (the column list keeps tenant_id; PostgreSQL 15+).
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE SET NULL (user_id),
  FOREIGN KEY (tenant_id, enrolment_id) REFERENCES enrolment_tokens (tenant_id, id) ON DELETE SET NULL (enrolment_id)
);
CREATE UNIQUE INDEX devices_token ON devices (token_hash);
CREATE INDEX devices_user ON devices (tenant_id, user_id, enrolled_at);
CREATE INDEX devices_enrolment ON devices (tenant_id, enrolment_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON enrolment_tokens, devices TO palisade_app;

ALTER TABLE enrolment_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE devices ENABLE ROW LEVEL SECURITY;

CREATE POLICY tenant_isolation ON enrolment_tokens USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON devices USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
