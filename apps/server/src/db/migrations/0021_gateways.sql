-- Gateways (issue 10): cybernodes (cloud points of presence), a tenant's virtual cybernodes and site gateways
-- (kinds cgw, cgwr, lgw). A gateway is created by an administrator with a one-time enrolment token, enrols with
-- its WireGuard public key (its private key never leaves it) and then authenticates with a gateway credential.
-- Tokens and credentials are stored as SHA-256 only. Retired gateways stay for the audit, credential cleared.
CREATE TABLE gateways (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('cybernode', 'virtual', 'cgw', 'cgwr', 'lgw')),
  region text NOT NULL,
  -- Spec §3 Server: ngcn_server_url and ngcn_server_name.
  server_url text,
  server_name text,
  enrolment_token_hash text,
  enrolment_expires_at timestamptz,
  credential_hash text,
  public_key text,
  hostname text,
  version text,
  -- The tunnel address (CIDR) and WireGuard port the server assigned at enrolment.
  wg_address text,
  listen_port integer,
  enrolled_at timestamptz,
  last_seen_at timestamptz,
  -- The bundle version it reported enforcing, and when it first did.
  enforced_version text,
  enforced_at timestamptz,
  -- The last heartbeat's load and tunnel peers.
  metrics jsonb,
  peers jsonb NOT NULL DEFAULT '[]',
  -- An upgrade an administrator asked for: {targetVersion, requestedAt}; done when the version matches.
  upgrade jsonb,
  retired_at timestamptz,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX gateways_enrolment_token ON gateways (enrolment_token_hash) WHERE enrolment_token_hash IS NOT NULL;
CREATE UNIQUE INDEX gateways_credential ON gateways (credential_hash) WHERE credential_hash IS NOT NULL;
CREATE UNIQUE INDEX gateways_public_key ON gateways (public_key) WHERE public_key IS NOT NULL AND retired_at IS NULL;
CREATE UNIQUE INDEX gateways_address ON gateways (tenant_id, wg_address) WHERE wg_address IS NOT NULL AND retired_at IS NULL;
CREATE INDEX gateways_list ON gateways (tenant_id, kind, lower(name), id);

-- Every bundle version compiled for a tenant, newest kept (bounded), so an administrator can push one back.
CREATE TABLE gateway_bundles (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  version text NOT NULL,
  -- The tenant's policy version it was compiled from.
  policy_version bigint NOT NULL,
  artefacts jsonb NOT NULL,
  policy jsonb NOT NULL,
  skipped jsonb NOT NULL DEFAULT '[]',
  -- Set when an administrator pushed this bundle back: it stays current until the policy changes again.
  pinned_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, version)
);
CREATE INDEX gateway_bundles_recent ON gateway_bundles (tenant_id, created_at DESC);

-- Events the gateways post (NDJSON batches) until the telemetry issue's event store takes them; kept for the
-- tenant's event retention. The gateway's own event id makes a batch sent twice count once.
CREATE TABLE gateway_events (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  gateway_id uuid NOT NULL,
  event_id text NOT NULL,
  at timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('connection', 'decision', 'device', 'metric')),
  data jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, gateway_id, event_id),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX gateway_events_at ON gateway_events (tenant_id, at DESC);

GRANT SELECT, INSERT, UPDATE, DELETE ON gateways, gateway_bundles, gateway_events TO palisade_app;
ALTER TABLE gateways ENABLE ROW LEVEL SECURITY;
ALTER TABLE gateways FORCE ROW LEVEL SECURITY;
ALTER TABLE gateway_bundles ENABLE ROW LEVEL SECURITY;
ALTER TABLE gateway_bundles FORCE ROW LEVEL SECURITY;
ALTER TABLE gateway_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE gateway_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON gateways USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON gateway_bundles USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON gateway_events USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
