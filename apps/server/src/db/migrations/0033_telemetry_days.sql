-- Telemetry (issue 12): rollups per UTC day, kept in the same statement as the insert like the hourly ones, so a
-- range of weeks reads its whole days here and only its partial first and last days from the hourly rollups.
-- Per day: events counted by each dimension's value and action (the shape of telemetry_hour_top; kept 400 days).
CREATE TABLE telemetry_day_top (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  day timestamptz NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  decision text NOT NULL,
  events bigint NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, dimension, day, value, decision)
);

-- Per day, gateway, user and device: the connection events (sessions started, time connected, bytes), for secure
-- private access over long ranges (a missing user or device is the nil uuid: keys cannot hold NULL).
CREATE TABLE telemetry_day_sessions (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  day timestamptz NOT NULL,
  gateway_id uuid NOT NULL,
  user_id uuid NOT NULL,
  device_id uuid NOT NULL,
  sessions bigint NOT NULL,
  duration_ms bigint NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (tenant_id, day, gateway_id, user_id, device_id)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON telemetry_day_top, telemetry_day_sessions TO palisade_app;
ALTER TABLE telemetry_day_top ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetry_day_top FORCE ROW LEVEL SECURITY;
ALTER TABLE telemetry_day_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetry_day_sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON telemetry_day_top USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON telemetry_day_sessions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- What is already stored, counted into the new rollups once.
INSERT INTO telemetry_day_top (tenant_id, day, dimension, value, decision, events, bytes)
SELECT tenant_id, date_trunc('day', hour, 'UTC'), dimension, value, decision, sum(events), sum(bytes)
FROM telemetry_hour_top GROUP BY 1, 2, 3, 4, 5;
INSERT INTO telemetry_day_sessions (tenant_id, day, gateway_id, user_id, device_id, sessions, duration_ms, bytes)
SELECT tenant_id, date_trunc('day', at, 'UTC'), gateway_id,
  coalesce(user_id, '00000000-0000-0000-0000-000000000000'), coalesce(device_id, '00000000-0000-0000-0000-000000000000'),
  count(*) FILTER (WHERE action IN ('connected', 'tunnel_up')),
  coalesce(sum(duration_ms) FILTER (WHERE action IN ('disconnected', 'tunnel_down')), 0),
  coalesce(sum(coalesce(bytes_in, 0) + coalesce(bytes_out, 0)), 0)
FROM telemetry_events WHERE kind = 'connection' GROUP BY 1, 2, 3, 4, 5;
