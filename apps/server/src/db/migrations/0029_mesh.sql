-- The private-access mesh (issue 11, /devices/spa/mesh): one per tenant — whether it is on, the cybernode the
-- devices reach the mesh sites through (the hub; null: directly), the site gateways that form it and the users
-- and groups who are its members. Gateway, user and group ids are lists, not foreign keys: a retired gateway or
-- a deleted user no longer counts and is dropped from the list when the mesh is next saved.
CREATE TABLE device_mesh (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  hub_id uuid,
  site_ids uuid[] NOT NULL DEFAULT '{}',
  user_ids uuid[] NOT NULL DEFAULT '{}',
  group_ids uuid[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT, INSERT, UPDATE, DELETE ON device_mesh TO palisade_app;
ALTER TABLE device_mesh ENABLE ROW LEVEL SECURITY;
ALTER TABLE device_mesh FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON device_mesh USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
