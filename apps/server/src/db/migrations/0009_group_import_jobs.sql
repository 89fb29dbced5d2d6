-- Groups are imported from CSV through the same jobs as end users. A groups import also updates existing
-- groups, so a job counts the objects it changed next to those it created.
ALTER TABLE import_jobs DROP CONSTRAINT import_jobs_kind_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_kind_check CHECK (kind IN ('users', 'groups'));
ALTER TABLE import_jobs ADD COLUMN updated integer NOT NULL DEFAULT 0;
