import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';

export interface TenantCounts {
  users: number;
  connected: number;
  prv: number;
  sia: number;
  xdr: number;
  admins: number;
  groups: number;
}

/** The tile counts of a tenant in one statement. The dashboard owns no table: it reads users' and groups'. */
export async function tenantCounts(tx: Tx, tenantId: string): Promise<TenantCounts> {
  const [counts] = await queryRows<TenantCounts>(
    tx,
    sql`
    select
      count(*) filter (where usertype = 0)::int as users,
      -- Connected right now: a device of theirs made a tunnel handshake in the last 3 minutes (the gateways'
      -- heartbeats report them), not the stored status, which only a heartbeat or a check-in moves.
      (select count(distinct d.user_id) from devices d join users du
        on du.tenant_id = d.tenant_id and du.id = d.user_id and du.usertype = 0
        where d.tenant_id = ${tenantId} and d.last_seen_at >= now() - interval '3 minutes')::int as connected,
      count(*) filter (where usertype = 0 and isprvaccess)::int as prv,
      count(*) filter (where usertype = 0 and issiauser)::int as sia,
      count(*) filter (where usertype = 0 and isxdrenabled)::int as xdr,
      count(*) filter (where usertype <> 0)::int as admins,
      (select count(*) from groups where tenant_id = ${tenantId})::int as groups
    from users where tenant_id = ${tenantId}`,
  );
  return counts;
}
