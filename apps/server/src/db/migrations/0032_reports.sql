-- Reports (issue 12, /reports/...): the weekly mailings of a report. Each schedule says which report, when
-- (weekday 0 = Sunday … 6, an hour, an IANA time zone), in which language and to whom (at most 20 addresses).
-- next_run_at is when it is next due (computed with croner in the schedule's time zone; null while disabled):
-- the runner claims due rows with FOR UPDATE SKIP LOCKED and moves next_run_at on in the same transaction, so
-- several server instances never mail one run twice.
CREATE TABLE report_schedules (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('dsb', 'analytics', 'weekly-sase-insights', 'security-compliance')),
  weekday smallint NOT NULL CHECK (weekday BETWEEN 0 AND 6),
  hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  timezone text NOT NULL,
  recipients text[] NOT NULL,
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'de')),
  enabled boolean NOT NULL DEFAULT true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX report_schedules_due ON report_schedules (next_run_at) WHERE enabled;

GRANT SELECT, INSERT, UPDATE, DELETE ON report_schedules TO palisade_app;
ALTER TABLE report_schedules ENABLE ROW LEVEL SECURITY;
ALTER TABLE report_schedules FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON report_schedules USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- A mail of the local outbox may carry files (a report's PDF): [{filename, contentType, content (base64)}].
ALTER TABLE mail_outbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]';
