-- What a site gateway enforces locally for its own LANs (issue 11: local policies, CGW categories, local geo
-- controls, malicious sites): chosen tenant policies, web categories, countries and threat-intel feeds, by id.
-- Ids, not foreign keys: a deleted policy, category or feed simply no longer applies and is dropped when the
-- controls are next shown or saved.
CREATE TABLE local_controls (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  gateway_id uuid NOT NULL,
  controls jsonb NOT NULL,
  updated_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, gateway_id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);

GRANT SELECT, INSERT, UPDATE, DELETE ON local_controls TO palisade_app;
ALTER TABLE local_controls ENABLE ROW LEVEL SECURITY;
ALTER TABLE local_controls FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON local_controls USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
