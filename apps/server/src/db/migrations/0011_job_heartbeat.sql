-- A job says it is alive with every progress write. A job still 'running' whose heartbeat is older than the
-- stale limit (lib/import-jobs.ts) was cut off by a server restart or crash: its progress poll settles it as
-- failed, so the browser stops waiting.
ALTER TABLE import_jobs ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();
