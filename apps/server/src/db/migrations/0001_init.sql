-- Tenants, users, groups, sessions, transactions, the admin event log and the mail outbox.
-- Every tenant-owned table leads with tenant_id and is guarded by row-level security for the role
-- palisade_app, which the server assumes (SET LOCAL ROLE) inside every tenant-scoped transaction.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

DO $$
BEGIN
  CREATE ROLE palisade_app NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

CREATE TABLE tenants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  display_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('platform', 'partner', 'customer')),
  parent_id uuid REFERENCES tenants (id),
  themevalue text NOT NULL DEFAULT 'light',
  palette text NOT NULL DEFAULT 'classic',
  primary_color text,
  logo text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tenants_parent ON tenants (parent_id);

CREATE TABLE users (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  username text NOT NULL,
  firstname text NOT NULL,
  lastname text NOT NULL,
  email text NOT NULL,
  usertype smallint NOT NULL DEFAULT 0,
  role text NOT NULL DEFAULT 'user',
  password_hash text,
  totp_secret text,
  totp_pending_secret text,
  is_totp_enabled boolean NOT NULL DEFAULT false,
  is_email_verified boolean NOT NULL DEFAULT false,
  connstatus text NOT NULL DEFAULT 'never',
  isprvaccess boolean NOT NULL DEFAULT false,
  issiauser boolean NOT NULL DEFAULT false,
  isxdrenabled boolean NOT NULL DEFAULT false,
  suci text,
  language text,
  theme text,
  palette text,
  failed_logins integer NOT NULL DEFAULT 0,
  first_failed_at timestamptz,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search text GENERATED ALWAYS AS (lower(username || ' ' || firstname || ' ' || lastname || ' ' || email)) STORED,
  PRIMARY KEY (tenant_id, id)
);
-- Sign-in is by username across tenants, so usernames are unique platform-wide.
CREATE UNIQUE INDEX users_username ON users (lower(username));
CREATE INDEX users_list_username ON users (tenant_id, usertype, username, id);
CREATE INDEX users_list_email ON users (tenant_id, usertype, email, id);
CREATE INDEX users_list_fullname ON users (tenant_id, usertype, firstname, lastname, id);
CREATE INDEX users_list_created ON users (tenant_id, usertype, created_at, id);
CREATE INDEX users_list_connstatus ON users (tenant_id, usertype, connstatus, id);
CREATE INDEX users_search ON users USING gin (search gin_trgm_ops);

CREATE TABLE groups (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX groups_name ON groups (tenant_id, lower(name));

CREATE TABLE user_groups (
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  group_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id, group_id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, group_id) REFERENCES groups (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX user_groups_group ON user_groups (tenant_id, group_id, user_id);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX sessions_user ON sessions (tenant_id, user_id);

-- Verification and second-factor transactions (spec: transid, trans/status/web).
CREATE TABLE transactions (
  id text PRIMARY KEY,
  tenant_id uuid NOT NULL,
  user_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('email_verification', 'otp_sign_in')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'expired')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE admin_events (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id uuid,
  actor_name text NOT NULL,
  ip text,
  action text NOT NULL,
  object_type text NOT NULL,
  object_id text,
  object_name text,
  before jsonb,
  after jsonb,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX admin_events_time ON admin_events (tenant_id, at DESC);

CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Row-level security: the second guard behind repository scoping.
GRANT USAGE ON SCHEMA public TO palisade_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON tenants, users, groups, user_groups, sessions, transactions, admin_events TO palisade_app;

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
ALTER TABLE groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE user_groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE transactions ENABLE ROW LEVEL SECURITY;
ALTER TABLE admin_events ENABLE ROW LEVEL SECURITY;

CREATE POLICY tenant_isolation ON users USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON groups USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON user_groups USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON sessions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON transactions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON admin_events USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
