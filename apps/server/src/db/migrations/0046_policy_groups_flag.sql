-- The `policyGroups` configuration flag (spec §6, `/configurations`) now gates policy groups: their screens, their
-- routes and moving devices into one answer "not included" (403 `feature_disabled`) while it is off, and it is off
-- by default (contracts features.ts). A tenant that has policy groups already keeps them: its flag is set on, over
-- whatever else it stored (a tenant without a `tenant_features` row gets one that holds only this). Running it
-- again changes nothing.
INSERT INTO tenant_features (tenant_id, configurations)
SELECT DISTINCT policy_groups.tenant_id, '{"policyGroups": true}'::jsonb
FROM policy_groups
ON CONFLICT (tenant_id) DO UPDATE
SET configurations = tenant_features.configurations || EXCLUDED.configurations,
    updated_at = now()
WHERE tenant_features.configurations -> 'policyGroups' IS DISTINCT FROM 'true'::jsonb;
