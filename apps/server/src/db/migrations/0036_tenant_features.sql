-- Per-tenant feature flags (spec §2 tabs gated by tenant lists, §6) and configuration flags (`/configurations`).
-- One row per tenant that has changed either; a tenant without one follows the defaults (contracts features.ts).
-- `features` and `configurations` hold only the flags someone set ({"webFilter": false}); a flag not named takes
-- its default, so a flag added later reaches every tenant with its default. The access check reads a row by its
-- key on every request to a gated route.
CREATE TABLE tenant_features (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  features jsonb NOT NULL DEFAULT '{}'::jsonb,
  configurations jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_features TO palisade_app;
ALTER TABLE tenant_features ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_features FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_features USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
