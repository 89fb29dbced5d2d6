-- End users can be disabled (is_suspended, as administrators are suspended), with why, by whom and when: a
-- disabled user cannot sign in or connect a device.
ALTER TABLE users ADD COLUMN status_reason text;
ALTER TABLE users ADD COLUMN status_changed_by text;
ALTER TABLE users ADD COLUMN status_changed_at timestamptz;
