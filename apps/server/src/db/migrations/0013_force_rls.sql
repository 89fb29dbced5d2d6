-- Row-level security was enabled on every tenant table but never forced, so the tables' owner skipped it.
-- Forcing it leaves only superusers and roles with BYPASSRLS outside it. That is how the server's owner-level
-- access (`database.db`: sign-in look-ups, seeding, cross-tenant reads) keeps working: the DATABASE_URL role
-- must be a superuser or have BYPASSRLS (the tests connect as postgres, a superuser; PGlite's user is one too).
-- Tenant work runs as palisade_app, which is neither, so the policy always applies there.
-- Every table with a tenant_id column is covered, with the same policy as 0001 where one is missing; tables
-- added later must do the same themselves (apps/server/src/db/rls.test.ts fails otherwise).
DO $$
DECLARE
  t regclass;
BEGIN
  FOR t IN
    SELECT c.oid::regclass
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', t);
    IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = t AND polname = 'tenant_isolation') THEN
      EXECUTE format(
        'CREATE POLICY tenant_isolation ON %s USING (tenant_id = NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid)',
        t
      );
    END IF;
  END LOOP;
END $$;
