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
      count(*) filter (where usertype = 0 and connstatus = 'connected')::int as connected,
      count(*) filter (where usertype = 0 and isprvaccess)::int as prv,
      count(*) filter (where usertype = 0 and issiauser)::int as sia,
      count(*) filter (where usertype = 0 and isxdrenabled)::int as xdr,
      count(*) filter (where usertype <> 0)::int as admins,
      (select count(*) from groups where tenant_id = ${tenantId})::int as groups
    from users where tenant_id = ${tenantId}`,
  );
  return counts;
}
