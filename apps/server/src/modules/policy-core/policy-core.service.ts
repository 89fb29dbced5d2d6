import {
  type Decision,
  type ErrorDetail,
  type PolicyTestFailure,
  parseIpv4,
  type RuleRef,
  type SimulationRequest,
} from '@palisade/contracts';
import {
  type CompiledPolicy,
  compile,
  decide,
  type EngineInput,
  type EngineObjects,
  type EngineRequest,
  type Explanation,
  explain,
  type Layer,
  parseDestination,
} from '@palisade/policy-engine';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import type { ChangeBus } from '../../lib/change-bus';
import type { Ctx } from '../../lib/context';
import { AppError, invalid } from '../../lib/errors';
import { loadAccessApprovals } from '../block-page/block-page.engine-source';
import * as policies from '../policies/policies.engine-source';
import { DEFAULT_GEO_RULE_ID, loadPolicyObjects } from '../policy-objects/policy-objects.engine-source';
import { lookupCountry } from './geoip';
import * as repo from './policy-core.repository';

/*
 * The policy core: what every change to what a tenant enforces goes through, whichever module makes it.
 * It assembles the engine's input from the two modules that hold policy state (policies: policies, rules, policy
 * groups, tests; policy-objects: objects and the system policies derived from them) through their
 * `*.engine-source.ts` files, compiles it, keeps each instance's compiled policies current (the tenant's policy
 * version, owned here), and guards changes with the policy tests. The services of policies, policy-objects,
 * users, groups and enrolment call this module; it calls none of their services, and policies and
 * policy-objects never import each other (the lint says so).
 */

/** A simulation request as the contract schema leaves it (protocol defaulted). */
export type SimRequest = z.output<typeof SimulationRequest>;

/**
 * Everything the engine needs for a tenant, read in the caller's transaction: the tenant's policies with their
 * rules and who they apply to (from policy groups; null when the policy is in none), the objects rules refer
 * to and the system policies the object screens derive.
 */
export async function loadEngineInput(tx: Tx, tenantId: string): Promise<EngineInput> {
  const tenantPolicies = await policies.loadTenantPolicies(tx, tenantId);
  const { objects, systemPolicies } = await loadPolicyObjects(tx, tenantId);
  // Approved access requests (block page): allows for one user each, until they expire.
  const approvals = await loadAccessApprovals(tx, tenantId);
  return { policies: [...tenantPolicies, ...approvals, ...systemPolicies], objects };
}

/** The objects rules refer to (apps, categories, feeds, locations), as the engine and the rule checks see them. */
export async function loadEngineObjects(tx: Tx, tenantId: string): Promise<EngineObjects> {
  return (await loadPolicyObjects(tx, tenantId)).objects;
}

/** Compiles with the shipped GeoIP database for GEO rules. */
export function compileInput(input: EngineInput): CompiledPolicy {
  return compile(input, { lookupCountry });
}

/** The change-bus topic of policy changes: each message is `<tenant id>:<new policy version>`. */
export const POLICY_TOPIC = repo.POLICY_TOPIC;

// ---- The per-tenant cache of the live compiled policy ------------------------------------------------------

/** A tenant's live policy, compiled, with the policy version it was read at. */
export interface LivePolicy {
  version: number;
  compiled: CompiledPolicy;
  input: EngineInput;
}

/**
 * One app instance's compiled policies, per tenant. Each server instance has its own (created in `buildApp`),
 * and several may run on one database: an entry is only used while the tenant's policy version in the database
 * is still the one it was built from, so a change committed through any instance is decided with at once.
 */
export interface PolicyCache {
  /**
   * The tenant's live policy, compiled: checks the tenant's version (one indexed read) and answers the cached
   * build when it is current, else builds it again — shared by every decision until the next change.
   */
  compiledFor(tenantId: string): Promise<LivePolicy>;
  /** Stops listening for changes. */
  close(): void;
}

/**
 * The engine input of the latest policy changes committed through a database on this instance, with the version
 * each made: the state a change read in its own transaction, just before it committed (the version is bumped
 * first there, so no other change came in between). A cache building that version takes it instead of reading
 * the same state again — at 10 000 rules that read is a third of a second between a save and its gateways.
 * A few tenants at most, the newest kept.
 */
const committedInputs = new WeakMap<Database, Map<string, { version: number; input: EngineInput }>>();
const COMMITTED_KEPT = 8;

function rememberCommitted(database: Database, tenantId: string, version: number, input: EngineInput) {
  let byTenant = committedInputs.get(database);
  if (!byTenant) {
    byTenant = new Map();
    committedInputs.set(database, byTenant);
  }
  byTenant.delete(tenantId);
  byTenant.set(tenantId, { version, input });
  while (byTenant.size > COMMITTED_KEPT) byTenant.delete(byTenant.keys().next().value as string);
}

/**
 * Creates an instance's policy cache. With a change bus, announced versions drop stale entries right away (and
 * a reconnected bus drops them all); without one (the seed) the version check alone keeps decisions current.
 */
export function createPolicyCache(database: Database, changes?: ChangeBus): PolicyCache {
  const entries = new Map<string, { version: number; live: Promise<LivePolicy> }>();
  const unsubscribe = changes?.subscribe(repo.POLICY_TOPIC, (message) => {
    if (message === null) {
      entries.clear();
      return;
    }
    const at = message.lastIndexOf(':');
    const tenantId = message.slice(0, at);
    const entry = entries.get(tenantId);
    if (entry && entry.version < Number(message.slice(at + 1))) entries.delete(tenantId);
  });
  return {
    async compiledFor(tenantId) {
      const version = await repo.policyVersion(database.db, tenantId);
      const hit = entries.get(tenantId);
      if (hit && hit.version === version) return hit.live;
      // The version is read first in the build's transaction, so the state read after it is at least that
      // new: a change committing in between makes the next check rebuild, never keeps a stale build. The
      // version a change on this instance just committed is built from the state it committed.
      const committed = committedInputs.get(database)?.get(tenantId);
      const live =
        committed && committed.version === version
          ? Promise.resolve(committed).then(({ input }) => ({
              version,
              input,
              compiled: compileInput(input),
            }))
          : database.tenantTx(tenantId, async (tx) => {
              const built = await repo.policyVersion(tx, tenantId);
              const input = await loadEngineInput(tx, tenantId);
              return { version: built, input, compiled: compileInput(input) };
            });
      const entry = { version, live };
      entries.set(tenantId, entry);
      live.then(
        (built) => {
          entry.version = built.version;
        },
        () => {
          if (entries.get(tenantId) === entry) entries.delete(tenantId);
        },
      );
      return live;
    },
    close() {
      unsubscribe?.();
      entries.clear();
    },
  };
}

/**
 * Marks the tenant's policy changed in the caller's transaction, for a change made outside
 * {@link commitPolicyChange} that still changes what is decided (removing devices named by policy groups):
 * every instance rebuilds its compiled policy once the transaction commits. Answers the new version.
 */
export async function markPolicyChanged(tx: Tx, tenantId: string): Promise<number> {
  return repo.bumpPolicyVersion(tx, tenantId);
}

// ---- Requests ---------------------------------------------------------------------------------------------

/** A simulation request resolved for the engine, with what it resolved to. */
export interface ResolvedRequest {
  request: EngineRequest;
  destination: ReturnType<typeof parseDestination>;
  groupNames: string[];
}

const hasDestination = (d: ReturnType<typeof parseDestination>) =>
  d.host !== null || d.ip !== null || d.path !== null;

/**
 * Resolves a request as the simulator and the policy tests take it: the user to the groups they are in, the
 * destination to host, path, IP and port. Problems are 400 details under `prefix` (`body.request`): a user that
 * is not an end user of this tenant, a destination nothing could be read from, a source that is not IPv4.
 */
export async function resolveRequest(
  tx: Tx,
  tenantId: string,
  input: SimRequest,
  prefix: string,
): Promise<ResolvedRequest> {
  const details: ErrorDetail[] = [];
  let groups: { id: string; name: string }[] = [];
  if (input.userId) {
    const user = await policies.endUserWithGroups(tx, tenantId, input.userId);
    if (!user) details.push({ path: `${prefix}.userId`, message: 'validation.unknownUser' });
    else groups = user.groups;
  }
  const destination = parseDestination(input.destination);
  if (!hasDestination(destination)) {
    details.push({ path: `${prefix}.destination`, message: 'policy.validation.destination' });
  }
  if (input.sourceIp && parseIpv4(input.sourceIp) === null) {
    details.push({ path: `${prefix}.sourceIp`, message: 'policy.validation.sourceIp' });
  }
  if (details.length > 0) throw invalid(details);
  return {
    request: toEngineRequest(
      input,
      groups.map((g) => g.id),
      destination,
    ),
    destination,
    groupNames: groups.map((g) => g.name),
  };
}

function toEngineRequest(
  input: SimRequest,
  groups: string[],
  destination: ReturnType<typeof parseDestination>,
): EngineRequest {
  return {
    userId: input.userId ?? null,
    groups,
    deviceId: input.deviceId ?? null,
    host: destination.host,
    path: destination.path,
    ip: destination.ip,
    port: destination.port,
    protocol: input.protocol ?? 'tcp',
    sourceIp: input.sourceIp ?? null,
    ...(input.time ? { time: Date.parse(input.time) } : {}),
  };
}

// ---- What decided ------------------------------------------------------------------------------------------

/**
 * The rule and layer an administrator is told decided a request. The engine names the default geo rule when it
 * was the last allowing rule — which it is whenever nothing else matched in the network layer — but that rule is
 * the default, not a decision: the rule named is then the one that allowed an earlier layer (DNS), or none
 * (`null`: "no rule matched — allowed by default").
 */
export function decidingRule(explanation: Pick<Explanation, 'rule' | 'layer' | 'trace'>): {
  rule: RuleRef | null;
  layer: Layer | null;
} {
  const { rule, layer, trace } = explanation;
  if (rule?.ruleId !== DEFAULT_GEO_RULE_ID) return { rule, layer };
  const earlier = trace.findLast(
    (step) =>
      step.outcome === 'matched' &&
      step.layer !== 'qos' &&
      step.rule !== null &&
      step.rule.ruleId !== DEFAULT_GEO_RULE_ID,
  );
  return earlier?.rule ? { rule: earlier.rule, layer: earlier.layer } : { rule: null, layer: null };
}

// ---- Policy tests -----------------------------------------------------------------------------------------

/** A stored test with its outcome against a compiled policy. */
export interface TestOutcome {
  test: policies.PolicyTestRow;
  actual: Decision;
  /** The rule the engine names; see {@link failuresOf} for the one a refused change names. */
  rule: RuleRef | null;
  /** The request as the engine decided it (to explain a failure). */
  request: EngineRequest;
}

/**
 * Decides every stored test of the tenant (or the given ones) against `compiled`. Users are resolved to their
 * groups as they are now; a user deleted since keeps deciding as a user in no group.
 */
export async function runPolicyTests(
  tx: Tx,
  tenantId: string,
  compiled: CompiledPolicy,
  tests?: policies.PolicyTestRow[],
): Promise<TestOutcome[]> {
  const list = tests ?? (await policies.listPolicyTests(tx, tenantId));
  if (list.length === 0) return [];
  const requests = list.map((t) => t.request as SimRequest);
  const userIds = [...new Set(requests.map((r) => r.userId).filter((id): id is string => Boolean(id)))];
  const groupsOf = await policies.groupIdsOfUsers(tx, tenantId, userIds);
  return list.map((test, i) => {
    const request = requests[i];
    const engineRequest = toEngineRequest(
      request,
      request.userId ? (groupsOf.get(request.userId) ?? []) : [],
      parseDestination(request.destination),
    );
    const decision = decide(compiled, engineRequest);
    return { test, actual: decision.decision, rule: decision.rule, request: engineRequest };
  });
}

/**
 * The tests an outcome list breaks, as a refused change lists them, each with the rule that decided it
 * ({@link decidingRule}: null when nothing matched). Only a failure that ended on the default geo rule is
 * explained again, with the full trace.
 */
export function failuresOf(outcomes: TestOutcome[], compiled: CompiledPolicy): PolicyTestFailure[] {
  return outcomes
    .filter((o) => o.actual !== o.test.expect)
    .map((o) => ({
      testId: o.test.id,
      name: o.test.name,
      expect: o.test.expect,
      actual: o.actual,
      rule: o.rule?.ruleId === DEFAULT_GEO_RULE_ID ? decidingRule(explain(compiled, o.request)).rule : o.rule,
    }));
}

// ---- The change guard -------------------------------------------------------------------------------------

/**
 * {@link commitPolicyChange}, also answering the engine input of the state it committed (the saves lint it).
 * A test *breaks* when it passed before the change and fails after it: tests that already failed (a test may
 * be pinned before the policy it describes exists) do not hold up unrelated changes.
 */
export async function commitPolicyChangeWithState<T>(
  database: Database,
  ctx: Ctx,
  change: (tx: Tx) => Promise<T>,
): Promise<{ result: T; input: EngineInput }> {
  const tenantId = ctx.tenant.id;
  const { result, input, version } = await database.tenantTx(tenantId, (tx) =>
    commitPolicyChangeWithStateIn(tx, tenantId, change),
  );
  // Committed: the caches of this instance build the new version from this state.
  rememberCommitted(database, tenantId, version, input);
  return { result, input };
}

async function commitPolicyChangeWithStateIn<T>(
  tx: Tx,
  tenantId: string,
  change: (tx: Tx) => Promise<T>,
): Promise<{ result: T; input: EngineInput; version: number }> {
  // First, so that concurrent changes to one tenant run one after the other and each is checked against
  // the state the other committed; the new version reaches every instance when this commits.
  const version = await repo.bumpPolicyVersion(tx, tenantId);
  const tests = await policies.listPolicyTests(tx, tenantId);
  const before =
    tests.length > 0
      ? await runPolicyTests(tx, tenantId, compileInput(await loadEngineInput(tx, tenantId)), tests)
      : [];
  const result = await change(tx);
  const input = await loadEngineInput(tx, tenantId);
  if (tests.length > 0) {
    const passedBefore = new Set(before.filter((o) => o.actual === o.test.expect).map((o) => o.test.id));
    const compiled = compileInput(input);
    const after = await runPolicyTests(tx, tenantId, compiled, tests);
    const failures = failuresOf(
      after.filter((o) => passedBefore.has(o.test.id)),
      compiled,
    );
    if (failures.length > 0) {
      throw new AppError(
        'policy_tests_failed',
        'This change would break policy tests.',
        undefined,
        undefined,
        failures,
      );
    }
  }
  return { result, input, version };
}

/** Thrown inside a preview's transaction to roll it back with what it computed. */
class PreviewRollback<T> extends Error {
  constructor(readonly value: T) {
    super('preview rolled back');
  }
}

/**
 * Runs a change to a tenant's policy as {@link commitPolicyChange} would, checks included (a change that would be
 * refused is refused here too), and then rolls it back: answers the engine input the change would make, with
 * nothing saved and nothing announced.
 */
export async function previewPolicyChange<T>(
  database: Database,
  ctx: Ctx,
  change: (tx: Tx) => Promise<T>,
): Promise<{ result: T; input: EngineInput }> {
  try {
    await database.tenantTx(ctx.tenant.id, async (tx) => {
      const outcome = await commitPolicyChangeWithStateIn(tx, ctx.tenant.id, change);
      throw new PreviewRollback(outcome);
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.value as { result: T; input: EngineInput };
    throw error;
  }
  throw new Error('previewPolicyChange: the preview committed');
}

/**
 * Runs a change to a tenant's policy (policies, rules, order, policy groups, the objects rules use) in one
 * transaction, then — still inside it — compiles the resulting state and decides every policy test. When the
 * change breaks a test, it is refused with 409 `policy_tests_failed` listing the failures (PolicyTestFailure)
 * and the transaction rolls back, so nothing changes. Otherwise it commits with the tenant's policy version
 * bumped, so the next decision on any instance uses the new state.
 */
export async function commitPolicyChange<T>(
  database: Database,
  ctx: Ctx,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  return (await commitPolicyChangeWithState(database, ctx, change)).result;
}

// ---- References from rules to objects ----------------------------------------------------------------------

/** How many rules use each object id of a kind (ids no rule uses are absent): the objects' "used by" counts. */
export const ruleReferenceCounts = policies.ruleReferenceCounts;

/**
 * Removes deleted objects from every rule that uses them (a rule left with nothing to match is deleted), in the
 * caller's transaction — inside {@link commitPolicyChange}, so the policy tests see the result.
 */
export const removeRuleReferences = policies.removeRuleReferences;
