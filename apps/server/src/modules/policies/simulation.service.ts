import type { SimulateBody, SimulationResult } from '@palisade/contracts';
import { explain } from '@palisade/policy-engine';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { deviceOwnerOf } from '../enrolment/enrolment.service';
import {
  compileInput,
  decidingRule,
  type PolicyCache,
  resolveRequest,
  type SimRequest,
} from '../policy-core/policy-core.service';
import { inputWithDraft } from './policies.service';

/*
 * The simulator (`POST policy/simulate/{tenant}`). Its own file because it asks the enrolment module whose a
 * device is, and the enrolment module's services reach this module's policies service (through gateways): kept
 * apart, the imports stay one way.
 */

/**
 * The request as the engine should see it: a device given without a user decides as its owner (an end user)
 * would — the owner's id and so the owner's groups and the policy groups naming them — besides the device's own
 * policy groups, which the engine matches by the device id. A user given explicitly is kept as given.
 */
async function withDeviceOwner(tx: Tx, tenantId: string, request: SimRequest): Promise<SimRequest> {
  if (request.userId || !request.deviceId) return request;
  const owner = await deviceOwnerOf(tx, tenantId, request.deviceId);
  return owner ? { ...request, userId: owner } : request;
}

/** Decides a request against the live policy or a draft, with the full trace. Never writes. */
export async function simulate(
  database: Database,
  cache: PolicyCache,
  ctx: Ctx,
  body: z.output<typeof SimulateBody>,
) {
  const tenantId = ctx.tenant.id;
  const { resolved, draftInput } = await database.tenantTx(tenantId, async (tx) => ({
    resolved: await resolveRequest(
      tx,
      tenantId,
      await withDeviceOwner(tx, tenantId, body.request),
      'body.request',
    ),
    draftInput: body.draft ? await inputWithDraft(tx, tenantId, body.draft) : null,
  }));
  const compiled = draftInput ? compileInput(draftInput) : (await cache.compiledFor(tenantId)).compiled;
  const e = explain(compiled, resolved.request);
  const decided = decidingRule(e);
  const result: SimulationResult = {
    decision: e.decision,
    rule: decided.rule,
    layer: decided.layer,
    rewrite: e.rewrite,
    gateway: e.gateway,
    qos: e.qos,
    context: {
      host: resolved.destination.host,
      path: resolved.destination.path,
      ip: resolved.destination.ip,
      port: resolved.destination.port,
      sourceCountry: e.sourceCountry,
      destinationCountry: e.destinationCountry,
      categories: e.categories,
      apps: e.apps,
      groups: resolved.groupNames,
    },
    trace: e.trace,
  };
  return result;
}
