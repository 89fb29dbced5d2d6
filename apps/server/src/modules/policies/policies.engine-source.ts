import { type PolicyType, policyListOf } from '@palisade/contracts';
import type { EnginePolicy } from '@palisade/policy-engine';
import type { Tx } from '../../db/client';
import * as repo from './policies.repository';
import * as subjects from './policy-subjects.repository';
import * as tests from './policy-tests.repository';
import * as references from './rule-references.repository';

/**
 * What policy-core reads and maintains of this module's state: the tenant's policies as the engine takes them,
 * the policy tests, and the rules' references to objects. Only policy-core imports this file (the lint says so);
 * everyone else calls policy-core.
 */

export type { PolicyTestRow } from './policy-tests.repository';
export type { ReferenceKind } from './rule-references.repository';

/**
 * Where each list sits in the one order the engine walks (lower first): the tenant's user policies, then its
 * device policies, each in its own precedence. QoS policies are decided in their own layer. The system
 * policies of the object screens sit around these (threat intel far below, web categories and geo far above).
 */
const LIST_OFFSET = { qos: 0, user: 0, device: 500_000_000 } as const;

export function enginePrecedence(type: PolicyType, precedence: number): number {
  return LIST_OFFSET[policyListOf(type)] + precedence;
}

/** Builds the engine's view of one stored policy. */
function toEnginePolicy(
  policy: Pick<
    repo.PolicyRow,
    'id' | 'name' | 'type' | 'enabled' | 'precedence' | 'blockPage' | 'fullTunnel'
  >,
  rules: readonly repo.RuleRow[],
  appliesTo: EnginePolicy['appliesTo'],
): EnginePolicy {
  return {
    id: policy.id,
    name: policy.name,
    type: policy.type,
    enabled: policy.enabled,
    precedence: enginePrecedence(policy.type, policy.precedence),
    blockPage: policy.blockPage,
    fullTunnel: policy.fullTunnel,
    rules: rules.map(({ policyId: _policyId, position: _position, ...rule }) => rule),
    appliesTo,
  };
}

/**
 * The tenant's own policies with their rules and who they apply to (from policy groups; null when the policy is
 * in none), read in the caller's transaction.
 */
export async function loadTenantPolicies(tx: Tx, tenantId: string): Promise<EnginePolicy[]> {
  // One query after the other: a transaction is one connection.
  const policies = await repo.listPolicies(tx, tenantId);
  const rules = await repo.listRules(tx, tenantId);
  const assignments = await repo.policyAssignments(tx, tenantId);
  const rulesOf = new Map<string, repo.RuleRow[]>();
  for (const rule of rules) {
    const list = rulesOf.get(rule.policyId) ?? [];
    list.push(rule);
    rulesOf.set(rule.policyId, list);
  }
  return policies.map((p) => toEnginePolicy(p, rulesOf.get(p.id) ?? [], assignments.get(p.id) ?? null));
}

/** The tenant's policy tests (all, or the given ids). */
export const listPolicyTests = (tx: Tx, tenantId: string, ids?: string[]) =>
  tests.listPolicyTests(tx, tenantId, ids);

/** An end user of the tenant with the ids and names of their groups, or null when there is none. */
export const endUserWithGroups = (tx: Tx, tenantId: string, userId: string) =>
  subjects.endUserWithGroups(tx, tenantId, userId);

/** The group ids of each of `userIds` (users without groups, or unknown, are absent). */
export const groupIdsOfUsers = (tx: Tx, tenantId: string, userIds: string[]) =>
  subjects.groupIdsOfUsers(tx, tenantId, userIds);

/** How many rules use each object id of a kind (ids no rule uses are absent). */
export const ruleReferenceCounts = (tx: Tx, tenantId: string, kind: references.ReferenceKind) =>
  references.ruleReferenceCounts(tx, tenantId, kind);

/** Removes object ids from every rule that uses them; a rule left with nothing to match is deleted. */
export const removeRuleReferences = (
  tx: Tx,
  tenantId: string,
  kind: references.ReferenceKind,
  ids: string[],
) => references.removeRuleReferences(tx, tenantId, kind, ids);
