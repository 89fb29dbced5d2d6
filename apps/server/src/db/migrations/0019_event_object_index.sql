-- One object's history (a user's recent activity on their page): the log filtered by object id, newest first.
CREATE INDEX admin_events_object_id ON admin_events (tenant_id, object_id, at DESC);
