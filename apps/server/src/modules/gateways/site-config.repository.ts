import type { SiteConfig } from '@palisade/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { CHANGE_CHANNEL, changePayload } from '../../lib/change-bus';
import { siteConfigs } from './gateways.tables';

/**
 * The change-bus topic of site gateway configurations; the message is `<tenant id>:<gateway id>`. A saved
 * configuration wakes that gateway's bundle long-poll on every instance without touching the tenant's policy
 * version (nothing the other gateways enforce changed).
 */
export const SITE_CONFIG_TOPIC = 'site-config';

export type SiteConfigRow = typeof siteConfigs.$inferSelect;

/** The stored configuration of one gateway, or null when none was saved. */
export async function siteConfigOf(
  tx: Tx,
  tenantId: string,
  gatewayId: string,
): Promise<SiteConfigRow | null> {
  const [row] = await tx
    .select()
    .from(siteConfigs)
    .where(and(eq(siteConfigs.tenantId, tenantId), eq(siteConfigs.gatewayId, gatewayId)));
  return row ?? null;
}

/** The stored configurations of some gateways, by gateway id (those without one are absent). */
export async function siteConfigsOf(
  tx: Tx,
  tenantId: string,
  gatewayIds: readonly string[],
): Promise<Map<string, SiteConfig>> {
  if (gatewayIds.length === 0) return new Map();
  const rows = await tx
    .select({ gatewayId: siteConfigs.gatewayId, config: siteConfigs.config })
    .from(siteConfigs)
    .where(and(eq(siteConfigs.tenantId, tenantId), inArray(siteConfigs.gatewayId, [...gatewayIds])));
  return new Map(rows.map((row) => [row.gatewayId, row.config]));
}

/** Stores a gateway's configuration (replacing the one before). */
export async function saveSiteConfig(
  tx: Tx,
  values: { tenantId: string; gatewayId: string; config: SiteConfig; updatedBy: string | null },
): Promise<SiteConfigRow> {
  const [row] = await tx
    .insert(siteConfigs)
    .values(values)
    .onConflictDoUpdate({
      target: [siteConfigs.tenantId, siteConfigs.gatewayId],
      set: { config: values.config, updatedBy: values.updatedBy, updatedAt: sql`now()` },
    })
    .returning();
  return row;
}

/** Announces a gateway's new configuration on the change bus when the caller's transaction commits. */
export async function announceSiteConfig(tx: Tx, tenantId: string, gatewayId: string): Promise<void> {
  await queryRows(
    tx,
    sql`select pg_notify(${CHANGE_CHANNEL}, ${changePayload(SITE_CONFIG_TOPIC, `${tenantId}:${gatewayId}`)})`,
  );
}
