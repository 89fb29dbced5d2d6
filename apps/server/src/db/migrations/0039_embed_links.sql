-- Embed links (issue 31): the credential of an embedded dashboard's link, in place of the creator's session id.
-- Read-only, bound to one tenant and the dashboards it names (and, for the per-user dashboard, its user),
-- expiring and revocable. Stored by the SHA-256 of its token. Its creator may be a partner's or the platform's
-- administrator working in the tenant: removing the creator (or the user a per-user link shows) removes the link.
CREATE TABLE embed_links (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  kinds text[] NOT NULL,
  user_id uuid,
  creator_tenant_id uuid NOT NULL,
  creator_id uuid NOT NULL,
  token_hash text NOT NULL,
  prefix text NOT NULL,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (creator_tenant_id, creator_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX embed_links_hash ON embed_links (token_hash);
CREATE INDEX embed_links_list ON embed_links (tenant_id, created_at DESC, id);
CREATE INDEX embed_links_creator ON embed_links (creator_tenant_id, creator_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON embed_links TO palisade_app;
ALTER TABLE embed_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE embed_links FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON embed_links USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
