import type { TemplateObjects, TemplatePolicy } from '@palisade/contracts';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { policyTemplateLinks, policyTemplates } from './policy-templates.tables';

export type TemplateRow = Omit<typeof policyTemplates.$inferSelect, 'policies' | 'objects'> & {
  policies: TemplatePolicy[];
  objects: TemplateObjects;
};
export type LinkRow = typeof policyTemplateLinks.$inferSelect;

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the tenant's templates by name. */
export async function listTemplates(
  tx: Tx,
  tenantId: string,
  query: { q?: string; order: 'asc' | 'desc'; limit: number; offset: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const where = and(
    eq(policyTemplates.tenantId, tenantId),
    query.q ? sql`lower(${policyTemplates.name}) like ${likePattern(query.q)}` : undefined,
  );
  const rows = await tx
    .select()
    .from(policyTemplates)
    .where(where)
    .orderBy(
      query.order === 'desc'
        ? desc(sql`lower(${policyTemplates.name})`)
        : asc(sql`lower(${policyTemplates.name})`),
      asc(policyTemplates.id),
    )
    .limit(query.limit)
    .offset(query.offset);
  const [{ n }] = await tx.select({ n: count() }).from(policyTemplates).where(where);
  return { rows: rows as TemplateRow[], total: Number(n) };
}

export async function getTemplate(tx: Tx, tenantId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await tx
    .select()
    .from(policyTemplates)
    .where(and(eq(policyTemplates.tenantId, tenantId), eq(policyTemplates.id, id)))
    .limit(1);
  return (row as TemplateRow | undefined) ?? null;
}

export async function templateNameTaken(tx: Tx, tenantId: string, name: string, exceptId?: string) {
  const [row] = await tx
    .select({ id: policyTemplates.id })
    .from(policyTemplates)
    .where(
      and(
        eq(policyTemplates.tenantId, tenantId),
        sql`lower(${policyTemplates.name}) = ${name.toLowerCase()}`,
        exceptId ? sql`${policyTemplates.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export interface TemplateValues {
  name: string;
  description: string;
  sourceTenant: string;
  policies: TemplatePolicy[];
  objects: TemplateObjects;
  updatedBy: string;
}

export async function insertTemplate(tx: Tx, tenantId: string, values: TemplateValues): Promise<string> {
  const [row] = await tx
    .insert(policyTemplates)
    .values({ tenantId, ...values })
    .returning({ id: policyTemplates.id });
  return row.id;
}

/** Replaces a template's content; its version rises by one. */
export async function updateTemplate(tx: Tx, tenantId: string, id: string, values: TemplateValues) {
  await tx
    .update(policyTemplates)
    .set({ ...values, version: sql`${policyTemplates.version} + 1`, updatedAt: new Date() })
    .where(and(eq(policyTemplates.tenantId, tenantId), eq(policyTemplates.id, id)));
}

export async function deleteTemplate(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(policyTemplates)
    .where(and(eq(policyTemplates.tenantId, tenantId), eq(policyTemplates.id, id)))
    .returning({ id: policyTemplates.id });
  return rows.length > 0;
}

// ---- Links of a customer tenant's policies to template policies --------------------------------------------------

export function listLinks(tx: Tx, tenantId: string, templateId: string): Promise<LinkRow[]> {
  return tx
    .select()
    .from(policyTemplateLinks)
    .where(and(eq(policyTemplateLinks.tenantId, tenantId), eq(policyTemplateLinks.templateId, templateId)));
}

/** Sets the tenant's links of a template to exactly `links` (links of policies the template no longer has go). */
export async function replaceLinks(
  tx: Tx,
  tenantId: string,
  templateId: string,
  links: Array<{ key: string; policyId: string; version: number; hash: string; appliedBy: string }>,
) {
  await tx
    .delete(policyTemplateLinks)
    .where(and(eq(policyTemplateLinks.tenantId, tenantId), eq(policyTemplateLinks.templateId, templateId)));
  if (links.length === 0) return;
  await tx.insert(policyTemplateLinks).values(
    links.map((l) => ({
      tenantId,
      templateId,
      templatePolicyKey: l.key,
      policyId: l.policyId,
      appliedVersion: l.version,
      appliedHash: l.hash,
      appliedBy: l.appliedBy,
    })),
  );
}
