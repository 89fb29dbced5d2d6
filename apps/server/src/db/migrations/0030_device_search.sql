-- The device inventory's search matches a device's name or its owner's username. An OR across devices.name and
-- users.username (through the join) could use neither trigram index and joined every device to its owner. Now
-- each device carries both in one column, `search` (lower(name) || ' ' || lower(owner's username), just the name
-- without an owner): one condition on devices alone, 4-6 times faster at 100 000 devices. The database keeps it in step: a
-- trigger on devices when its name or owner changes, and one on users when a username changes (the users module
-- never writes devices; the trigger does, in the same statement). Both run with the rights of whoever changes
-- the row, so row-level security applies as before: a device and its owner share their tenant.
-- Under row-level security (palisade_app) PostgreSQL does not use a trigram index for LIKE (textlike is not
-- leakproof, so it may not run before the tenant policy): the search scans one column of the tenant's devices.

ALTER TABLE devices ADD COLUMN search text NOT NULL DEFAULT '';

-- What a device's search text is, from its name and its owner's username (null: no owner).
CREATE FUNCTION device_search_text(device_name text, owner_username text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN lower(device_name) || coalesce(' ' || lower(owner_username), '');

CREATE FUNCTION devices_set_search() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.search := device_search_text(
    NEW.name,
    (SELECT u.username FROM users u WHERE u.tenant_id = NEW.tenant_id AND u.id = NEW.user_id)
  );
  RETURN NEW;
END
$fn$;

CREATE TRIGGER devices_search_text BEFORE INSERT OR UPDATE OF name, user_id ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_set_search();

CREATE FUNCTION users_sync_device_search() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE devices d SET search = device_search_text(d.name, NEW.username)
  WHERE d.tenant_id = NEW.tenant_id AND d.user_id = NEW.id;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER users_device_search AFTER UPDATE OF username ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username) EXECUTE FUNCTION users_sync_device_search();

-- The devices there are.
UPDATE devices d
SET search = device_search_text(d.name, (SELECT u.username FROM users u WHERE u.tenant_id = d.tenant_id AND u.id = d.user_id));

-- The name-only trigram index (0023) goes: under row-level security no query of the API could use it (see above),
-- and every device written paid for it.
DROP INDEX devices_search;
