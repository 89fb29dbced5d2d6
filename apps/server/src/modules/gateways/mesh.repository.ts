import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { deviceMesh } from './mesh.tables';

/** The tenant's private-access mesh (migration 0029). */

export type MeshRow = typeof deviceMesh.$inferSelect;

export async function meshOf(tx: Tx, tenantId: string): Promise<MeshRow | null> {
  const [row] = await tx.select().from(deviceMesh).where(eq(deviceMesh.tenantId, tenantId));
  return row ?? null;
}

export async function saveMesh(tx: Tx, values: Omit<MeshRow, 'updatedAt'>): Promise<void> {
  const row = { ...values, updatedAt: new Date() };
  await tx.insert(deviceMesh).values(row).onConflictDoUpdate({ target: deviceMesh.tenantId, set: row });
}
