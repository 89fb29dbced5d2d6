-- CSV imports run as jobs so the browser can show progress; the row lives in the database so any server
-- behind a load balancer can answer the progress poll.
CREATE TABLE import_jobs (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('users')),
  mode text NOT NULL CHECK (mode IN ('all', 'valid')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
  total integer NOT NULL DEFAULT 0,
  processed integer NOT NULL DEFAULT 0,
  created integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]',
  actor_id uuid,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON import_jobs TO palisade_app;
ALTER TABLE import_jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON import_jobs USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
