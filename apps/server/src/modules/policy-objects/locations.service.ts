import { cidrContains, type ErrorDetail, type Location, type LocationInput } from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import {
  commitPolicyChange,
  removeRuleReferences,
  ruleReferenceCounts,
} from '../policy-core/policy-core.service';
import { nameTaken, rethrowUnique } from './object-conflicts';
import * as repo from './policy-objects.repository';

type Out<T extends z.ZodType> = z.output<T>;

// Locations: named networks a rule can require the request to come from.

function presentLocation(row: repo.LocationRow, counts: Map<string, number>): Location {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    networks: row.networks,
    usedBy: counts.get(row.id) ?? 0,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Entries of one list that lie inside another entry of the same list (or cover the same range written
 * differently, `10.0.0.1` and `10.0.0.1/32`). Both entries are reported, so the form marks the pair.
 * Exact repeats are the schema's `validation.duplicate` and are not reported again here.
 */
export function overlapDetails(entries: readonly string[], field: string): ErrorDetail[] {
  const trimmed = entries.map((e) => e.trim());
  const marked = new Set<number>();
  for (let i = 0; i < trimmed.length; i++) {
    for (let j = i + 1; j < trimmed.length; j++) {
      const a = trimmed[i];
      const b = trimmed[j];
      // Addresses and blocks (a bare address is its one-address block); malformed entries contain nothing.
      if (a === b) continue;
      if (cidrContains(a, b) || cidrContains(b, a)) {
        marked.add(i);
        marked.add(j);
      }
    }
  }
  return [...marked]
    .sort((a, b) => a - b)
    .map((i) => ({ path: `${field}.${i}`, message: 'validation.overlap' }));
}

async function requireLocation(tx: Tx, ctx: Ctx, id: string) {
  const row = await repo.getLocation(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Location');
  return row;
}

export function listLocations(database: Database, ctx: Ctx): Promise<Location[]> {
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    const rows = await repo.listLocations(tx, ctx.tenant.id);
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    return rows.map((row) => presentLocation(row, counts));
  });
}

function locationValues(input: Out<typeof LocationInput>) {
  const overlaps = overlapDetails(input.networks, 'body.networks');
  if (overlaps.length > 0) throw invalid(overlaps);
  return { name: input.name, description: input.description ?? '', networks: input.networks };
}

export function createLocation(database: Database, ctx: Ctx, input: Out<typeof LocationInput>) {
  const values = locationValues(input);
  return database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await repo.locationNameTaken(tx, ctx.tenant.id, values.name)) throw nameTaken();
      const row = await repo.insertLocation(tx, ctx.tenant.id, values);
      const location = presentLocation(row, new Map());
      await recordEvent(tx, ctx, {
        action: 'policy.location.create',
        objectType: 'location',
        objectId: row.id,
        objectName: row.name,
        after: location,
      });
      return location;
    })
    .catch((e) => rethrowUnique(e));
}

export function updateLocation(database: Database, ctx: Ctx, id: string, input: Out<typeof LocationInput>) {
  const values = locationValues(input);
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    const before = presentLocation(await requireLocation(tx, ctx, id), counts);
    if (await repo.locationNameTaken(tx, ctx.tenant.id, values.name, id)) throw nameTaken();
    const after = presentLocation(await repo.updateLocation(tx, ctx.tenant.id, id, values), counts);
    await recordEvent(tx, ctx, {
      action: 'policy.location.update',
      objectType: 'location',
      objectId: id,
      objectName: after.name,
      before,
      after,
    });
    return after;
  }).catch((e) => rethrowUnique(e));
}

/** Deletes locations; rules lose the condition (a rule left with nothing to match goes too). */
export function deleteLocations(database: Database, ctx: Ctx, ids: string[]) {
  return commitPolicyChange(database, ctx, async (tx) => {
    const counts = await ruleReferenceCounts(tx, ctx.tenant.id, 'location');
    const deleted = await repo.deleteLocations(tx, ctx.tenant.id, [...new Set(ids)]);
    await removeRuleReferences(
      tx,
      ctx.tenant.id,
      'location',
      deleted.map((row) => row.id),
    );
    for (const row of deleted) {
      await recordEvent(tx, ctx, {
        action: 'policy.location.delete',
        objectType: 'location',
        objectId: row.id,
        objectName: row.name,
        before: presentLocation(row, counts),
      });
    }
    return { deleted: deleted.length };
  });
}
