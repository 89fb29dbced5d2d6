import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { pgArray } from '../../db/driver';
import { gateways } from './gateways.tables';
import { privateServices, ztnaRules } from './private-access.tables';

/** Private services and ZTNA firewall rules (migration 0025), and who is behind them. */

export type ServiceRow = typeof privateServices.$inferSelect;
export type ZtnaRuleRow = typeof ztnaRules.$inferSelect;
export const TABLES = { service: privateServices, rule: ztnaRules } as const;
export type EntryKind = keyof typeof TABLES;

export function listServices(tx: Tx, tenantId: string): Promise<ServiceRow[]> {
  return tx
    .select()
    .from(privateServices)
    .where(eq(privateServices.tenantId, tenantId))
    .orderBy(sql`lower(${privateServices.name})`, privateServices.id);
}

export function listRules(tx: Tx, tenantId: string): Promise<ZtnaRuleRow[]> {
  return tx
    .select()
    .from(ztnaRules)
    .where(eq(ztnaRules.tenantId, tenantId))
    .orderBy(sql`lower(${ztnaRules.name})`, ztnaRules.id);
}

export async function getService(tx: Tx, tenantId: string, id: string): Promise<ServiceRow | null> {
  const [row] = await tx
    .select()
    .from(privateServices)
    .where(and(eq(privateServices.tenantId, tenantId), eq(privateServices.id, id)));
  return row ?? null;
}

export async function getRule(tx: Tx, tenantId: string, id: string): Promise<ZtnaRuleRow | null> {
  const [row] = await tx
    .select()
    .from(ztnaRules)
    .where(and(eq(ztnaRules.tenantId, tenantId), eq(ztnaRules.id, id)));
  return row ?? null;
}

export async function saveService(
  tx: Tx,
  id: string | null,
  values: Omit<typeof privateServices.$inferInsert, 'id'>,
): Promise<string> {
  if (id === null) {
    const [row] = await tx.insert(privateServices).values(values).returning({ id: privateServices.id });
    return row.id;
  }
  await tx
    .update(privateServices)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(privateServices.tenantId, values.tenantId), eq(privateServices.id, id)));
  return id;
}

export async function saveRule(
  tx: Tx,
  id: string | null,
  values: Omit<typeof ztnaRules.$inferInsert, 'id'>,
): Promise<string> {
  if (id === null) {
    const [row] = await tx.insert(ztnaRules).values(values).returning({ id: ztnaRules.id });
    return row.id;
  }
  await tx
    .update(ztnaRules)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(ztnaRules.tenantId, values.tenantId), eq(ztnaRules.id, id)));
  return id;
}

export async function deleteEntry(tx: Tx, kind: EntryKind, tenantId: string, id: string): Promise<boolean> {
  const table = TABLES[kind];
  const rows = await tx
    .delete(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** Whether another entry of the kind has the name (case-insensitive). */
export async function nameTaken(
  tx: Tx,
  kind: EntryKind,
  tenantId: string,
  name: string,
  exceptId: string | null,
) {
  const table = TABLES[kind];
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        eq(table.tenantId, tenantId),
        sql`lower(${table.name}) = lower(${name})`,
        exceptId ? sql`${table.id} <> ${exceptId}` : sql`true`,
      ),
    );
  return rows.length > 0;
}

/** Names of the tenant's users and groups among ids (what an entry's audience shows; unknown ids are absent). */
export async function audienceNames(tx: Tx, tenantId: string, userIds: string[], groupIds: string[]) {
  const users = userIds.length
    ? await queryRows<{ id: string; name: string }>(
        tx,
        sql`select id, username as name from users where tenant_id = ${tenantId} and usertype = 0
          and id = any(${pgArray(userIds, 'uuid')})`,
      )
    : [];
  const groups = groupIds.length
    ? await queryRows<{ id: string; name: string }>(
        tx,
        sql`select id, name from groups where tenant_id = ${tenantId}
          and id = any(${pgArray(groupIds, 'uuid')})`,
      )
    : [];
  return {
    users: new Map(users.map((u) => [String(u.id), u.name])),
    groups: new Map(groups.map((g) => [String(g.id), g.name])),
  };
}

/** The tunnel addresses' host numbers of the active devices of each user, and the members of each group. */
export async function audienceDevices(tx: Tx, tenantId: string) {
  const devices = await queryRows<{ user_id: string; host: number }>(
    tx,
    sql`select d.user_id, d.wg_host as host from devices d
      join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
      where d.tenant_id = ${tenantId} and d.wg_host is not null and d.wg_public_key is not null
        and d.state = 'active' and not u.is_suspended`,
  );
  const members = await queryRows<{ group_id: string; user_id: string }>(
    tx,
    sql`select group_id, user_id from user_groups where tenant_id = ${tenantId}`,
  );
  return { devices, members };
}

/** The names of the tenant's gateways (retired ones too: an entry keeps naming its gateway until it is deleted). */
export function gatewayNames(tx: Tx, tenantId: string) {
  return tx
    .select({ id: gateways.id, name: gateways.name })
    .from(gateways)
    .where(eq(gateways.tenantId, tenantId));
}
