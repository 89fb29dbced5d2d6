import type { PolicyTest, PolicyTestInput } from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import {
  type PolicyCache,
  resolveRequest,
  runPolicyTests,
  type SimRequest,
  type TestOutcome,
} from '../policy-core/policy-core.service';
import * as repo from './policy-tests.repository';

type PolicyTestData = z.output<typeof PolicyTestInput>;

/** The stored request: only the fields given, protocol always. */
function storedRequest(request: SimRequest): Record<string, unknown> {
  return Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));
}

function present(row: repo.PolicyTestRow, outcome: TestOutcome | null): PolicyTest {
  const request = row.request as SimRequest;
  return {
    id: row.id,
    name: row.name,
    request: { ...request, protocol: request.protocol ?? 'tcp' },
    expect: row.expect,
    actual: outcome?.actual ?? null,
    passing: outcome ? outcome.actual === row.expect : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The tests (all, or these ids) with their outcome against the live policy. */
async function withOutcomes(
  database: Database,
  cache: PolicyCache,
  tenantId: string,
  ids?: string[],
): Promise<PolicyTest[]> {
  const { compiled } = await cache.compiledFor(tenantId);
  return database.tenantTx(tenantId, async (tx) => {
    const rows = await repo.listPolicyTests(tx, tenantId, ids);
    const outcomes = await runPolicyTests(tx, tenantId, compiled, rows);
    return rows.map((row, i) => present(row, outcomes[i] ?? null));
  });
}

async function requireTest(tx: Tx, tenantId: string, id: string) {
  const [row] = await repo.listPolicyTests(tx, tenantId, [id]);
  if (!row) throw notFound('Policy test');
  return row;
}

export function listPolicyTests(database: Database, cache: PolicyCache, ctx: Ctx): Promise<PolicyTest[]> {
  return withOutcomes(database, cache, ctx.tenant.id);
}

/**
 * Pins an expectation. One that fails against the live policy is accepted (and listed as failing): it may
 * describe the policy the administrator is about to build.
 */
export async function createPolicyTest(
  database: Database,
  cache: PolicyCache,
  ctx: Ctx,
  input: PolicyTestData,
): Promise<PolicyTest> {
  const tenantId = ctx.tenant.id;
  const id = await database.tenantTx(tenantId, async (tx) => {
    await resolveRequest(tx, tenantId, input.request, 'body.request');
    const values = { name: input.name, request: storedRequest(input.request), expect: input.expect };
    const testId = await repo.insertPolicyTest(tx, tenantId, values);
    await recordEvent(tx, ctx, {
      action: 'policyTest.create',
      objectType: 'policyTest',
      objectId: testId,
      objectName: input.name,
      after: values,
    });
    return testId;
  });
  const [test] = await withOutcomes(database, cache, tenantId, [id]);
  return test;
}

export async function updatePolicyTest(
  database: Database,
  cache: PolicyCache,
  ctx: Ctx,
  id: string,
  input: PolicyTestData,
): Promise<PolicyTest> {
  const tenantId = ctx.tenant.id;
  await database.tenantTx(tenantId, async (tx) => {
    const before = await requireTest(tx, tenantId, id);
    await resolveRequest(tx, tenantId, input.request, 'body.request');
    const values = { name: input.name, request: storedRequest(input.request), expect: input.expect };
    await repo.updatePolicyTest(tx, tenantId, id, values);
    await recordEvent(tx, ctx, {
      action: 'policyTest.update',
      objectType: 'policyTest',
      objectId: id,
      objectName: input.name,
      before: { name: before.name, request: before.request, expect: before.expect },
      after: values,
    });
  });
  const [test] = await withOutcomes(database, cache, tenantId, [id]);
  return test;
}

export function deletePolicyTests(database: Database, ctx: Ctx, ids: string[]) {
  const tenantId = ctx.tenant.id;
  return database.tenantTx(tenantId, async (tx) => {
    const deleted = await repo.deletePolicyTests(tx, tenantId, [...new Set(ids)]);
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policyTest.delete',
        objectType: 'policyTest',
        objectId: row.id,
        objectName: row.name,
        before: { name: row.name, request: row.request, expect: row.expect },
      });
    }
    return { deleted: deleted.length };
  });
}
