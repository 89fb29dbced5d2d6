-- Admin event log: per-tenant retention (days) and indexes for the log's filters and facets.

ALTER TABLE tenants
  ADD COLUMN event_retention_days integer NOT NULL DEFAULT 365
  CHECK (event_retention_days BETWEEN 7 AND 3650);

-- Filter by action (exact or prefix) newest first, and the distinct-action facet (a skip scan).
CREATE INDEX admin_events_action ON admin_events (tenant_id, action, at DESC);
-- Filter by object type newest first, and the distinct-object-type facet.
CREATE INDEX admin_events_object_type ON admin_events (tenant_id, object_type, at DESC);
