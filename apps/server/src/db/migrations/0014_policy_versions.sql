-- A version per tenant of everything that decides its requests (policies, rules, order, policy groups, the
-- objects rules use, feeds, devices in policy groups). Every change bumps it in its own transaction and
-- announces it with NOTIFY, so each server instance knows its compiled policy is stale as soon as the change
-- commits. A tenant without a row is at version 0 (nothing changed since it was created).
CREATE TABLE policy_versions (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT, INSERT, UPDATE ON policy_versions TO palisade_app;
ALTER TABLE policy_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_versions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_versions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
