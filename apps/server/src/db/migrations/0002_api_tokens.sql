-- Per-administrator API tokens (Authorization: Bearer pal_…). Only the SHA-256 of the secret is stored; the
-- prefix (its first 8 characters) lets the owner recognise a token in lists. Revoked tokens stay for the audit.

CREATE TABLE api_tokens (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL,
  name text NOT NULL,
  token_hash text NOT NULL,
  prefix text NOT NULL,
  permissions text[] NOT NULL DEFAULT '{}',
  is_read_only boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX api_tokens_hash ON api_tokens (token_hash);
CREATE INDEX api_tokens_user ON api_tokens (tenant_id, user_id, created_at DESC, id);

GRANT SELECT, INSERT, UPDATE, DELETE ON api_tokens TO palisade_app;
ALTER TABLE api_tokens ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api_tokens USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
