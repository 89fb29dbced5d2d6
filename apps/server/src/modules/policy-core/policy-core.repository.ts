import { sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { CHANGE_CHANNEL, changePayload } from '../../lib/change-bus';

// The tenant's policy version (`policy_versions`, owned by policy-core): what every instance checks before it
// decides, bumped by every change that affects a decision.

/** The change-bus topic of policy versions; the message is `<tenant id>:<version>`. */
export const POLICY_TOPIC = 'policy';

/** The tenant's policy version, 0 before its first change. One indexed read (owner connection or transaction). */
export async function policyVersion(db: Db | Tx, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ version: string }>(
    db,
    sql`select version::text as version from policy_versions where tenant_id = ${tenantId}`,
  );
  return row ? Number(row.version) : 0;
}

/**
 * Bumps the tenant's policy version in the caller's transaction and announces it on the change bus (NOTIFY is
 * delivered when the transaction commits, and never when it rolls back). The row lock it takes is held to the
 * end of the transaction, so changes to one tenant's policy run one after the other. Answers the new version.
 */
export async function bumpPolicyVersion(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await queryRows<{ version: string }>(
    tx,
    sql`with bumped as (
        insert into policy_versions (tenant_id, version) values (${tenantId}, 1)
        on conflict (tenant_id) do update set version = policy_versions.version + 1, updated_at = now()
        returning version
      )
      select version::text as version,
        pg_notify(${CHANGE_CHANNEL}, ${changePayload(POLICY_TOPIC, `${tenantId}:`)} || version::text)
      from bumped`,
  );
  return Number(row.version);
}
