-- Private access through site gateways (issue 11): private services publish an internal host's ports, ZTNA
-- firewall rules let users and groups reach internal hosts or networks; both belong to one site gateway and go
-- away with it. Who may reach them is a list of user and group ids (not foreign keys: a deleted user or group
-- no longer matches and is dropped from the list when the entry is next saved).
CREATE TABLE private_services (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  gateway_id uuid NOT NULL,
  address text NOT NULL,
  protocol text NOT NULL CHECK (protocol IN ('tcp', 'udp')),
  ports text NOT NULL,
  user_ids uuid[] NOT NULL DEFAULT '{}',
  group_ids uuid[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX private_services_name ON private_services (tenant_id, lower(name));

CREATE TABLE ztna_rules (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  gateway_id uuid NOT NULL,
  destination text NOT NULL,
  protocol text NOT NULL CHECK (protocol IN ('tcp', 'udp', 'any')),
  ports text,
  user_ids uuid[] NOT NULL DEFAULT '{}',
  group_ids uuid[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE,
  CHECK (protocol <> 'any' OR ports IS NULL)
);
CREATE UNIQUE INDEX ztna_rules_name ON ztna_rules (tenant_id, lower(name));

GRANT SELECT, INSERT, UPDATE, DELETE ON private_services, ztna_rules TO palisade_app;
ALTER TABLE private_services ENABLE ROW LEVEL SECURITY;
ALTER TABLE private_services FORCE ROW LEVEL SECURITY;
ALTER TABLE ztna_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE ztna_rules FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON private_services USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON ztna_rules USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
