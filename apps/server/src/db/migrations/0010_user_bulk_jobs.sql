-- Bulk changes and bulk deletes of end users run as jobs too (kind 'userBulk'), in the same table as the CSV
-- imports, so the browser polls their progress the same way. For these jobs `total` is how many users the
-- selection covered, `processed` how many were handled, `updated` how many actually changed; `input` holds the
-- action, the group and the search (never the user ids). `mode` is 'all' for a list of ids (one transaction)
-- and 'valid' for a search (batch by batch, each batch committed on its own).
ALTER TABLE import_jobs DROP CONSTRAINT import_jobs_kind_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_kind_check CHECK (kind IN ('users', 'groups', 'userBulk'));
ALTER TABLE import_jobs ADD COLUMN input jsonb;

-- Deleting many users checks each user's pending transactions (ON DELETE CASCADE): without an index that is a
-- scan of the table per deleted user.
CREATE INDEX transactions_user ON transactions (tenant_id, user_id);
