import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows, type Tx } from '../../db/client';
import { tenants, users } from '../../db/schema';

// ---- Partner settings and logo (migration 0037) ------------------------------------------------------------------

export interface PartnerRow {
  id: string;
  name: string;
  displayName: string;
  kind: 'platform' | 'partner' | 'customer';
  parentId: string | null;
  primaryColor: string | null;
  accentColor: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
  supportHours: string | null;
  /** The hash of its logo's bytes, or null without a logo. */
  logoSha256: string | null;
}

/**
 * A tenant by id or by name with its settings and its logo's hash (not the bytes): a partner's settings, or the
 * tenant whose partner a user asks for.
 */
export async function findPartnerRow(db: Db | Tx, by: { id: string } | { name: string }) {
  const where = 'id' in by ? sql`t.id = ${by.id}` : sql`t.name = ${by.name.toLowerCase()}`;
  const [row] = await queryRows<{
    id: string;
    name: string;
    display_name: string;
    kind: PartnerRow['kind'];
    parent_id: string | null;
    primary_color: string | null;
    accent_color: string | null;
    support_email: string | null;
    support_phone: string | null;
    support_url: string | null;
    support_hours: string | null;
    logo_sha256: string | null;
  }>(
    db,
    sql`select t.id, t.name, t.display_name, t.kind, t.parent_id, t.primary_color, t.accent_color,
          t.support_email, t.support_phone, t.support_url, t.support_hours, l.sha256 as logo_sha256
        from tenants t left join partner_logos l on l.tenant_id = t.id
        where ${where} limit 1`,
  );
  if (!row) return null;
  return {
    id: String(row.id),
    name: row.name,
    displayName: row.display_name,
    kind: row.kind,
    parentId: row.parent_id === null ? null : String(row.parent_id),
    primaryColor: row.primary_color,
    accentColor: row.accent_color,
    supportEmail: row.support_email,
    supportPhone: row.support_phone,
    supportUrl: row.support_url,
    supportHours: row.support_hours,
    logoSha256: row.logo_sha256,
  } satisfies PartnerRow;
}

export async function updatePartnerSettings(
  tx: Tx,
  id: string,
  values: {
    displayName: string;
    primaryColor: string | null;
    accentColor: string | null;
    supportEmail: string | null;
    supportPhone: string | null;
    supportUrl: string | null;
    supportHours: string | null;
  },
): Promise<void> {
  await tx
    .update(tenants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(tenants.id, id));
}

/** Stores (or replaces) a partner's logo, in the partner's transaction. */
export async function putLogo(
  tx: Tx,
  tenantId: string,
  logo: { contentType: string; bytes: Buffer; sha256: string },
): Promise<void> {
  await tx.execute(
    sql`insert into partner_logos (tenant_id, content_type, bytes, sha256)
        values (${tenantId}, ${logo.contentType}, decode(${logo.bytes.toString('base64')}, 'base64'), ${logo.sha256})
        on conflict (tenant_id) do update
          set content_type = excluded.content_type, bytes = excluded.bytes, sha256 = excluded.sha256,
              updated_at = now()`,
  );
}

/** Removes a partner's logo; answers whether there was one. */
export async function deleteLogo(tx: Tx, tenantId: string): Promise<boolean> {
  const rows = await queryRows<{ tenant_id: string }>(
    tx,
    sql`delete from partner_logos where tenant_id = ${tenantId} returning tenant_id`,
  );
  return rows.length > 0;
}

/** A partner's logo: its type, bytes and hash, or null. */
export async function readLogo(tx: Tx, tenantId: string) {
  const [row] = await queryRows<{
    content_type: string;
    data: string;
    sha256: string;
    updated_at: string | Date;
  }>(
    tx,
    sql`select content_type, encode(bytes, 'base64') as data, sha256, updated_at
        from partner_logos where tenant_id = ${tenantId}`,
  );
  return (
    row && {
      contentType: row.content_type,
      bytes: Buffer.from(row.data.replace(/\s/g, ''), 'base64'),
      sha256: row.sha256,
      updatedAt: new Date(row.updated_at),
    }
  );
}

// ---- Deletion with a grace period -----------------------------------------------------------------------------------

/**
 * Marks a tenant for deletion at `dueAt` and suspends it (its sessions, tokens and sign-in stop at once), noting
 * whether the deletion did the suspending.
 */
export async function markDeletion(tx: Tx, id: string, dueAt: Date): Promise<void> {
  await tx.execute(
    sql`update tenants set deletion_due_at = ${dueAt.toISOString()}::timestamptz,
          deletion_suspended = (suspended_at is null),
          suspended_at = coalesce(suspended_at, now()), updated_at = now()
        where id = ${id}`,
  );
}

/** Cancels a scheduled deletion: resumes the tenant when the deletion suspended it, else it stays suspended. */
export async function clearDeletion(tx: Tx, id: string): Promise<void> {
  await tx.execute(
    sql`update tenants set deletion_due_at = null,
          suspended_at = case when deletion_suspended then null else suspended_at end,
          deletion_suspended = false, updated_at = now()
        where id = ${id}`,
  );
}

/** The tenants whose deletion is due at `now`, with their partner (for its log), oldest due first. */
export async function dueForPurge(db: Db | Tx, now: Date, limit: number) {
  const rows = await queryRows<{
    id: string;
    name: string;
    parent_id: string | null;
    deletion_due_at: string | Date;
  }>(
    db,
    sql`select id, name, parent_id, deletion_due_at from tenants
        where deletion_due_at is not null and deletion_due_at <= ${now.toISOString()}::timestamptz
        order by deletion_due_at limit ${limit}`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    parentId: r.parent_id === null ? null : String(r.parent_id),
    deletionDueAt: new Date(r.deletion_due_at),
  }));
}

/**
 * Removes a tenant whose deletion is due, and everything it holds: its rows go with it (ON DELETE CASCADE), its
 * users first because `users_custom_role` restricts deleting a custom role still assigned. Answers whether it was
 * removed (a restore or another instance may have been first).
 */
export async function purgeTenant(tx: Tx, id: string, now: Date): Promise<boolean> {
  const [due] = await queryRows<{ id: string }>(
    tx,
    sql`select id from tenants where id = ${id} and deletion_due_at <= ${now.toISOString()}::timestamptz
        for update`,
  );
  if (!due) return false;
  await tx.delete(users).where(eq(users.tenantId, id));
  await tx.delete(tenants).where(eq(tenants.id, id));
  return true;
}

/** The platform tenant's id (whose log records the purge of a tenant without a partner), or null. */
export async function platformTenantId(db: Db | Tx): Promise<string | null> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select id from tenants where kind = 'platform' limit 1`,
  );
  return row ? String(row.id) : null;
}
