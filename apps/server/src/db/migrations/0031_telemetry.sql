-- Telemetry (issue 12): the events gateways post, in one table partitioned by UTC day (the telemetry module
-- creates the days ahead and drops those past retention: no DEFAULT partition, so an event dated where no
-- partition is refused rather than hidden), and rollups kept in the same statement as the insert (only rows that
-- were new count), so dashboards never scan raw events for long ranges. The gateway's own event id makes a batch
-- sent twice count once; the primary key carries `at`, as a partitioned table's keys must.
CREATE TABLE telemetry_events (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  gateway_id uuid NOT NULL,
  event_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('connection', 'decision', 'device', 'metric')),
  -- connection and device: what happened; decision: allow or block.
  action text,
  layer text,
  user_id uuid,
  device_id uuid,
  destination text,
  port integer,
  protocol text,
  category text,
  app text,
  country text,
  rule_id text,
  rule_name text,
  threat text,
  duration_ms bigint,
  bytes_in bigint,
  bytes_out bigint,
  -- What else the event said (a connection's peer and endpoint, a device event's detail, a gateway's load).
  detail jsonb,
  PRIMARY KEY (tenant_id, at, gateway_id, event_id)
) PARTITION BY RANGE (at);
-- The event screens: one kind of one tenant, newest first.
CREATE INDEX telemetry_events_kind ON telemetry_events (tenant_id, kind, at DESC);

-- Per minute: how many events of each kind, layer and decision, and their bytes (kept 8 days).
CREATE TABLE telemetry_minute (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  kind text NOT NULL,
  layer text NOT NULL DEFAULT '',
  decision text NOT NULL DEFAULT '',
  events bigint NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, minute, kind, layer, decision)
);

-- Per hour: events counted by each dimension's value (kind, layer, gateway, destination, category, app, country,
-- threat, user, device, rule) and their action (a decision's allow or block, a connection's or a device event's
-- action), for the series and top lists of long ranges (kept 400 days).
CREATE TABLE telemetry_hour_top (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  decision text NOT NULL,
  events bigint NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, hour, dimension, value, decision)
);
CREATE INDEX telemetry_hour_top_dimension ON telemetry_hour_top (tenant_id, dimension, hour);

GRANT SELECT, INSERT, UPDATE, DELETE ON telemetry_events, telemetry_minute, telemetry_hour_top TO palisade_app;
ALTER TABLE telemetry_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetry_events FORCE ROW LEVEL SECURITY;
ALTER TABLE telemetry_minute ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetry_minute FORCE ROW LEVEL SECURITY;
ALTER TABLE telemetry_hour_top ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetry_hour_top FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON telemetry_events USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON telemetry_minute USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
CREATE POLICY tenant_isolation ON telemetry_hour_top USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);

-- The events gateways posted before (kept 7 days, untyped) give way to the store above.
DROP TABLE gateway_events;
