-- Times and numbers machines sent before the contracts bounded them (issue 31): a heartbeat could report a peer's
-- handshake as "infinity" (or year 1970, or 3000, or any string at all). The handshake moved the device's
-- last-seen time to it and stayed in the gateway's peers, and every screen reading them failed: the device list,
-- its page, its export, the compliance report, even deleting the device. The contracts now refuse such values
-- (machine-values.ts: a time from 2000 to 5 minutes ahead of the server's clock, numbers finite and in range);
-- this puts right what is stored. Running it again changes nothing.

-- An ISO time a machine reported, when it is one from 2000 to 5 minutes ahead of now; NULL otherwise (never an
-- error: the old contract took any string). Only for this migration.
CREATE OR REPLACE FUNCTION pg_temp.palisade_machine_time(value text) RETURNS timestamptz
LANGUAGE plpgsql AS $fn$
DECLARE
  at timestamptz;
BEGIN
  IF value IS NULL OR value !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}' THEN
    RETURN NULL;
  END IF;
  at := value::timestamptz;
  IF at < '2000-01-01T00:00:00Z'::timestamptz OR at > now() + interval '5 minutes' THEN
    RETURN NULL;
  END IF;
  RETURN at;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$fn$;

-- A device's last-seen time out of range (±infinity, before 2000, ahead of the clock): back to its latest real
-- check-in, or never seen when it has none.
UPDATE devices d
SET last_seen_at = (
  SELECT max(s.last_seen_at) FROM device_sessions s
  WHERE s.tenant_id = d.tenant_id AND s.device_id = d.id
    AND s.last_seen_at >= '2000-01-01T00:00:00Z'::timestamptz AND s.last_seen_at <= now() + interval '5 minutes'
)
WHERE d.last_seen_at IS NOT NULL
  AND (d.last_seen_at < '2000-01-01T00:00:00Z'::timestamptz OR d.last_seen_at > now() + interval '5 minutes');

-- A gateway's peers as its last heartbeat reported them: a handshake that is no time in range becomes none.
UPDATE gateways g
SET peers = fixed.peers
FROM (
  SELECT gw.tenant_id, gw.id,
    jsonb_agg(
      CASE WHEN jsonb_typeof(e.peer -> 'lastHandshakeAt') <> 'null'
             AND pg_temp.palisade_machine_time(e.peer ->> 'lastHandshakeAt') IS NULL
           THEN jsonb_set(e.peer, '{lastHandshakeAt}', 'null'::jsonb)
           ELSE e.peer END
      ORDER BY e.ord) AS peers
  FROM gateways gw, jsonb_array_elements(gw.peers) WITH ORDINALITY AS e(peer, ord)
  WHERE jsonb_typeof(gw.peers) = 'array'
  GROUP BY gw.tenant_id, gw.id
  HAVING bool_or(
    jsonb_typeof(e.peer -> 'lastHandshakeAt') <> 'null'
    AND pg_temp.palisade_machine_time(e.peer ->> 'lastHandshakeAt') IS NULL)
) fixed
WHERE g.tenant_id = fixed.tenant_id AND g.id = fixed.id;

-- Site performance sums that are not finite numbers (the columns are double precision): that minute's latency
-- or throughput counts as unmeasured.
UPDATE site_metrics
SET latency_ms_sum = 0, latency_samples = 0
WHERE latency_ms_sum IN ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8) OR latency_ms_sum < 0;
UPDATE site_metrics
SET throughput_bps_sum = 0
WHERE throughput_bps_sum IN ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8) OR throughput_bps_sum < 0;

DROP FUNCTION IF EXISTS pg_temp.palisade_machine_time(text);
