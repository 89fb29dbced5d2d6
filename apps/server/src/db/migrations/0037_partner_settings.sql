-- Partner settings (spec §7 `partner/info/{id}`, `partner/{name}`): a partner's second brand colour and the support
-- contact its customers see, on the partner's own tenant row (the primary colour is tenants.primary_color).
ALTER TABLE tenants ADD COLUMN accent_color text;
ALTER TABLE tenants ADD COLUMN support_email text;
ALTER TABLE tenants ADD COLUMN support_phone text;
ALTER TABLE tenants ADD COLUMN support_url text;
ALTER TABLE tenants ADD COLUMN support_hours text;

-- A partner's logo, served publicly at /api/partner/{name}/logo: PNG, JPEG or WebP of at most 256 kB, checked by
-- its bytes. Kept apart from tenants so that reading a tenant never reads the image.
CREATE TABLE partner_logos (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  bytes bytea NOT NULL CHECK (octet_length(bytes) <= 262144),
  -- A hash of the bytes: the ETag, and the version in the logo's address.
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT, INSERT, UPDATE, DELETE ON partner_logos TO palisade_app;
ALTER TABLE partner_logos ENABLE ROW LEVEL SECURITY;
ALTER TABLE partner_logos FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON partner_logos USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- Deleting a tenant with a grace period: marked with the time it is purged, suspended meanwhile (its sessions, API
-- tokens and sign-in stop at once); `deletion_suspended` says the deletion did the suspending, so that a restore
-- resumes only a tenant that was active before.
ALTER TABLE tenants ADD COLUMN deletion_due_at timestamptz;
ALTER TABLE tenants ADD COLUMN deletion_suspended boolean NOT NULL DEFAULT false;
CREATE INDEX tenants_deletion_due ON tenants (deletion_due_at) WHERE deletion_due_at IS NOT NULL;
