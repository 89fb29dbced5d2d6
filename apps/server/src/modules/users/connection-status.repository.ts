import { sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';

/** How recent a device's latest tunnel handshake is while its user counts as connected (the gateway's rule). */
export const USER_CONNECTED_WITHIN_SECONDS = 180;

/**
 * Users' connection status from their devices' last tunnel handshakes, as the gateways report them in their
 * heartbeats (a device's `last_seen_at`, moved by gateways markDevicesSeen and by device check-ins): `connected`
 * while one of their devices was seen within {@link USER_CONNECTED_WITHIN_SECONDS}, else `disconnected` once one
 * was ever seen (or the user was marked connected without a device seen: a seeded or stale status); `never` stays
 * until a device is seen. Answers how many users changed.
 */
export async function refreshConnectionStatus(tx: Tx | Db, tenantId: string): Promise<number> {
  const changed = await queryRows<{ id: string }>(
    tx,
    sql`update users u set connstatus = s.status
      from (
        select u2.id,
          case when max(d.last_seen_at) >= now() - make_interval(secs => ${USER_CONNECTED_WITHIN_SECONDS}::int)
            then 'connected' else 'disconnected' end as status
        from users u2
        left join devices d on d.tenant_id = u2.tenant_id and d.user_id = u2.id and d.last_seen_at is not null
        where u2.tenant_id = ${tenantId} and (d.id is not null or u2.connstatus = 'connected')
        group by u2.id
      ) s
      where u.tenant_id = ${tenantId} and u.id = s.id and u.connstatus is distinct from s.status
      returning u.id`,
  );
  return changed.length;
}
