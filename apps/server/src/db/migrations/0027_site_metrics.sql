-- Site performance (issue 11, /devices/site-performance): each site gateway's heartbeats rolled up per minute —
-- how many arrived (12 expected at one per 5 s: the rest were lost), the round-trip time the gateway measured for
-- its previous heartbeat, throughput and tunnels. One row per gateway and minute, written by the heartbeat;
-- kept 30 days (the telemetry issue's event store takes over longer ranges).
CREATE TABLE site_metrics (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  gateway_id uuid NOT NULL,
  minute timestamptz NOT NULL,
  heartbeats integer NOT NULL DEFAULT 0,
  latency_ms_sum double precision NOT NULL DEFAULT 0,
  latency_samples integer NOT NULL DEFAULT 0,
  throughput_bps_sum double precision NOT NULL DEFAULT 0,
  active_peers_max integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, gateway_id, minute),
  FOREIGN KEY (tenant_id, gateway_id) REFERENCES gateways (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX site_metrics_minute ON site_metrics (minute);

GRANT SELECT, INSERT, UPDATE, DELETE ON site_metrics TO palisade_app;
ALTER TABLE site_metrics ENABLE ROW LEVEL SECURITY;
ALTER TABLE site_metrics FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON site_metrics USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
