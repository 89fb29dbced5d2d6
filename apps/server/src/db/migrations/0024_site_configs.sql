-- Site gateway configuration (issue 11): the LANs, VLANs, WAN, port forwards and traffic flows an administrator
-- sets for a gateway of kind cgw, cgwr or lgw (packages/contracts/src/site-config.ts, checked before it is
-- stored). One row per configured gateway; a gateway without one has the empty configuration. The server
-- compiles it into the site artefacts of that gateway's bundle.
CREATE TABLE site_configs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  gateway_id uuid NOT NULL,
  config jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The administrator who saved it last.
  updated_by uuid,
  PRIMARY KEY (tenant_id, gateway_id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);

GRANT SELECT, INSERT, UPDATE, DELETE ON site_configs TO palisade_app;
ALTER TABLE site_configs ENABLE ROW LEVEL SECURITY;
ALTER TABLE site_configs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON site_configs USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
