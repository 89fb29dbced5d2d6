-- Issue 23: a decision event says who made it — `gateway` (the gateway saw the request: Unbound's log, NFLOG,
-- squid's access log) or `simulated` (`--simulate-traffic`, for demos and benchmarks). The raw events and the
-- rollups the dashboards read carry it, so every dashboard can count both, or leave the simulated ones out,
-- without scanning raw events; the rollups' keys take it last (their existing rows are the gateways').
ALTER TABLE telemetry_events
  ADD COLUMN source text NOT NULL DEFAULT 'gateway' CHECK (source IN ('gateway', 'simulated'));

ALTER TABLE telemetry_minute ADD COLUMN source text NOT NULL DEFAULT 'gateway';
ALTER TABLE telemetry_minute DROP CONSTRAINT telemetry_minute_pkey;
ALTER TABLE telemetry_minute ADD PRIMARY KEY (tenant_id, minute, kind, layer, decision, source);

ALTER TABLE telemetry_hour_top ADD COLUMN source text NOT NULL DEFAULT 'gateway';
ALTER TABLE telemetry_hour_top DROP CONSTRAINT telemetry_hour_top_pkey;
ALTER TABLE telemetry_hour_top ADD PRIMARY KEY (tenant_id, hour, dimension, value, decision, source);

ALTER TABLE telemetry_day_top ADD COLUMN source text NOT NULL DEFAULT 'gateway';
ALTER TABLE telemetry_day_top DROP CONSTRAINT telemetry_day_top_pkey;
ALTER TABLE telemetry_day_top ADD PRIMARY KEY (tenant_id, dimension, day, value, decision, source);
