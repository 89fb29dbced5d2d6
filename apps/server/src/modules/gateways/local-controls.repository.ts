import type { LocalControls } from '@palisade/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { localControls } from './local-controls.tables';

/** Site gateways' local controls (migration 0028). */

export type LocalControlsRow = typeof localControls.$inferSelect;

export function localControlsOfTenant(tx: Tx, tenantId: string): Promise<LocalControlsRow[]> {
  return tx.select().from(localControls).where(eq(localControls.tenantId, tenantId));
}

export async function localControlsOf(tx: Tx, tenantId: string, gatewayId: string) {
  const [row] = await tx
    .select()
    .from(localControls)
    .where(and(eq(localControls.tenantId, tenantId), eq(localControls.gatewayId, gatewayId)));
  return row ?? null;
}

export async function saveLocalControls(
  tx: Tx,
  values: { tenantId: string; gatewayId: string; controls: LocalControls; updatedBy: string | null },
) {
  await tx
    .insert(localControls)
    .values(values)
    .onConflictDoUpdate({
      target: [localControls.tenantId, localControls.gatewayId],
      set: { controls: values.controls, updatedBy: values.updatedBy, updatedAt: sql`now()` },
    });
}
