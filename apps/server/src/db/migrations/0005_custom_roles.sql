-- Custom roles: a tenant's own named sets of permissions (module × action). An administrator holds either a
-- built-in role (users.role) or a custom one (users.custom_role_id, with role = 'custom'); a role that is held
-- cannot be deleted, so nothing dangles.
CREATE TABLE custom_roles (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX custom_roles_name ON custom_roles (tenant_id, lower(name));

ALTER TABLE users ADD COLUMN custom_role_id uuid;
ALTER TABLE users ADD CONSTRAINT users_custom_role FOREIGN KEY (tenant_id, custom_role_id)
  REFERENCES custom_roles (tenant_id, id) ON DELETE RESTRICT;
CREATE INDEX users_custom_role ON users (tenant_id, custom_role_id) WHERE custom_role_id IS NOT NULL;

GRANT SELECT, INSERT, UPDATE, DELETE ON custom_roles TO palisade_app;
ALTER TABLE custom_roles ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON custom_roles USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
