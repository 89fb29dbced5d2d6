import {
  type ErrorDetail,
  isSystemRule,
  type LintFinding,
  type ObjectKind,
  POLICY_NAME_MAX,
  POLICY_TYPES,
  type Policy,
  type PolicyDraft,
  type PolicyList,
  type PolicyLists,
  type PolicySaved,
  type PolicySummary,
  type PolicyType,
  policyListOf,
  type RuleRef,
  type WhereUsed,
} from '@palisade/contracts';
import { type EngineInput, type EnginePolicy, lint } from '@palisade/policy-engine';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import { type ConfigurationGuards, configurationsIn } from '../features/features.service';
import {
  commitPolicyChange,
  commitPolicyChangeWithState,
  loadEngineInput,
  loadEngineObjects,
  type PolicyCache,
  previewPolicyChange,
} from '../policy-core/policy-core.service';
import { enginePrecedence } from './policies.engine-source';
import * as repo from './policies.repository';
import * as groupsRepo from './policy-groups.repository';
import { checkPolicy, normaliseMatcher, type PolicyData, type RuleData } from './policy-validation';
import * as references from './rule-references.repository';

/** The policy types of one list. */
export const typesOfList = (list: PolicyList): PolicyType[] =>
  POLICY_TYPES.filter((t) => policyListOf(t) === list);

// ---- Presenting ---------------------------------------------------------------------------------------------

export function presentSummary(row: repo.PolicyRow): PolicySummary {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    precedence: row.precedence,
    ruleCount: row.ruleCount,
    policyGroups: row.policyGroups,
    blockPage: row.blockPage,
    fullTunnel: row.fullTunnel,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentPolicy(row: repo.PolicyRow, rules: readonly repo.RuleRow[]): Policy {
  return {
    ...presentSummary(row),
    rules: rules.map(({ policyId: _policyId, position: _position, ...rule }) => rule),
  };
}

/** A policy with its rules, or 404. */
async function loadPolicy(tx: Tx, ctx: Ctx, id: string): Promise<Policy> {
  const row = await repo.getPolicy(tx, ctx.tenant.id, id);
  if (!row) throw notFound('Policy');
  return presentPolicy(row, await repo.listRules(tx, ctx.tenant.id, [id]));
}

function listsOf(rows: repo.PolicyRow[]): PolicyLists {
  const lists: PolicyLists = { qos: [], user: [], device: [] };
  for (const row of rows) lists[policyListOf(row.type)].push(presentSummary(row));
  return lists;
}

const nameTaken = () =>
  new AppError('conflict', 'A policy with this name exists.', [
    { path: 'body.name', message: 'policy.validation.nameTaken' },
  ]);

/** A unique-index violation that slipped past the friendly check (two concurrent writes of one name). */
function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw nameTaken();
  throw error;
}

/** Lint findings of a state that involve one policy (its rules, or rules it clashes with). */
function findingsOf(input: EngineInput, policyId: string): LintFinding[] {
  return lint(input).filter((f) => f.rule?.policyId === policyId || f.other?.policyId === policyId);
}

// ---- Rules as written ---------------------------------------------------------------------------------------

function toWrite(rule: RuleData, id?: string): repo.RuleWrite {
  return {
    ...(id ? { id } : {}),
    name: rule.name,
    type: rule.type,
    url: normaliseMatcher(rule.type, rule.url),
    action: rule.action,
    target: rule.target,
    ports: rule.ports
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .join(','),
    categories: rule.categories,
    feeds: rule.feeds,
    locations: rule.locations,
    schedule: rule.schedule,
    enabled: rule.enabled,
    issysgen: false,
  };
}

/**
 * The rules a policy keeps on update: the editor's rules, with the policy's system rules as they were — those
 * that came before every other rule stay first, the rest follow the editor's rules in their old order.
 */
function mergeSystemRules<T>(
  existing: readonly repo.RuleRow[],
  edited: T[],
  keep: (rule: repo.RuleRow) => T,
): T[] {
  const firstOwn = existing.findIndex((r) => !isSystemRule(r));
  const system = existing.filter((r) => isSystemRule(r));
  const leading = system.filter((r) => firstOwn < 0 || r.position < existing[firstOwn].position);
  const trailing = system.filter((r) => !leading.includes(r));
  return [...leading.map(keep), ...edited, ...trailing.map(keep)];
}

/**
 * Rules naming web categories while the tenant's `webCategoryEnabled` configuration flag is off (spec §6): one
 * detail on each such rule's categories. The flag is read only when a rule names one.
 */
async function categoriesRefused(tx: Tx, tenantId: string, policy: PolicyData): Promise<ErrorDetail[]> {
  const naming = policy.rules.flatMap((rule, i) => (rule.categories.length > 0 ? [i] : []));
  if (naming.length === 0 || (await configurationsIn(tx, tenantId)).webCategoryEnabled) return [];
  return naming.map((i) => ({
    path: `body.rules.${i}.categories`,
    message: 'policy.validation.categoriesDisabled',
  }));
}

/**
 * The editor's rules checked against the tenant's objects and configuration; 400 with every problem otherwise. A
 * category refused because web categories are off says only that on its field.
 */
async function checkOrThrow(
  tx: Tx,
  tenantId: string,
  policy: PolicyData,
  existing?: readonly repo.RuleRow[],
): Promise<void> {
  const objects = await loadEngineObjects(tx, tenantId);
  const refused = await categoriesRefused(tx, tenantId, policy);
  const checked = checkPolicy(policy, {
    type: policy.type,
    objects,
    existing: existing ? new Map(existing.map((r) => [r.id, r])) : undefined,
  });
  const details: ErrorDetail[] = [
    ...refused,
    ...checked.filter((d) => !refused.some((r) => d.path === r.path || d.path.startsWith(`${r.path}.`))),
  ];
  if (details.length > 0) throw invalid(details);
}

// ---- Reads --------------------------------------------------------------------------------------------------

export function listPolicies(database: Database, ctx: Ctx): Promise<PolicyLists> {
  return database.tenantTx(ctx.tenant.id, async (tx) => listsOf(await repo.listPolicies(tx, ctx.tenant.id)));
}

export function getPolicy(database: Database, ctx: Ctx, id: string): Promise<Policy> {
  return database.tenantTx(ctx.tenant.id, (tx) => loadPolicy(tx, ctx, id));
}

// ---- Writes -------------------------------------------------------------------------------------------------

/** Saves run through the policy-test guard and answer with the saved policy and its lint findings. */
async function save(database: Database, ctx: Ctx, change: (tx: Tx) => Promise<string>): Promise<PolicySaved> {
  const { result: policy, input } = await commitPolicyChangeWithState(database, ctx, async (tx) =>
    loadPolicy(tx, ctx, await change(tx)),
  ).catch(rethrowUnique);
  return { policy, lint: findingsOf(input, policy.id) };
}

export function createPolicy(database: Database, ctx: Ctx, input: PolicyData): Promise<PolicySaved> {
  return save(database, ctx, creating(ctx, input));
}

/** The change that creates a policy (saved by {@link createPolicy}, rolled back by {@link previewPolicySave}). */
function creating(ctx: Ctx, input: PolicyData) {
  const tenantId = ctx.tenant.id;
  return async (tx: Tx) => {
    await checkOrThrow(tx, tenantId, input);
    if (await repo.policyNameTaken(tx, tenantId, input.name)) throw nameTaken();
    const precedence = await repo.nextPrecedence(tx, tenantId, typesOfList(policyListOf(input.type)));
    const id = await repo.insertPolicy(tx, tenantId, {
      type: input.type,
      name: input.name,
      description: input.description,
      enabled: input.enabled,
      blockPage: input.blockPage,
      fullTunnel: input.fullTunnel,
      precedence,
    });
    await repo.replaceRules(
      tx,
      tenantId,
      id,
      input.rules.map((rule) => toWrite(rule)),
    );
    const after = await loadPolicy(tx, ctx, id);
    await recordEvent(tx, ctx, {
      action: 'policy.create',
      objectType: 'policy',
      objectId: id,
      objectName: after.name,
      after,
    });
    return id;
  };
}

export function updatePolicy(
  database: Database,
  ctx: Ctx,
  id: string,
  input: PolicyData,
): Promise<PolicySaved> {
  return save(database, ctx, updating(ctx, id, input));
}

/** The change that replaces a policy (saved by {@link updatePolicy}, rolled back by {@link previewPolicySave}). */
function updating(ctx: Ctx, id: string, input: PolicyData) {
  const tenantId = ctx.tenant.id;
  return async (tx: Tx) => {
    const before = await loadPolicy(tx, ctx, id);
    const existing = await repo.listRules(tx, tenantId, [id]);
    await checkOrThrow(tx, tenantId, input, existing);
    if (await repo.policyNameTaken(tx, tenantId, input.name, id)) throw nameTaken();
    const list = policyListOf(input.type);
    await repo.updatePolicy(tx, tenantId, id, {
      type: input.type,
      name: input.name,
      description: input.description,
      enabled: input.enabled,
      blockPage: input.blockPage,
      fullTunnel: input.fullTunnel,
    });
    if (list !== policyListOf(before.type)) {
      // Moving to another list puts the policy last there.
      await repo.setPolicyPrecedence(
        tx,
        tenantId,
        id,
        await repo.nextPrecedence(tx, tenantId, typesOfList(list)),
      );
    }
    const rules = mergeSystemRules(
      existing,
      input.rules.map((rule) => toWrite(rule, rule.id)),
      (rule): repo.RuleWrite => rule,
    );
    await repo.replaceRules(tx, tenantId, id, rules);
    const after = await loadPolicy(tx, ctx, id);
    await recordEvent(tx, ctx, {
      action: 'policy.update',
      objectType: 'policy',
      objectId: id,
      objectName: after.name,
      before,
      after,
    });
    return id;
  };
}

/**
 * The engine input saving a policy would make (a new one when `id` is null), with every check of the save and
 * nothing saved: for the gateways' preview of what a save pushes.
 */
export async function previewPolicySave(
  database: Database,
  ctx: Ctx,
  id: string | null,
  input: PolicyData,
): Promise<EngineInput> {
  const change = id === null ? creating(ctx, input) : updating(ctx, id, input);
  const { input: engineInput } = await previewPolicyChange(database, ctx, change).catch(rethrowUnique);
  return engineInput;
}

export function setPolicyEnabled(database: Database, ctx: Ctx, id: string, enabled: boolean) {
  const tenantId = ctx.tenant.id;
  return save(database, ctx, async (tx) => {
    const before = await loadPolicy(tx, ctx, id);
    if (before.enabled === enabled) return id;
    await repo.updatePolicy(tx, tenantId, id, { enabled });
    const after = await loadPolicy(tx, ctx, id);
    await recordEvent(tx, ctx, {
      action: enabled ? 'policy.enable' : 'policy.disable',
      objectType: 'policy',
      objectId: id,
      objectName: after.name,
      before,
      after,
    });
    return id;
  });
}

/** "Copy of X", or "Copy of X (2)", (3)… — the first name no policy of the tenant has, within the length limit. */
async function copyName(tx: Tx, tenantId: string, original: string): Promise<string> {
  const base = `Copy of ${original}`.slice(0, POLICY_NAME_MAX).trim();
  const taken = await repo.policyNamesStartingWith(tx, tenantId, base.slice(0, POLICY_NAME_MAX - 10));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = `${base.slice(0, POLICY_NAME_MAX - suffix.length).trim()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** Copies a policy and its own rules (system rules stay with the original), disabled, right after it. */
export function copyPolicy(database: Database, ctx: Ctx, id: string, name?: string): Promise<PolicySaved> {
  const tenantId = ctx.tenant.id;
  return save(database, ctx, async (tx) => {
    const source = await repo.getPolicy(tx, tenantId, id);
    if (!source) throw notFound('Policy');
    const rules = (await repo.listRules(tx, tenantId, [id])).filter((r) => !isSystemRule(r));
    let copy = name;
    if (copy !== undefined) {
      if (await repo.policyNameTaken(tx, tenantId, copy)) throw nameTaken();
    } else {
      copy = await copyName(tx, tenantId, source.name);
    }
    await repo.makeRoomAfter(tx, tenantId, typesOfList(policyListOf(source.type)), source.precedence);
    const newId = await repo.insertPolicy(tx, tenantId, {
      type: source.type,
      name: copy,
      description: source.description,
      enabled: false,
      blockPage: source.blockPage,
      fullTunnel: source.fullTunnel,
      precedence: source.precedence + 1,
    });
    await repo.replaceRules(
      tx,
      tenantId,
      newId,
      rules.map(({ id: _id, policyId: _policyId, position: _position, ...rule }) => rule),
    );
    const after = await loadPolicy(tx, ctx, newId);
    await recordEvent(tx, ctx, {
      action: 'policy.copy',
      objectType: 'policy',
      objectId: newId,
      objectName: after.name,
      before: { copiedFrom: { id: source.id, name: source.name } },
      after,
    });
    return newId;
  });
}

/** Sets the order of one list; `ids` must be exactly that list's policies. */
export function reorderPolicies(
  database: Database,
  ctx: Ctx,
  list: PolicyList,
  ids: string[],
): Promise<PolicyLists> {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const current = (await repo.listPolicies(tx, tenantId)).filter((p) => policyListOf(p.type) === list);
    const currentIds = new Set(current.map((p) => p.id));
    const given = new Set(ids);
    if (
      given.size !== ids.length ||
      given.size !== currentIds.size ||
      ids.some((pid) => !currentIds.has(pid))
    ) {
      throw invalid([{ path: 'body.ids', message: 'policy.validation.orderMismatch' }]);
    }
    await repo.setPrecedences(tx, tenantId, ids);
    const before = current.map((p) => ({ id: p.id, name: p.name }));
    const byId = new Map(before.map((p) => [p.id, p]));
    await recordEvent(tx, ctx, {
      action: 'policy.reorder',
      objectType: 'policyList',
      objectId: list,
      objectName: list,
      before,
      after: ids.map((pid) => byId.get(pid)),
    });
    return listsOf(await repo.listPolicies(tx, tenantId));
  });
}

/** Deletes policies by id; unknown ids and other tenants' ids are skipped. */
export function deletePolicies(database: Database, ctx: Ctx, ids: string[]) {
  const tenantId = ctx.tenant.id;
  return commitPolicyChange(database, ctx, async (tx) => {
    const rows = await repo.listPolicies(tx, tenantId, [...new Set(ids)]);
    const rules = await repo.listRules(
      tx,
      tenantId,
      rows.map((r) => r.id),
    );
    const deleted = new Set(
      await repo.deletePolicies(
        tx,
        tenantId,
        rows.map((r) => r.id),
      ),
    );
    for (const row of rows) {
      if (!deleted.has(row.id)) continue;
      await recordEvent(tx, ctx, {
        action: 'policy.delete',
        objectType: 'policy',
        objectId: row.id,
        objectName: row.name,
        before: presentPolicy(
          row,
          rules.filter((r) => r.policyId === row.id),
        ),
      });
    }
    return { deleted: deleted.size };
  });
}

// ---- Drafts, simulation, lint ----------------------------------------------------------------------------------

export type DraftData = z.output<typeof PolicyDraft>;

/**
 * The engine input with a draft in place: it replaces the policy with its id (keeping that policy's system
 * rules, who it applies to and its place, or going last in a new list), or is added last in its list. Nothing
 * is checked beyond the schema, so lint can point at what the editor still has to fix.
 */
export async function inputWithDraft(tx: Tx, tenantId: string, draft: DraftData): Promise<EngineInput> {
  const input = await loadEngineInput(tx, tenantId);
  const { policy } = draft;
  const list = policyListOf(policy.type);
  const own = input.policies.filter((p) => !p.system);
  const lastInList = () => {
    const inList = own.filter((p) => p.id !== draft.id && policyListOf(p.type) === list);
    return inList.length === 0
      ? enginePrecedence(policy.type, 1)
      : Math.max(...inList.map((p) => p.precedence)) + 1;
  };
  const rules = policy.rules.map((rule, i) => ({
    ...toWrite(rule),
    id: rule.id ?? `draft-rule-${i + 1}`,
    url: rule.url,
  }));
  if (draft.id) {
    const current = own.find((p) => p.id === draft.id);
    if (!current) throw invalid([{ path: 'body.draft.id', message: 'policy.validation.unknownPolicy' }]);
    const existing = await repo.listRules(tx, tenantId, [draft.id]);
    const replaced: EnginePolicy = {
      ...current,
      name: policy.name,
      type: policy.type,
      enabled: policy.enabled,
      blockPage: policy.blockPage ?? current.blockPage,
      fullTunnel: policy.fullTunnel ?? current.fullTunnel,
      precedence: policyListOf(current.type) === list ? current.precedence : lastInList(),
      rules: mergeSystemRules(existing, rules, ({ policyId: _p, position: _q, ...rule }) => rule),
    };
    return { ...input, policies: input.policies.map((p) => (p.id === draft.id ? replaced : p)) };
  }
  const added: EnginePolicy = {
    id: 'draft',
    name: policy.name,
    type: policy.type,
    enabled: policy.enabled,
    blockPage: policy.blockPage ?? true,
    fullTunnel: policy.fullTunnel ?? false,
    precedence: lastInList(),
    rules,
    appliesTo: null,
  };
  return { ...input, policies: [...input.policies, added] };
}

/** Lint findings of the live policy, or of the live policy with a draft in place. */
export async function lintPolicies(
  database: Database,
  cache: PolicyCache,
  ctx: Ctx,
  draft?: DraftData,
): Promise<LintFinding[]> {
  const tenantId = ctx.tenant.id;
  const input = draft
    ? await database.tenantTx(tenantId, (tx) => inputWithDraft(tx, tenantId, draft))
    : (await cache.compiledFor(tenantId)).input;
  return lint(input);
}

// ---- Where-used ------------------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rules and policy groups that use an object; unknown ids are used nowhere. */
export function whereUsed(database: Database, ctx: Ctx, kind: ObjectKind, id: string): Promise<WhereUsed> {
  const tenantId = ctx.tenant.id;
  if ((kind === 'group' || kind === 'policy') && !UUID.test(id)) {
    throw invalid([{ path: 'query.id', message: 'validation.uuid' }]);
  }
  return database.tenantTx(tenantId, async (tx) => {
    if (kind === 'group')
      return { rules: [], policyGroups: await groupsRepo.policyGroupsOfGroup(tx, tenantId, id) };
    if (kind === 'policy')
      return { rules: [], policyGroups: await groupsRepo.policyGroupsOfPolicy(tx, tenantId, id) };
    const rules: RuleRef[] = await references.rulesUsing(tx, tenantId, kind, id);
    return { rules, policyGroups: [] };
  });
}

// ---- For policy templates (modules/policy-templates) ------------------------------------------------------------

/** A tenant's own policies with their rules (all, or those of `ids`), in the caller's transaction. */
export async function policiesWithRulesIn(tx: Tx, tenantId: string, ids?: string[]): Promise<Policy[]> {
  const rows = await repo.listPolicies(tx, tenantId, ids);
  if (rows.length === 0) return [];
  const rules = await repo.listRules(
    tx,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    presentPolicy(
      row,
      rules.filter((r) => r.policyId === row.id),
    ),
  );
}

/**
 * Creates (`id` null) or replaces a policy in the caller's transaction, with every check and the event of a save
 * from the editor; the caller runs it inside the policy-test guard (policy-core `commitPolicyChange`). Answers
 * the policy's id.
 */
export function savePolicyIn(tx: Tx, ctx: Ctx, id: string | null, input: PolicyData): Promise<string> {
  return (id === null ? creating(ctx, input) : updating(ctx, id, input))(tx).catch(rethrowUnique);
}

// ---- For the configuration flags (modules/features, wired in module-list.ts) ------------------------------------

/**
 * What keeps the tenant's policy configuration flags on (spec §6): `policyGroups` while it has policy groups (they
 * would go on deciding with their screens and routes closed), `webCategoryEnabled` while rules name categories.
 */
export const policyConfigurationGuards: ConfigurationGuards = {
  policyGroups: {
    count: (tx, tenantId) => groupsRepo.countPolicyGroups(tx, tenantId),
    refusal: (count) =>
      `The tenant has ${count} policy group(s); delete them before turning policy groups off.`,
  },
  webCategoryEnabled: {
    count: (tx, tenantId) => repo.countRulesWithCategories(tx, tenantId),
    refusal: (count) =>
      `${count} policy rule(s) name web categories; remove the categories before turning web categories off.`,
  },
};
