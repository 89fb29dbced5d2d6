-- The partner console (/admin-console): a managed tenant can be suspended (its people cannot sign in, its API
-- tokens stop) and resumed; the list pages by partner and name, and by creation, at 10 000 tenants.
ALTER TABLE tenants ADD COLUMN suspended_at timestamptz;
CREATE INDEX tenants_parent_name ON tenants (parent_id, name);
CREATE INDEX tenants_kind_name ON tenants (kind, name);
CREATE INDEX tenants_parent_created ON tenants (parent_id, created_at, id);

-- Partner-edit mode (spec §3/§6 `target`): the managed tenant a partner's session opened, and whether in edit
-- mode. A session that opened a tenant read-only writes in no managed tenant; one that opened it in edit mode
-- writes only there.
ALTER TABLE sessions ADD COLUMN target_tenant_id uuid REFERENCES tenants (id) ON DELETE SET NULL;
ALTER TABLE sessions ADD COLUMN target_edit boolean;
-- Who acted from another tenant: the partner's (or the platform's) name, shown as "partner X acting in tenant Y".
ALTER TABLE admin_events ADD COLUMN acting_from text;
