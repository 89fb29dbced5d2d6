-- An import can run as a dry run: it reads and checks the file and counts what it would change, writing nothing.
ALTER TABLE import_jobs ADD COLUMN is_dry_run boolean NOT NULL DEFAULT false;
