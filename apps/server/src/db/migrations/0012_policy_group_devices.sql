-- Devices in policy groups become references to enrolled devices: removing a device takes it out of every
-- policy group (nothing dangles), and a policy group names its devices. Ids kept as free text before devices
-- existed carry over where they name a device of the tenant; the others named nothing and are dropped.
CREATE TABLE policy_group_devices (
  tenant_id uuid NOT NULL,
  policy_group_id uuid NOT NULL,
  device_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, policy_group_id, device_id),
  FOREIGN KEY (tenant_id, policy_group_id) REFERENCES policy_groups (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, device_id) REFERENCES devices (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_group_devices_device ON policy_group_devices (tenant_id, device_id);

INSERT INTO policy_group_devices (tenant_id, policy_group_id, device_id)
SELECT DISTINCT policy_groups.tenant_id, policy_groups.id, devices.id
FROM policy_groups
CROSS JOIN unnest(policy_groups.device_ids) AS given (id)
JOIN devices ON devices.tenant_id = policy_groups.tenant_id AND devices.id::text = lower(trim(given.id));

ALTER TABLE policy_groups DROP COLUMN device_ids;

GRANT SELECT, INSERT, UPDATE, DELETE ON policy_group_devices TO palisade_app;
ALTER TABLE policy_group_devices ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_group_devices USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
