import {
  isSystemRule,
  type RuleAction,
  type RuleRef,
  type RuleType,
  splitMatcher,
} from '@palisade/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client';
import { policies, policyRules } from './policies.tables';

// The references from rules to the objects of the policy-objects module (which reaches them through policy-core):
// where an object is used, how often, and taking deleted objects out of the rules.

/** What a rule refers to by id: the object kinds of the policy-objects module. */
export type ReferenceKind = 'location' | 'app' | 'category' | 'feed';

const ARRAY_COLUMN = { location: 'locations', category: 'categories', feed: 'feeds' } as const;

/** The items of an app rule's matcher, trimmed, as SQL (app ids are separated by `;`, `,` or new lines). */
const appItems = sql`(select btrim(item) as item
  from unnest(regexp_split_to_array(policy_rules.url, '[;,\n]')) as item where btrim(item) <> '')`;

/** The rules that use an object, as the trace names rules, in policy and rule order. */
export async function rulesUsing(
  tx: Tx,
  tenantId: string,
  kind: ReferenceKind,
  id: string,
): Promise<RuleRef[]> {
  const uses =
    kind === 'app'
      ? sql`policy_rules.type = 'app' and ${id} in ${appItems}`
      : sql`${id} = any(${sql.identifier('policy_rules')}.${sql.identifier(ARRAY_COLUMN[kind])})`;
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select policy_rules.id as rule_id, policy_rules.name as rule_name, policy_rules.type, policy_rules.action,
        policy_rules.issysgen, policies.id as policy_id, policies.name as policy_name
      from policy_rules join policies on policies.tenant_id = policy_rules.tenant_id
        and policies.id = policy_rules.policy_id
      where policy_rules.tenant_id = ${tenantId} and ${uses}
      order by policies.type, policies.precedence, policy_rules.position`,
  );
  return rows.map((row) => ({
    policyId: String(row.policy_id),
    policyName: String(row.policy_name),
    ruleId: String(row.rule_id),
    ruleName: String(row.rule_name),
    type: row.type as RuleType,
    action: row.action as RuleAction,
    system: isSystemRule({ name: String(row.rule_name), issysgen: Boolean(row.issysgen) }),
  }));
}

/** How many rules use each object id of a kind (ids no rule uses are absent). */
export async function ruleReferenceCounts(
  tx: Tx,
  tenantId: string,
  kind: ReferenceKind,
): Promise<Map<string, number>> {
  const rows =
    kind === 'app'
      ? await queryRows<{ item: string; uses: number | string }>(
          tx,
          sql`select btrim(item) as item, count(distinct policy_rules.id) as uses
            from policy_rules cross join unnest(regexp_split_to_array(policy_rules.url, '[;,\n]')) as item
            where policy_rules.tenant_id = ${tenantId} and policy_rules.type = 'app' and btrim(item) <> ''
            group by btrim(item)`,
        )
      : await queryRows<{ item: string; uses: number | string }>(
          tx,
          sql`select item, count(distinct policy_rules.id) as uses
            from policy_rules cross join unnest(${sql.identifier('policy_rules')}.${sql.identifier(ARRAY_COLUMN[kind])}) as item
            where policy_rules.tenant_id = ${tenantId}
            group by item`,
        );
  return new Map(rows.map((row) => [String(row.item), Number(row.uses)]));
}

/**
 * Removes object ids from every rule that uses them: from `locations`, `categories` or `feeds`, or from the
 * matcher of app rules. A rule left with nothing to match (empty matcher, no categories, no feeds) is deleted.
 * The policies whose rules changed get a new `updated_at`.
 */
export async function removeRuleReferences(tx: Tx, tenantId: string, kind: ReferenceKind, ids: string[]) {
  if (ids.length === 0) return;
  const gone = new Set(ids);
  const touched: { id: string; policyId: string }[] = [];
  if (kind === 'app') {
    const rows = await tx
      .select({ id: policyRules.id, policyId: policyRules.policyId, url: policyRules.url })
      .from(policyRules)
      .where(and(eq(policyRules.tenantId, tenantId), eq(policyRules.type, 'app')));
    for (const row of rows) {
      const items = splitMatcher(row.url);
      const kept = items.filter((item) => !gone.has(item));
      if (kept.length === items.length) continue;
      await tx
        .update(policyRules)
        .set({ url: kept.join(';') })
        .where(and(eq(policyRules.tenantId, tenantId), eq(policyRules.id, row.id)));
      touched.push(row);
    }
  } else {
    const column = sql.identifier(ARRAY_COLUMN[kind]);
    const list = JSON.stringify([...gone]);
    const rows = await queryRows<{ id: string; policy_id: string }>(
      tx,
      sql`update policy_rules
        set ${column} = array(select item from unnest(policy_rules.${column}) as item
          where not item = any(array(select jsonb_array_elements_text(${list}::jsonb))))
        where policy_rules.tenant_id = ${tenantId}
          and policy_rules.${column} && array(select jsonb_array_elements_text(${list}::jsonb))
        returning policy_rules.id, policy_rules.policy_id`,
    );
    touched.push(...rows.map((row) => ({ id: String(row.id), policyId: String(row.policy_id) })));
  }
  if (touched.length === 0) return;
  await tx.delete(policyRules).where(
    and(
      eq(policyRules.tenantId, tenantId),
      inArray(
        policyRules.id,
        touched.map((row) => row.id),
      ),
      eq(policyRules.url, ''),
      sql`cardinality(${policyRules.categories}) = 0`,
      sql`cardinality(${policyRules.feeds}) = 0`,
    ),
  );
  await tx
    .update(policies)
    .set({ updatedAt: new Date() })
    .where(
      and(
        eq(policies.tenantId, tenantId),
        inArray(policies.id, [...new Set(touched.map((r) => r.policyId))]),
      ),
    );
}
