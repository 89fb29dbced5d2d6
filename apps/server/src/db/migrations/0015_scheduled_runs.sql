-- When each instance-wide scheduled job last ran (the admin event purge), so that of several server instances
-- ticking on their own timers only one runs it per interval: the run is claimed by an atomic conditional
-- upsert of this marker. Not tenant data: only the server's owner connection reads and writes it.
CREATE TABLE scheduled_runs (
  job text PRIMARY KEY,
  last_run_at timestamptz NOT NULL
);
