import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { tenantFeatures } from './features.tables';

export type TenantFeaturesRow = typeof tenantFeatures.$inferSelect;

/** A tenant's stored flags, or null when it has none (it follows the defaults). One look-up by the key. */
export async function findFlags(db: Db | Tx, tenantId: string): Promise<TenantFeaturesRow | null> {
  const [row] = await db.select().from(tenantFeatures).where(eq(tenantFeatures.tenantId, tenantId)).limit(1);
  return row ?? null;
}

/** Sets a tenant's stored feature flags (the full map of those set), creating its row when needed. */
export async function saveFeatures(tx: Tx, tenantId: string, features: Record<string, boolean>) {
  await tx
    .insert(tenantFeatures)
    .values({ tenantId, features })
    .onConflictDoUpdate({ target: tenantFeatures.tenantId, set: { features, updatedAt: sql`now()` } });
}

/** Sets a tenant's stored configuration flags (the full map of those set), creating its row when needed. */
export async function saveConfigurations(tx: Tx, tenantId: string, configurations: Record<string, boolean>) {
  await tx
    .insert(tenantFeatures)
    .values({ tenantId, configurations })
    .onConflictDoUpdate({ target: tenantFeatures.tenantId, set: { configurations, updatedAt: sql`now()` } });
}
