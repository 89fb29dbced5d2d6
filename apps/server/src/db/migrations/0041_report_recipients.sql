-- Scheduled reports are no mail relay (issue 31). A report goes only to a tenant's active administrators and to
-- outside addresses that confirmed a mailed link; each tenant's report mails are counted against a quota.
--
-- report_recipients: the outside addresses a tenant's schedules named, one row per tenant and address (so an
-- address gets one confirmation mail per tenant, however many schedules name it). The link's secret is kept
-- only as its SHA-256 (token_hash, null once used: single use) until token_expires_at; verified_at says it was
-- confirmed. The confirm route finds the row by its hash without a tenant, hence the unique index on it.
CREATE TABLE report_recipients (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  email text NOT NULL,
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'de')),
  token_hash text,
  token_expires_at timestamptz,
  mailed_at timestamptz,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, email)
);
CREATE UNIQUE INDEX report_recipients_token ON report_recipients (token_hash) WHERE token_hash IS NOT NULL;

GRANT SELECT, INSERT, UPDATE, DELETE ON report_recipients TO palisade_app;
ALTER TABLE report_recipients ENABLE ROW LEVEL SECURITY;
ALTER TABLE report_recipients FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON report_recipients USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- report_mails: one row per mail the reports sent or are about to send (kind report or verification), counted
-- for the tenant's hourly and daily quota; rows older than a day are deleted as new ones are added.
CREATE TABLE report_mails (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('report', 'verification')),
  sent_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX report_mails_sent ON report_mails (tenant_id, sent_at);

GRANT SELECT, INSERT, DELETE ON report_mails TO palisade_app;
ALTER TABLE report_mails ENABLE ROW LEVEL SECURITY;
ALTER TABLE report_mails FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON report_mails USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- Why the last scheduled run sent nothing, as a stable code the web translates (report_mail_quota,
-- report_recipients_unverified); last_error keeps the English sentence.
ALTER TABLE report_schedules ADD COLUMN last_error_code text;
