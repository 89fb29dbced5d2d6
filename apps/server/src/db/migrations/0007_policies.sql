-- Policies and the objects their rules use (issue 4). Rules keep their object references as id arrays
-- (categories, feeds, locations; app ids inside `url`): shipped objects (app catalog, category database,
-- built-in feeds) are not rows, so a foreign key cannot guard them. Deleting an object therefore goes through
-- the service, which removes it from every rule in the same transaction (and the where-used view shows that
-- cascade first). Nothing dangles: lint reports any reference it cannot resolve.

CREATE TABLE policies (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  type text NOT NULL CHECK (type IN ('route', 'qos', 'other')),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  -- Order inside the policy's list (qos / user / device); lower decides first.
  precedence integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policies_name ON policies (tenant_id, lower(name));
CREATE INDEX policies_order ON policies (tenant_id, type, precedence);

CREATE TABLE policy_rules (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  policy_id uuid NOT NULL,
  position integer NOT NULL,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('ROUTE', 'GEO', 'DNS_REWRITE', 'app', 'dmn', 'url', 'SQUID_DMN', 'SQUID_KEYWORD', 'SQUID_FILEEXT')),
  url text NOT NULL DEFAULT '',
  action text NOT NULL CHECK (action IN ('allow', 'block', 'rewrite', 'route', 'qos')),
  target text NOT NULL DEFAULT '',
  ports text NOT NULL DEFAULT '',
  categories text[] NOT NULL DEFAULT '{}',
  feeds text[] NOT NULL DEFAULT '{}',
  locations text[] NOT NULL DEFAULT '{}',
  schedule jsonb,
  enabled boolean NOT NULL DEFAULT true,
  issysgen boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, policy_id) REFERENCES policies (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_rules_policy ON policy_rules (tenant_id, policy_id, position);
CREATE INDEX policy_rules_categories ON policy_rules USING gin (categories);
CREATE INDEX policy_rules_feeds ON policy_rules USING gin (feeds);
CREATE INDEX policy_rules_locations ON policy_rules USING gin (locations);

CREATE TABLE policy_groups (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Devices arrive with the devices issue; their ids are kept as given until then.
  device_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policy_groups_name ON policy_groups (tenant_id, lower(name));

CREATE TABLE policy_group_policies (
  tenant_id uuid NOT NULL,
  policy_group_id uuid NOT NULL,
  policy_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, policy_group_id, policy_id),
  FOREIGN KEY (tenant_id, policy_group_id) REFERENCES policy_groups (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, policy_id) REFERENCES policies (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_group_policies_policy ON policy_group_policies (tenant_id, policy_id);

CREATE TABLE policy_group_groups (
  tenant_id uuid NOT NULL,
  policy_group_id uuid NOT NULL,
  group_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, policy_group_id, group_id),
  FOREIGN KEY (tenant_id, policy_group_id) REFERENCES policy_groups (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, group_id) REFERENCES groups (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_group_groups_group ON policy_group_groups (tenant_id, group_id);

CREATE TABLE policy_group_users (
  tenant_id uuid NOT NULL,
  policy_group_id uuid NOT NULL,
  user_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, policy_group_id, user_id),
  FOREIGN KEY (tenant_id, policy_group_id) REFERENCES policy_groups (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_group_users_user ON policy_group_users (tenant_id, user_id);

-- Pinned expectations: a change that breaks one is refused.
CREATE TABLE policy_tests (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  request jsonb NOT NULL,
  expect text NOT NULL CHECK (expect IN ('allow', 'block')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE policy_locations (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  networks text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policy_locations_name ON policy_locations (tenant_id, lower(name));

-- Custom apps; the shipped catalog lives in code. appid is `custom-<slug>`.
CREATE TABLE policy_apps (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  appid text NOT NULL,
  appname text NOT NULL,
  category text NOT NULL DEFAULT 'custom',
  domains text[] NOT NULL DEFAULT '{}',
  ips text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, appid)
);
CREATE UNIQUE INDEX policy_apps_name ON policy_apps (tenant_id, lower(appname));

-- Apps blocked for the whole tenant (catalog or custom appids).
CREATE TABLE policy_blocked_apps (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  appid text NOT NULL,
  PRIMARY KEY (tenant_id, appid)
);

-- Custom categories; shipped ones live in code.
CREATE TABLE policy_categories (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  domains text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policy_categories_name ON policy_categories (tenant_id, lower(name));

-- Per-category tenant action for shipped and custom categories (absent = none).
CREATE TABLE policy_category_actions (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  category_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('allow', 'block')),
  PRIMARY KEY (tenant_id, category_id)
);

-- Uploaded and URL feeds with their entries; built-in feeds live in code, their enabled state here.
CREATE TABLE policy_feeds (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('builtin', 'upload', 'url')),
  url text,
  file_name text,
  refresh_minutes integer,
  enabled boolean NOT NULL DEFAULT true,
  ips text[] NOT NULL DEFAULT '{}',
  domains text[] NOT NULL DEFAULT '{}',
  last_refreshed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policy_feeds_name ON policy_feeds (tenant_id, lower(name));

CREATE TABLE policy_geo_blocked (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  country text NOT NULL,
  PRIMARY KEY (tenant_id, country)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON policies, policy_rules, policy_groups, policy_group_policies,
  policy_group_groups, policy_group_users, policy_tests, policy_locations, policy_apps, policy_blocked_apps,
  policy_categories, policy_category_actions, policy_feeds, policy_geo_blocked TO palisade_app;

ALTER TABLE policies ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_group_policies ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_group_groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_group_users ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_tests ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_locations ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_apps ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_blocked_apps ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_categories ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_category_actions ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_feeds ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_geo_blocked ENABLE ROW LEVEL SECURITY;

CREATE POLICY tenant_isolation ON policies USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_rules USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_groups USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_group_policies USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_group_groups USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_group_users USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_tests USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_locations USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_apps USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_blocked_apps USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_categories USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_category_actions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_feeds USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON policy_geo_blocked USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
