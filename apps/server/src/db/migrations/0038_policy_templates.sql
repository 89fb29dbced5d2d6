-- Policy templates across tenants (issue 13): a partner (or the platform) keeps policies with the objects they
-- use as a template in its own tenant, applies it to the tenants it manages, and sees where a tenant's copy
-- drifted. A template belongs to the partner's tenant; its version rises on every update.
CREATE TABLE policy_templates (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  source_tenant text NOT NULL,
  -- The snapshot: policies with their own rules, object references by name (TemplatePolicy[]), and the objects.
  policies jsonb NOT NULL,
  objects jsonb NOT NULL,
  updated_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX policy_templates_name ON policy_templates (tenant_id, lower(name));

GRANT SELECT, INSERT, UPDATE, DELETE ON policy_templates TO palisade_app;
ALTER TABLE policy_templates ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_templates FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_templates USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- Which policy of a customer tenant is the copy of which template policy (`template_policy_key`), at which
-- template version, and the hash of its normalised content when applied: drift is the current hash differing.
-- The template lives in another tenant (the partner's), so it is referenced by id without a foreign key.
CREATE TABLE policy_template_links (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  template_id uuid NOT NULL,
  template_policy_key text NOT NULL,
  policy_id uuid NOT NULL,
  applied_version integer NOT NULL,
  applied_hash text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  applied_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, template_id, template_policy_key)
);
CREATE INDEX policy_template_links_template ON policy_template_links (template_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON policy_template_links TO palisade_app;
ALTER TABLE policy_template_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_template_links FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_template_links USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
