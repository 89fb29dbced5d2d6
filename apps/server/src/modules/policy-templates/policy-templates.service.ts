import { createHash } from 'node:crypto';
import {
  type ErrorDetail,
  isSystemRule,
  type Policy,
  type PolicyTemplate,
  type PolicyTemplateInput,
  type PolicyTemplateSummary,
  type PolicyTestFailure,
  splitMatcher,
  type TemplateApplyResult,
  type TemplateChange,
  type TemplateDiffLine,
  type TemplateObjects,
  type TemplatePolicy,
  type TemplatePreview,
  type TemplateRule,
  type TemplateTenantStatus,
} from '@palisade/contracts';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/driver';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { AppError, invalid, notFound } from '../../lib/errors';
import { policiesWithRulesIn, savePolicyIn } from '../policies/policies.service';
import type { PolicyData } from '../policies/policy-validation';
import { commitPolicyChange, previewPolicyChange } from '../policy-core/policy-core.service';
import {
  ensureNamedObjectsIn,
  type NamedObjects,
  namedObjectsIn,
} from '../policy-objects/template-objects.service';
import { listManagedTenants, managedTenantByName, scopeOf } from '../tenants/tenants.service';
import * as repo from './policy-templates.repository';

type TemplateInput = z.output<typeof PolicyTemplateInput>;
type Target = { id: string; name: string; displayName: string };

// ---- Normalised content: a policy with its objects by name, the same for a template and a tenant's copy -------

/** A tenant's policy as a template holds it: own rules only, objects by name (custom ones; shipped ones by id). */
function contentOf(policy: Policy, objects: NamedObjects, key: string): TemplatePolicy {
  const locations = new Map(objects.locations.map((l) => [l.id, l.name]));
  const categories = new Map(objects.categories.map((c) => [c.id, c.name]));
  const apps = new Map(objects.apps.map((a) => [a.appid, a.appname]));
  return {
    key,
    name: policy.name,
    type: policy.type,
    description: policy.description,
    enabled: policy.enabled,
    rules: policy.rules
      .filter((r) => !isSystemRule(r))
      .map(
        (r): TemplateRule => ({
          name: r.name,
          type: r.type,
          url: splitMatcher(r.url).map((item) => (r.type === 'app' ? (apps.get(item) ?? item) : item)),
          action: r.action,
          target: r.target,
          ports: r.ports,
          categories: r.categories.map((id) => categories.get(id) ?? id),
          feeds: [...r.feeds],
          locations: r.locations.map((id) => locations.get(id) ?? id),
          schedule: r.schedule
            ? { days: [...r.schedule.days], from: r.schedule.from, to: r.schedule.to }
            : null,
          enabled: r.enabled,
        }),
      ),
  };
}

/** JSON with object keys sorted at every level (a template read back from jsonb has its keys reordered). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash of a policy's normalised content (its key left out): what drift compares. */
function hashOf(content: TemplatePolicy): string {
  const { key: _key, ...rest } = content;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

/** A template policy as a save of the tenant's policies takes it, objects resolved to the tenant's ids. */
function policyDataOf(
  policy: TemplatePolicy,
  ids: { locations: Map<string, string>; categories: Map<string, string>; apps: Map<string, string> },
): PolicyData {
  const resolve = (map: Map<string, string>, name: string) => map.get(name.toLowerCase()) ?? name;
  return {
    type: policy.type,
    name: policy.name,
    description: policy.description,
    enabled: policy.enabled,
    rules: policy.rules.map((r) => ({
      name: r.name,
      type: r.type,
      url: (r.type === 'app' ? r.url.map((item) => resolve(ids.apps, item)) : r.url).join(';'),
      action: r.action,
      target: r.target,
      ports: r.ports,
      categories: r.categories.map((c) => resolve(ids.categories, c)),
      feeds: r.feeds,
      locations: r.locations.map((l) => resolve(ids.locations, l)),
      schedule: r.schedule,
      enabled: r.enabled,
    })),
  };
}

// ---- Readable differences --------------------------------------------------------------------------------------

const show = (value: unknown): string =>
  Array.isArray(value)
    ? value.join(', ')
    : value && typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const RULE_FIELDS = [
  'type',
  'url',
  'action',
  'target',
  'ports',
  'categories',
  'feeds',
  'locations',
  'schedule',
  'enabled',
] as const;

const ruleSummary = (r: TemplateRule) =>
  `${r.action} ${r.type} ${r.url.join(', ')}${r.categories.length ? ` [${r.categories.join(', ')}]` : ''}`.trim();

/** What applying `wanted` over `current` changes, field by field; rules are matched by name. */
export function diffOf(current: TemplatePolicy | null, wanted: TemplatePolicy): TemplateDiffLine[] {
  if (!current)
    return wanted.rules.map((r) => ({ path: `rules.${r.name}`, before: null, after: ruleSummary(r) }));
  const lines: TemplateDiffLine[] = [];
  for (const field of ['name', 'type', 'description', 'enabled'] as const) {
    if (current[field] !== wanted[field]) {
      lines.push({ path: field, before: show(current[field]), after: show(wanted[field]) });
    }
  }
  const byName = new Map(current.rules.map((r) => [r.name.toLowerCase(), r]));
  for (const rule of wanted.rules) {
    const was = byName.get(rule.name.toLowerCase());
    if (!was) {
      lines.push({ path: `rules.${rule.name}`, before: null, after: ruleSummary(rule) });
      continue;
    }
    for (const field of RULE_FIELDS) {
      if (show(was[field]) !== show(rule[field])) {
        lines.push({
          path: `rules.${rule.name}.${field}`,
          before: show(was[field]),
          after: show(rule[field]),
        });
      }
    }
  }
  const wantedNames = new Set(wanted.rules.map((r) => r.name.toLowerCase()));
  for (const rule of current.rules) {
    if (!wantedNames.has(rule.name.toLowerCase())) {
      lines.push({ path: `rules.${rule.name}`, before: ruleSummary(rule), after: null });
    }
  }
  const order = (p: TemplatePolicy) => p.rules.map((r) => r.name.toLowerCase()).join('\n');
  if (lines.length === 0 && order(current) !== order(wanted)) {
    lines.push({
      path: 'rules',
      before: current.rules.map((r) => r.name).join(', '),
      after: wanted.rules.map((r) => r.name).join(', '),
    });
  }
  return lines;
}

// ---- Presenting ------------------------------------------------------------------------------------------------

const objectCount = (o: TemplateObjects) => o.locations.length + o.categories.length + o.apps.length;

function presentSummary(row: repo.TemplateRow): PolicyTemplateSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    sourceTenant: row.sourceTenant,
    policyCount: row.policies.length,
    objectCount: objectCount(row.objects),
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function presentTemplate(row: repo.TemplateRow): PolicyTemplate {
  return {
    ...presentSummary(row),
    policies: row.policies,
    objects: row.objects,
    createdAt: row.createdAt.toISOString(),
  };
}

// ---- Templates -------------------------------------------------------------------------------------------------

export async function listTemplates(
  database: Database,
  ctx: Ctx,
  query: { q?: string; order: 'asc' | 'desc'; limit: number; offset: number },
) {
  scopeOf(ctx);
  const { rows, total } = await database.tenantTx(ctx.tenant.id, (tx) =>
    repo.listTemplates(tx, ctx.tenant.id, query),
  );
  return { items: rows.map(presentSummary), total };
}

async function requireTemplate(database: Database, ctx: Ctx, id: string): Promise<repo.TemplateRow> {
  scopeOf(ctx);
  const row = await database.tenantTx(ctx.tenant.id, (tx) => repo.getTemplate(tx, ctx.tenant.id, id));
  if (!row) throw notFound('Policy template');
  return row;
}

export async function getTemplate(database: Database, ctx: Ctx, id: string) {
  return presentTemplate(await requireTemplate(database, ctx, id));
}

/** The tenant the policies come from: the console's own or a managed one (404 otherwise), as a 400 on the field. */
async function sourceOf(database: Database, ctx: Ctx, name: string): Promise<Target> {
  try {
    return await managedTenantByName(database, ctx, name);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw invalid([{ path: 'body.sourceTenant', message: 'policyTemplates.validation.unknownTenant' }]);
    }
    throw error;
  }
}

/** The chosen policies of the source tenant with the objects their rules use, by name. */
async function snapshot(database: Database, ctx: Ctx, input: TemplateInput) {
  const source = await sourceOf(database, ctx, input.sourceTenant);
  const ids = [...new Set(input.policyIds)];
  return database.tenantTx(source.id, async (tx) => {
    const found = await policiesWithRulesIn(tx, source.id, ids);
    const details: ErrorDetail[] = [];
    input.policyIds.forEach((id, i) => {
      if (!found.some((p) => p.id === id)) {
        details.push({ path: `body.policyIds.${i}`, message: 'policyTemplates.validation.unknownPolicy' });
      }
    });
    if (details.length > 0) throw invalid(details);
    const objects = await namedObjectsIn(tx, source.id);
    const ordered = ids.map((id) => found.find((p) => p.id === id)!);
    const policies = ordered.map((p) => contentOf(p, objects, p.id));
    const used = { locations: new Set<string>(), categories: new Set<string>(), apps: new Set<string>() };
    for (const rule of ordered.flatMap((p) => p.rules)) {
      for (const id of rule.locations) used.locations.add(id);
      for (const id of rule.categories) used.categories.add(id);
      if (rule.type === 'app') for (const id of splitMatcher(rule.url)) used.apps.add(id);
    }
    const templateObjects: TemplateObjects = {
      locations: objects.locations
        .filter((l) => used.locations.has(l.id))
        .map((l) => ({ name: l.name, description: l.description, networks: l.networks })),
      categories: objects.categories
        .filter((c) => used.categories.has(c.id))
        .map((c) => ({ name: c.name, description: c.description, domains: c.domains })),
      apps: objects.apps
        .filter((a) => used.apps.has(a.appid))
        .map((a) => ({ appname: a.appname, category: a.category, domains: a.domains, ips: a.ips })),
    };
    return { sourceTenant: source.name, policies, objects: templateObjects };
  });
}

const templateNameTaken = () =>
  new AppError('conflict', 'A template with this name exists.', [
    { path: 'body.name', message: 'policyTemplates.validation.nameTaken' },
  ]);

function rethrowUnique(error: unknown): never {
  if (isUniqueViolation(error)) throw templateNameTaken();
  throw error;
}

export async function createTemplate(database: Database, ctx: Ctx, input: TemplateInput) {
  scopeOf(ctx);
  const content = await snapshot(database, ctx, input);
  const id = await database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await repo.templateNameTaken(tx, ctx.tenant.id, input.name)) throw templateNameTaken();
      const created = await repo.insertTemplate(tx, ctx.tenant.id, {
        name: input.name,
        description: input.description,
        ...content,
        updatedBy: ctx.actor.username,
      });
      await recordEvent(tx, ctx, {
        action: 'policy.template.create',
        objectType: 'policyTemplate',
        objectId: created,
        objectName: input.name,
        after: { sourceTenant: content.sourceTenant, policies: content.policies.map((p) => p.name) },
      });
      return created;
    })
    .catch(rethrowUnique);
  return getTemplate(database, ctx, id);
}

export async function updateTemplate(database: Database, ctx: Ctx, id: string, input: TemplateInput) {
  const before = await requireTemplate(database, ctx, id);
  const content = await snapshot(database, ctx, input);
  await database
    .tenantTx(ctx.tenant.id, async (tx) => {
      if (await repo.templateNameTaken(tx, ctx.tenant.id, input.name, id)) throw templateNameTaken();
      await repo.updateTemplate(tx, ctx.tenant.id, id, {
        name: input.name,
        description: input.description,
        ...content,
        updatedBy: ctx.actor.username,
      });
      await recordEvent(tx, ctx, {
        action: 'policy.template.update',
        objectType: 'policyTemplate',
        objectId: id,
        objectName: input.name,
        before: { name: before.name, version: before.version, policies: before.policies.map((p) => p.name) },
        after: {
          name: input.name,
          version: before.version + 1,
          policies: content.policies.map((p) => p.name),
        },
      });
    })
    .catch(rethrowUnique);
  return getTemplate(database, ctx, id);
}

export async function deleteTemplate(database: Database, ctx: Ctx, id: string) {
  const before = await requireTemplate(database, ctx, id);
  await database.tenantTx(ctx.tenant.id, async (tx) => {
    await repo.deleteTemplate(tx, ctx.tenant.id, id);
    await recordEvent(tx, ctx, {
      action: 'policy.template.delete',
      objectType: 'policyTemplate',
      objectId: id,
      objectName: before.name,
      before: { name: before.name, version: before.version, policies: before.policies.map((p) => p.name) },
    });
  });
  return { deleted: 1 };
}

// ---- In a tenant: plan, apply, status ------------------------------------------------------------------------

/** The partner (or platform) acting in a managed tenant: the tenant's log records it with `acting_from`. */
const actingIn = (ctx: Ctx, target: Target): Ctx => ({
  ...ctx,
  tenant: { id: target.id, name: target.name, kind: 'customer' },
});

interface PlannedPolicy {
  template: TemplatePolicy;
  /** The tenant's copy: the linked policy while it exists, else the tenant's policy of the same name. */
  targetId: string | null;
  change: TemplateChange;
  diff: TemplateDiffLine[];
}

/** What applying the template would do in the tenant, read in its transaction. */
async function planIn(tx: Tx, tenantId: string, template: repo.TemplateRow): Promise<PlannedPolicy[]> {
  const links = await repo.listLinks(tx, tenantId, template.id);
  const policies = await policiesWithRulesIn(tx, tenantId);
  const objects = await namedObjectsIn(tx, tenantId);
  return template.policies.map((wanted) => {
    const linked = links.find((l) => l.templatePolicyKey === wanted.key);
    const copy =
      policies.find((p) => p.id === linked?.policyId) ??
      policies.find((p) => p.name.toLowerCase() === wanted.name.toLowerCase());
    if (!copy) return { template: wanted, targetId: null, change: 'create', diff: diffOf(null, wanted) };
    const current = contentOf(copy, objects, wanted.key);
    const same = hashOf(current) === hashOf(wanted);
    return {
      template: wanted,
      targetId: copy.id,
      change: same ? 'unchanged' : 'update',
      diff: same ? [] : diffOf(current, wanted),
    };
  });
}

/** The change applying a template makes in one tenant, run inside the policy-test guard. */
function applying(ctx: Ctx, template: repo.TemplateRow) {
  const tenantId = ctx.tenant.id;
  return async (tx: Tx) => {
    const plan = await planIn(tx, tenantId, template);
    const { ids } = await ensureNamedObjectsIn(tx, ctx, template.objects, false);
    const policyIds: string[] = [];
    for (const planned of plan) {
      policyIds.push(
        planned.change === 'unchanged' && planned.targetId
          ? planned.targetId
          : await savePolicyIn(tx, ctx, planned.targetId, policyDataOf(planned.template, ids)),
      );
    }
    const objects = await namedObjectsIn(tx, tenantId);
    const saved = await policiesWithRulesIn(tx, tenantId, policyIds);
    await repo.replaceLinks(
      tx,
      tenantId,
      template.id,
      plan.map((planned, i) => ({
        key: planned.template.key,
        policyId: policyIds[i],
        version: template.version,
        hash: hashOf(contentOf(saved.find((p) => p.id === policyIds[i])!, objects, planned.template.key)),
        appliedBy: ctx.actor.username,
      })),
    );
    const counts = {
      created: plan.filter((p) => p.change === 'create').length,
      updated: plan.filter((p) => p.change === 'update').length,
      unchanged: plan.filter((p) => p.change === 'unchanged').length,
    };
    await recordEvent(tx, ctx, {
      action: 'policy.template.apply',
      objectType: 'policyTemplate',
      objectId: template.id,
      objectName: template.name,
      after: { version: template.version, ...counts, policies: template.policies.map((p) => p.name) },
    });
    return counts;
  };
}

/** The managed tenants named, each once, in order; 404 for one the console does not manage. */
async function targetsOf(database: Database, ctx: Ctx, names: string[]): Promise<Target[]> {
  const targets: Target[] = [];
  for (const name of [...new Set(names)]) {
    if (name === ctx.tenant.name) throw notFound('Tenant');
    targets.push(await managedTenantByName(database, ctx, name));
  }
  return targets;
}

type TenantError = NonNullable<TemplatePreview['error']>;

/** An expected refusal as the answer carries it per tenant: broken tests, or the error's envelope parts. */
function outcomeOf(error: unknown): { failingTests: PolicyTestFailure[]; error: TenantError | null } {
  if (!(error instanceof AppError)) throw error;
  if (error.code === 'policy_tests_failed') {
    return { failingTests: (error.failures ?? []) as PolicyTestFailure[], error: null };
  }
  return {
    failingTests: [],
    error: {
      errcode: error.errcode,
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details.map(({ path, message }) => ({ path, message })) } : {}),
    },
  };
}

export async function previewTemplate(database: Database, ctx: Ctx, id: string, names: string[]) {
  const template = await requireTemplate(database, ctx, id);
  const targets = await targetsOf(database, ctx, names);
  const tenants: TemplatePreview[] = [];
  for (const target of targets) {
    const inTenant = actingIn(ctx, target);
    const { plan, objects } = await database.tenantTx(target.id, async (tx) => ({
      plan: await planIn(tx, target.id, template),
      objects: (await ensureNamedObjectsIn(tx, inTenant, template.objects, true)).changes,
    }));
    let outcome: ReturnType<typeof outcomeOf> = { failingTests: [], error: null };
    try {
      await previewPolicyChange(database, inTenant, applying(inTenant, template));
    } catch (error) {
      outcome = outcomeOf(error);
    }
    tenants.push({
      tenant: target.name,
      policies: plan.map((p) => ({ name: p.template.name, change: p.change, diff: p.diff })),
      objects,
      ...outcome,
    });
  }
  return { tenants };
}

export async function applyTemplate(database: Database, ctx: Ctx, id: string, names: string[]) {
  const template = await requireTemplate(database, ctx, id);
  const targets = await targetsOf(database, ctx, names);
  const tenants: TemplateApplyResult[] = [];
  for (const target of targets) {
    const inTenant = actingIn(ctx, target);
    try {
      const counts = await commitPolicyChange(database, inTenant, applying(inTenant, template));
      tenants.push({ tenant: target.name, result: 'applied', ...counts, failingTests: [], error: null });
    } catch (error) {
      const outcome = outcomeOf(error);
      tenants.push({
        tenant: target.name,
        result: outcome.error ? 'failed' : 'refused',
        created: 0,
        updated: 0,
        unchanged: 0,
        ...outcome,
      });
    }
  }
  // The partner's own log: which tenants it applied the template to, and how each went.
  await database.tenantTx(ctx.tenant.id, (tx) =>
    recordEvent(tx, ctx, {
      action: 'policy.template.apply',
      objectType: 'policyTemplate',
      objectId: template.id,
      objectName: template.name,
      after: {
        version: template.version,
        tenants: tenants.map((t) => ({ tenant: t.tenant, result: t.result })),
      },
    }),
  );
  return { tenants };
}

/** Per managed tenant (a page of the console's list): never applied, in sync, drifted or outdated. */
export async function templateStatus(
  database: Database,
  ctx: Ctx,
  id: string,
  query: { q?: string; order: 'asc' | 'desc'; limit: number; offset: number },
) {
  const template = await requireTemplate(database, ctx, id);
  const page = await listManagedTenants(database, ctx, { ...query, sort: 'name' });
  const items: TemplateTenantStatus[] = [];
  for (const tenant of page.items) {
    items.push(
      await database.tenantTx(tenant.id, async (tx) => {
        const links = await repo.listLinks(tx, tenant.id, template.id);
        const base = { tenant: tenant.name, displayName: tenant.displayName };
        if (links.length === 0) {
          return {
            ...base,
            state: 'never' as const,
            appliedVersion: null,
            appliedAt: null,
            appliedBy: null,
            drifted: [],
          };
        }
        const policies = await policiesWithRulesIn(
          tx,
          tenant.id,
          links.map((l) => l.policyId),
        );
        const objects = await namedObjectsIn(tx, tenant.id);
        const drifted: TemplateTenantStatus['drifted'] = [];
        for (const link of links) {
          const copy = policies.find((p) => p.id === link.policyId);
          const name =
            template.policies.find((p) => p.key === link.templatePolicyKey)?.name ?? copy?.name ?? '';
          if (!copy) drifted.push({ policy: name, changedAt: null });
          else if (hashOf(contentOf(copy, objects, link.templatePolicyKey)) !== link.appliedHash) {
            drifted.push({ policy: name, changedAt: copy.updatedAt });
          }
        }
        const last = links.reduce((a, b) => (a.appliedAt > b.appliedAt ? a : b));
        const version = Math.min(...links.map((l) => l.appliedVersion));
        return {
          ...base,
          state:
            drifted.length > 0
              ? ('drifted' as const)
              : version < template.version
                ? ('outdated' as const)
                : ('inSync' as const),
          appliedVersion: version,
          appliedAt: last.appliedAt.toISOString(),
          appliedBy: last.appliedBy,
          drifted,
        };
      }),
    );
  }
  return { items, total: page.total };
}
