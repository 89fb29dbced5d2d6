-- A bulk change of end users can be undone: the job keeps the ids it actually changed (written in the same
-- transaction as each batch), and which job undid it, or which job it undid.
ALTER TABLE import_jobs ADD COLUMN changed_ids uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE import_jobs ADD COLUMN undone_by uuid;
ALTER TABLE import_jobs ADD COLUMN undo_of uuid;
