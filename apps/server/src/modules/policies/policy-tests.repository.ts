import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { policyTests } from './policies.tables';

// Policy tests: pinned requests with the decision they expect.

export type PolicyTestRow = typeof policyTests.$inferSelect;

export async function listPolicyTests(tx: Tx, tenantId: string, ids?: string[]): Promise<PolicyTestRow[]> {
  if (ids && ids.length === 0) return [];
  return tx
    .select()
    .from(policyTests)
    .where(
      ids
        ? and(eq(policyTests.tenantId, tenantId), inArray(policyTests.id, ids))
        : eq(policyTests.tenantId, tenantId),
    )
    .orderBy(sql`lower(${policyTests.name})`, asc(policyTests.id));
}

export async function insertPolicyTest(
  tx: Tx,
  tenantId: string,
  values: { name: string; request: Record<string, unknown>; expect: 'allow' | 'block' },
): Promise<string> {
  const [row] = await tx
    .insert(policyTests)
    .values({ tenantId, ...values })
    .returning({ id: policyTests.id });
  return row.id;
}

export async function updatePolicyTest(
  tx: Tx,
  tenantId: string,
  id: string,
  values: { name: string; request: Record<string, unknown>; expect: 'allow' | 'block' },
) {
  await tx
    .update(policyTests)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(policyTests.tenantId, tenantId), eq(policyTests.id, id)));
}

export async function deletePolicyTests(tx: Tx, tenantId: string, ids: string[]): Promise<PolicyTestRow[]> {
  if (ids.length === 0) return [];
  return tx
    .delete(policyTests)
    .where(and(eq(policyTests.tenantId, tenantId), inArray(policyTests.id, ids)))
    .returning();
}
